// Tests of the YAML verdict: libyaml's problem text and mark (taken from Debian's libyaml 0.2.5 through
// python3-yaml's CSafeLoader), serde_yaml's rules, the Go ports' deviations corrected, the degraded tree.

package yamltree

import (
	"errors"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func TestVerdictIsLibyamls(t *testing.T) {
	for _, c := range []struct {
		name, src, msg string
		at             int
	}{
		{"valid", "a: 1\n", "", 0},
		// libyaml 0.2.5 keeps a `?` inside a flow collection's plain scalar; yaml/v3 reads a key indicator
		{"question mark inside a flow plain scalar", "k: [what?, a ?b, c?d]\nm: {a?: b?c}\n", "", 0},
		{"question mark in a flow scalar, then a real error", "k: [a?, b\n", "did not find expected ',' or ']'", 10},
		// yaml/v3 eats a tab-indented comment line after a comment line; libyaml refuses the tab (block context)
		{"tab-started comment after a comment", "#\n\t#\n", msgCannotStartToken, 2},
		{"two spaces, then a tab-started comment, after a comment", "#\n  \t#", msgCannotStartToken, 4},
		{"tab-started comment after a plain scalar and a comment", "s\n#\n\t#", msgCannotStartToken, 4},
		{"tab-started comment after a value and a comment", "k: v\n#\n\t# c\nz: 1", msgCannotStartToken, 7},
		{"tab after spaces, after a comment and a blank line", "# a\n\n \t# b\ntitle: t\n", msgCannotStartToken, 6},
		{"a bracket inside a multi-line plain scalar opens no flow collection", "m\n\n{):]\n", "", 0},
		{"tab-started comment after a comment in a flow collection", "x: [1,\n# c\n\t# d\n 2]\n", "", 0},
		{"YAML 1.2 directive (libyaml accepts 1.1 and 1.2)", "%YAML 1.2\n---\na: 1\n", "", 0},
		{"line-start byte order mark is skipped", "a: 1\n\uFEFF\nc: 1\n", "", 0},
		{"scanner error", "a: b\n c:", "mapping values are not allowed in this context", 7},
		{"unknown anchor (serde_yaml)", "a: *x\n", msgUnknownAnchor, 3},
		{"unclosed flow sequence: at the end", "title: x\nkey: [unclosed\n", "did not find expected ',' or ']'", 24},
		// the Go ports scan two tokens ahead of libyaml: libyaml's parser fails first on an earlier token
		{"parser error before a scanner error", ": r\n H:", "did not find expected key", 0},
		{"document start before a scanner error", "{}.\ns:", "did not find expected <document start>", 2},
		{"key before a bad alias", "i: {}.\n*", "did not find expected key", 5},
		{"block entry before a bad alias", "[]\n- *", "did not find expected <document start>", 3},
		{"stale simple key before a bad character", "  s:\n  --\n`", "could not find expected ':'", 10},
		{"after a directive simple keys are not allowed", "%YAML 1.1\nn:", "did not find expected <document start>", 10},
		// libyaml scans to the end of a line whose first token may be a simple key
		{"scanner error on a possible key's line", "{{- x}}{% raw %}{%endraw%}", "found character that cannot start any token", 8},
		{"flow collection after a block scalar's end", "k: |\n    a\n  [[\n", "did not find expected key", 13},
		{"line-start byte order mark before an alias on the second line", "\n\uFEFF*", "did not find expected alphabetic or numeric character", 5},
		// in a flow collection a token after a line break is no simple key: libyaml's parser fails on the
		// `:` after it before its scanner reaches a bad character later on the line
		{"flow mapping, then a block-style line", "{a:\ni: |", "did not find expected ',' or '}'", 5},
		{"flow mapping, then a line of two words and a key", "{a:\n b c: |", "did not find expected ',' or '}'", 8},
		{"after a flow entry the token is a key, the scanner fails first", "[a,\ni: |", msgCannotStartToken, 7},
		{"stale simple key before an indented bad character", "  s:\n  --\n `", "could not find expected ':'", 11},
		// a quoted scalar over lines: libyaml's parser fails on the token after its closing quote
		{"token after a multi-line quoted value", "q: '\n'p:", "did not find expected key", 6},
		{"token after a multi-line double-quoted value", "q: \"a\n  \\\" x\" y:", "did not find expected key", 14},
		{"token after a multi-line quoted entry", "- 'a\n  b'c:", "did not find expected '-' indicator", 9},
		{"token after a multi-line quoted root", "'a\n'p:", "did not find expected <document start>", 4},
		// a flow collection opening a line stays a possible simple key to its end: libyaml reads the next
		// line's first token before its parser sees the collection
		{"bad character on the line after a root flow mapping", ".\n#\n{{s}}\n`", msgCannotStartToken, 10},
		{"bad character after a comment and a blank line", "a\n{b} # c\n\n @", msgCannotStartToken, 12},
		// NEL, LS and PS are line breaks to libyaml everywhere
		{"LS after a block entry's dash", "t:\n  -\u2028 s\n *:", "did not find expected key", 10},
		{"PS in a block scalar's indentation", "s: |\n  \u2029 5\n`", "did not find expected key", 11},
		{"NEL before a document's first key", "\u00852: v #\n t\n`", "did not find expected key", 10},
		{"LS between two entries", "a: b\u2028c: d\u2029", "", 0},
		{"a stale key's line after a parser error on the line before", "  C: {{e}})\n  c ", "did not find expected key", 10},
		{"a plain scalar over an empty line has no simple key", ")\n\ne: \"\"):", "mapping values are not allowed in this context", 4},
		{"double brace inside a plain key is no flow context", "t{{: {}s: }}", "did not find expected key", 7},
		// escapes in double-quoted scalars: libyaml 0.2.5 has `\/`, yaml/v3 has `\'` as well
		{"JSON's escaped solidus", "a: \"x\\/y\"", "", 0},
		{"escaped apostrophe is unknown to libyaml", "\"\\'\"", "found unknown escape character", 1},
		{"backslash and apostrophe in a single-quoted scalar", "a: 'x\\'\nb: 1", "", 0},
		// libyaml 0.2.5 refuses `:` before a flow indicator in a flow collection's plain scalar
		{"colon before a closing brace", "{e:}", msgUnexpectedColon, 2},
		{"colon before a bracket, after other errors' line start", "{e:]", msgUnexpectedColon, 2},
		{"colon after a word and a space", "[a :]", msgUnexpectedColon, 3},
		{"colon in a value's flow mapping", "k: {e:}", msgUnexpectedColon, 5},
		{"colon inside a word is the word's", "[a:b, http://x]", "", 0},
		{"a quoted key's colon is an indicator", "[\"a\":]", "", 0},
		{"brackets inside a plain scalar open nothing", "a: b {x:}", "", 0},
		{"brackets inside a block scalar open nothing", "p: |\n  {x:}\n", "", 0},
		{"bad character on the line after a root plain scalar's line", "h #\n\u2500 #\n`", msgCannotStartToken, 10},
		{"a plain scalar over lines opens no flow collection", "e\n[5:]:", "mapping values are not allowed in this context", 6},
		{"a stale key's line before the end of text", "  0: {{m}})\n  Q\n", "did not find expected key", 10},
		{"a flow collection's colon after a parser error on its line", "{x[t:}", msgUnexpectedColon, 4},
		{"a comment after a brace, then a bad character", "{##}\n|", msgCannotStartToken, 5},
		{"empty alias on the line after a root plain scalar's line", " -\ne #\n*", "did not find expected alphabetic or numeric character", 8},
		// a line-start mark is no indentation: it ends a block scalar or a nested plain scalar first
		{"mark ends a root block scalar, then an alias", "|\n\uFEFF*", "did not find expected alphabetic or numeric character", 5},
		{"mark ends a value's block scalar", "s: |\n\uFEFF.", "did not find expected key", 8},
		{"mark ends a block scalar with content", "a: |\n  x\n\uFEFF y", "did not find expected key", 13},
		{"mark ends a nested plain scalar", "a: x\n\uFEFF y", "did not find expected key", 9},
		{"mark after a value, then an alias", "a: 1\n\uFEFF*", "did not find expected alphabetic or numeric character", 9},
		{"mark inside a root plain scalar continues it", "a\n\uFEFF b", "", 0},
		{"mark inside a flow sequence is skipped", "a: [x,\n\uFEFF y]", "", 0},
		{"mark before a more-indented mapping", "a:\n\uFEFF b: 1", "", 0},
		// a quoted scalar or flow collection after `key: ` stays a possible simple key in libyaml
		{"quoted scalar after a value, then a key", "e: ''D:", "did not find expected key", 5},
		{"quoted scalar, a space, then a key", "e: 'a' b: c", "did not find expected key", 7},
		{"double-quoted scalar then a key", "a:\n  e: \"a\"b:", "did not find expected key", 11},
		{"anchored quoted scalar then a key", "e: &a ''D:", "did not find expected key", 8},
		{"flow sequence then a key", "e: [a]b:", "did not find expected key", 6},
		{"a closing bracket in a plain key is no flow context", "e}: {}s:", "did not find expected key", 6},
		{"a brace inside a plain key is no flow context", "t{: {}s:", "did not find expected key", 6},
		{"an unquoted {{ value then more words and a key", "e: {{ v }} and m: {{ m }}.", "did not find expected key", 11},
		{"a line that continues a plain scalar has no simple key", "e\ne: []n:", "mapping values are not allowed in this context", 3},
		{"plain scalar then a key stays libyaml's scanner error", "e: x ''D:", "mapping values are not allowed in this context", 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := libyamlVerdict(source.NewLineIndex([]byte(c.src)))
			switch {
			case c.msg == "" && v.err != nil:
				t.Fatalf("want no error, got %q at %d", v.err.Msg, v.err.Offset)
			case c.msg != "" && v.err == nil:
				t.Fatalf("want %q at %d, got no error", c.msg, c.at)
			case c.msg != "" && (v.err.Msg != c.msg || v.err.Offset != c.at):
				t.Fatalf("got %q at %d, want %q at %d", v.err.Msg, v.err.Offset, c.msg, c.at)
			}
		})
	}
}

