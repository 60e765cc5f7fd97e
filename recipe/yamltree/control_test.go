// libyaml's verdicts and words where goose-ls follows them: characters libyaml's reader refuses ("control
// characters are not allowed") fail the parse at the character, as goose's serde_yaml does (libyaml decodes
// 16 KiB at a time, so a character in the first 16 KiB wins over any other error; a later one only when
// goose has not stopped before its chunk), and goccy/go-yaml's messages are worded as libyaml's.

package yamltree

import (
	"errors"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func TestControlCharacters(t *testing.T) {
	for _, c := range []struct {
		name, text string
		at, end    int // -1: no control-character error
	}{
		{"C0 in a plain scalar", "title: T\ndescription: a\x01b\n", 23, 24},
		{"escape in a key", "ti\x1btle: T\n", 2, 3},
		{"DEL in a block scalar", "prompt: |\n  x\x7f\n", 13, 14},
		{"C1 control", "a: x\u0086\n", 4, 6},
		{"U+FFFE", "a: x\ufffe\n", 4, 7},
		{"U+FFFF in a quoted scalar", "a: \"\uffff\"\n", 4, 7},
		{"in a comment", "a: 1 # \x00\n", 7, 8},
		{"tab, LF, CR and NEL are not control characters", "a: \"x\ty\"\r\nb: x\u0085y\n", -1, -1},
		{"nor are other characters", "a: \u00a0é\u2028😀\ufffd\n", -1, -1},
		{"in the first 16 KiB, after a second document", "a: 1\n---\nb: \x01\n", 12, 13},
		{"in the first 16 KiB, after a document end followed by more", "a: 1\n...\nb: \x01\n", 12, 13},
		{"past 16 KiB, after a second document", "a: 1\n---\nb: " + strings.Repeat("x", readerChunk) + "\x01\n", -1, -1},
		{"past 16 KiB, in the first document", "a: " + strings.Repeat("x", readerChunk) + "\x01\n", readerChunk + 3, readerChunk + 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(source.NewLineIndex([]byte(c.text)))
			var ye *Error
			isControl := errors.As(err, &ye) && ye.Msg == msgControlCharacter
			if c.at < 0 {
				if isControl {
					t.Fatalf("control-character error at %d, want none", ye.Offset)
				}
				return
			}
			if !isControl || ye.Offset != c.at || ye.End != c.end {
				t.Fatalf("got %#v, want %q at %d-%d", err, msgControlCharacter, c.at, c.end)
			}
		})
	}
}

func TestControlCharacterAndNestingError(t *testing.T) {
	deep := "a: " + strings.Repeat("[", maxDepth+1)
	_, err := Parse(source.NewLineIndex([]byte(deep + "\x01\n")))
	var ye *Error
	if !errors.As(err, &ye) || ye.Msg != msgControlCharacter || ye.Offset != len(deep) {
		t.Fatalf("got %v, want the control character (libyaml's reader refuses it before parsing)", err)
	}
	_, err = Parse(source.NewLineIndex([]byte(deep + strings.Repeat("x", readerChunk) + "\x01\n")))
	if !errors.As(err, &ye) || ye.Msg != msgRecursionLimit {
		t.Fatalf("got %v, want the recursion limit (it comes before the control character's chunk)", err)
	}
}

// goccy/go-yaml's words for a problem libyaml also reports are libyaml's, as goose prints them.
func TestLibyamlWording(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"a: b: c\n", "mapping values are not allowed in this context"},
		{"a: \"\\q\"\n", "found unknown escape character"},
		{"a:\n\t- b\n", "found character that cannot start any token"},
	} {
		_, err := Parse(source.NewLineIndex([]byte(c.text)))
		var ye *Error
		if !errors.As(err, &ye) || ye.Msg != c.want {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}
