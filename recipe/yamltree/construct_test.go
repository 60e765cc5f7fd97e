// Where YAML syntax errors point: the construct to fix when libyaml notices the problem past it.

package yamltree

import (
	"errors"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func TestErrorConstruct(t *testing.T) {
	for _, c := range []struct {
		src, msg string
		at       string // the text from the construct on ("" for none: libyaml's mark is the place)
		atEnd    bool
	}{
		{src: "a: 1\nb: \"x\nc: 2\n", msg: "found unexpected end of stream", at: "\"x", atEnd: true},
		{src: "a: 1\nb: 'x\n", msg: "found unexpected end of stream", at: "'x", atEnd: true},
		{src: "a: \"x\n---\nb: 1\n", msg: "found unexpected document indicator", at: "\"x"},
		{src: "a: 1\nno colon here\nb: 2\n", msg: "could not find expected ':'", at: "no colon"},
		{src: "a: [1, 2\nb: 3\n", msg: "did not find expected ',' or ']'", at: "[1, 2"},
		{src: "a: {k: 1\nb: 3\n", msg: "did not find expected ',' or '}'", at: "{k: 1"},
		{src: "a: [1, 2\n", msg: "did not find expected ',' or ']'", at: "[1, 2", atEnd: true},
		{src: "{\"a\": 1,\n \"b\": [1, 2,\n \"c\": 3\n}\n", msg: "did not find expected ',' or ']'", at: "[1, 2,"},
		{src: "{\"a\": \"x,\n \"b\": 1}\n", msg: "did not find expected ',' or '}'", at: "\"x,"},
		{src: "a: \"x\nb: \"y\"\n", msg: "did not find expected key", at: "\"x"},
		// libyaml's mark is the place
		{src: "a: [\n  \"1\",\n  \"2\"\n  \"3\"\n]\n", msg: "did not find expected ',' or ']'"},
		{src: "{\"a\": 1\n \"b\": 2}\n", msg: "did not find expected ',' or '}'"},
		{src: "a: \"x\\q\"\n", msg: "found unknown escape character"},
		{src: "a: b: c\n", msg: "mapping values are not allowed in this context"},
		{src: "a:\n  - 1\n - 2\n", msg: "did not find expected key"},
		{src: "a: \"x\n  y\" z\nb: 1\n", msg: "did not find expected key"}, // a string that ends where meant
		{src: "a: [don't, x\n  ]\nb: 'c\n", msg: "found unexpected end of stream", at: "'c", atEnd: true},
	} {
		_, err := Parse(source.NewLineIndex([]byte(c.src)))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: want a syntax error, got %v", c.src, err)
			continue
		}
		if e.Msg != c.msg {
			t.Errorf("%q: message %q, want %q", c.src, e.Msg, c.msg)
		}
		switch {
		case c.at == "" && e.HasConstruct:
			t.Errorf("%q (%s): construct at %d (%q), want libyaml's mark %d", c.src, e.Msg, e.Construct, c.src[e.Construct:], e.Offset)
		case c.at != "" && (!e.HasConstruct || !strings.HasPrefix(c.src[e.Construct:], c.at)):
			t.Errorf("%q (%s): construct %v at %d, want at %q", c.src, e.Msg, e.HasConstruct, e.Construct, c.at)
		case c.at != "" && e.AtEnd != c.atEnd:
			t.Errorf("%q (%s): AtEnd %v, want %v", c.src, e.Msg, e.AtEnd, c.atEnd)
		}
	}
}