// TestDocumentsAsLibyamlCounts: a directive is not a document (goccy/go-yaml counted one).
func TestDocumentsAsLibyamlCounts(t *testing.T) {
	for src, more := range map[string]bool{
		"%TAG ! tag:example.com,2000:\n---\na: 1\n": false,
		"a: 1\n---\nb: 2\n":                         true,
		"a: 1\n...\n":                               false,
	} {
		doc, err := Parse(source.NewLineIndex([]byte(src)))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if (doc.Extra != nil) != more {
			t.Errorf("%q: second document %v, want %v", src, doc.Extra, more)
		}
	}
}

// TestDegradedTree: where goccy/go-yaml refuses what libyaml accepts, the tree comes from libyaml's nodes
// with ranges on the text, and no error.
func TestDegradedTree(t *testing.T) {
	src := "[a, b]: c\nd: {e: 'f''g'}\nh: |\n  text\n  more\ni:\n"
	doc, err := Parse(source.NewLineIndex([]byte(src)))
	if err != nil {
		t.Fatalf("want a tree, got %v", err)
	}
	if !doc.Degraded || doc.Refused == nil {
		t.Fatalf("want a degraded tree with goccy's refusal, got degraded=%v refused=%v", doc.Degraded, doc.Refused)
	}
	root := doc.Root
	if root == nil || root.Kind != Map || len(root.Pairs) != 4 {
		t.Fatalf("root: %+v", root)
	}
	text := func(n *Node) string { return src[n.R.Start:n.R.End] }
	if k := root.Pairs[0].Key; k.Kind != Seq || !k.Flow || text(k) != "[a, b]" || len(k.Items) != 2 {
		t.Errorf("flow sequence key: %+v %q", k, text(k))
	}
	if v := root.Pairs[0].Value; v.Value != "c" || text(v) != "c" {
		t.Errorf("value c: %+v", v)
	}
	if v := root.Get("d"); v == nil || v.Kind != Map || text(v) != "{e: 'f''g'}" || v.Get("e").Value != "f'g" || text(v.Get("e")) != "'f''g'" {
		t.Errorf("flow map: %+v", v)
	}
	if v := root.Get("h"); v == nil || v.Style != Literal || v.Value != "text\nmore\n" || text(v) != "|\n  text\n  more" {
		t.Errorf("block scalar: %+v", v)
	}
	if v := root.Get("i"); v == nil || !v.Empty || v.Type != Null {
		t.Errorf("empty value: %+v", v)
	}
}

// TestMaskedVerdict: the verdict on the masked text (cached per masked text) places errors where the
// original text's verdict does, and a line break libyaml sees inside a block scalar line (LS) is not
// hidden by the mask.
func TestMaskedVerdict(t *testing.T) {
	pad := "title: t\ninstructions: |\n" + strings.Repeat("  some prose line of a long block scalar\n", 150)
	for name, src := range map[string]string{
		"error after the block":    pad + "prompt: [x\n",
		"error before the block":   "a: b\n c: d\n" + pad,
		"LS inside a block line":   "title: t\ninstructions: |\n" + strings.Repeat("  prose\n", 600) + "  cut\u2028))\nprompt: p\n",
		"valid with a large block": pad + "prompt: p\n",
	} {
		li := source.NewLineIndex([]byte(src))
		want := libyamlVerdict(li).err
		masked, _ := mask(li, minMaskBytes)
		if masked == nil {
			t.Fatalf("%s: not masked", name)
		}
		cache := &Cache{}
		for round := range 2 { // the second round is served by the cache
			got := cachedVerdict(li, masked, cache).err
			if (got == nil) != (want == nil) || (got != nil && (got.Msg != want.Msg || got.Offset != want.Offset)) {
				t.Errorf("%s (round %d): masked verdict %+v, original %+v", name, round, got, want)
			}
		}
		if name == "LS inside a block line" && want == nil {
			t.Errorf("%s: libyaml reads LS as a line break and refuses the text", name)
		}
	}
}

// TestParseVerdictIsLibyamls: the verdict where the shape pass and the block-scalar mask take part
// (libyaml's text and mark from python3-yaml's CSafeLoader).
func TestParseVerdictIsLibyamls(t *testing.T) {
	for _, c := range []struct {
		name, src, msg string
		at             int
	}{
		{"tab after a block scalar's first indentation", "t: |\n \tx\n", "found a tab character where an indentation space is expected", 6},
		{"tab before the block's indentation is reached", "t: |\n  x\n \ty\n", "found a tab character where an indentation space is expected", 10},
		{"tab inside the block's indentation is content", "t: |\n  x\n  \ty\n", "", 0},
		{"further document ends are skipped", ".\n...\n...", "", 0},
		{"document ends and comments only", "a\n...\n#c\n...\n", "", 0},
		{"content after a document end", "-\n...\np", "did not find expected <document start>", 6},
		{"indented content after a document end", "a: 1\n...\n  b", "did not find expected <document start>", 11},
		{"content after two document ends", "a\n... # c\n...\nb", "did not find expected <document start>", 14},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(source.NewLineIndex([]byte(c.src)))
			var ye *Error
			switch {
			case c.msg == "" && err != nil:
				t.Fatalf("want no error, got %v", err)
			case c.msg != "" && !errors.As(err, &ye):
				t.Fatalf("want %q at %d, got %v", c.msg, c.at, err)
			case c.msg != "" && (ye.Msg != c.msg || ye.Offset != c.at):
				t.Fatalf("got %q at %d, want %q at %d", ye.Msg, ye.Offset, c.msg, c.at)
			}
		})
	}
	// a second document after `...` is still serde_yaml's "more than one document", at its `---`
	doc, err := Parse(source.NewLineIndex([]byte("a\n...\n...\n---\nb\n")))
	if err != nil || doc.Extra == nil || doc.Extra.Start != 10 {
		t.Fatalf("got %v, %+v; want the second document at 10", err, doc)
	}
}
