// Fuzz target for the YAML tree: node ranges stay inside the text and ordered.

package yamltree

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func checkRanges(t *testing.T, n *Node, size int) {
	if n == nil {
		return
	}
	if n.R.Start < 0 || n.R.End < n.R.Start || n.R.End > size {
		t.Fatalf("node range %v outside [0,%d]", n.R, size)
	}
	for _, p := range n.Pairs {
		checkRanges(t, p.Key, size)
		checkRanges(t, p.Value, size)
	}
	for _, it := range n.Items {
		checkRanges(t, it, size)
	}
}

func FuzzYAMLTree(f *testing.F) {
	for _, s := range []string{"a: |\n  x\n   y\n\nb: >-\n  f\n  g\n", "- |+\n  k\n\n- >2\n   z\n", "a: 1\nb: [1, {c: d}]\n", "x: |\n  l1\n  l2\ny: 'q'\n", "- &a 1\n- *a\n", "{\"k\": [1, 2,],}", "a:\n\tb", "é: ü # c\n",
		"a: |\n  x  \n  y\nb: 1\n", "a: |\n  x \n  y \n\nb: 1\n", "- |-\n  p \n  q\n- r\n", "a: |+\n  t\t\n  u\n\n", "k: |\n  a \n\n  b\n",
		"a: |\n  x\n  \ty\nb: 1\n", "a: |\n  \tx\n  y: |\n    z\nb: >\n  w\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(source.NewLineIndex(data))
		if err != nil {
			if e, ok := err.(*Error); ok && (e.Offset < 0 || e.Offset > len(data)) {
				t.Fatalf("error offset %d outside [0,%d]", e.Offset, len(data))
			}
			return
		}
		checkRanges(t, doc.Root, len(data))
		// differential: a confirmed masked parse must equal the original parse
		li := source.NewLineIndex(data)
		if masked, blocks := mask(li, 0); masked != nil && utf8.Valid(data) {
			if got, ok := parse(li, masked, blocks, nil, nil); ok {
				want, _ := parse(li, nil, nil, nil, nil)
				if d := cmp.Diff(want.Root, got.Root); d != "" {
					t.Fatalf("masked parse differs (-want +got):\n%s", d)
				}
			}
		}
		// differential: libyaml's verdict on a masked text goccy confirmed places errors as on the original
		if masked, blocks := mask(li, 0); masked != nil && utf8.Valid(data) {
			if _, ok := parse(li, masked, blocks, nil, nil); ok {
				want, got := libyamlVerdict(li).err, cachedVerdict(li, masked, nil).err
				if (want == nil) != (got == nil) || (want != nil && (want.Msg != got.Msg || want.Offset != got.Offset)) {
					t.Fatalf("masked verdict %+v, original %+v", got, want)
				}
			}
		}
		// differential: mappings split every 2 entries must give the same tree as one parse
		if sh := precheckShapeN(li, 2); sh.err == nil && sh.secondDoc < 0 && len(sh.splits) > 0 {
			want, _ := parse(li, nil, nil, nil, nil)
			got, _ := parse(li, nil, nil, sh.splits, nil)
			if want.err == nil {
				if got.err != nil {
					t.Fatalf("split parse fails: %v", got.err)
				}
				if d := cmp.Diff(want.Root, got.Root); d != "" {
					t.Fatalf("split parse differs (-want +got):\n%s", d)
				}
			}
		}
	})
}

func TestResolve(t *testing.T) {
	for in, want := range map[string]Type{
		"": Null, "~": Null, "null": Null, "NULL": Null, "true": Bool, "False": Bool, "yes": Str, "on": Str,
		"12": Int, "-3": Int, "+4": Int, "0x1F": Int, "0o17": Int, "0o9": Str, "1.5": Float, ".5": Float, "1.": Float,
		"1e3": Float, "-2.5E-3": Float, ".inf": Float, "-.Inf": Float, ".nan": Float, "1.2.3": Str, "1e": Str,
		"12abc": Str, "-": Str, "+": Str, ".": Str, "v1.0": Str, "1_000": Str,
	} {
		if got := Resolve(in); got != want {
			t.Errorf("Resolve(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestMaskAgrees compares masked and unmasked parses: same shape, ranges and values.
func TestMaskAgrees(t *testing.T) {
	pad := strings.Repeat("# padding so the file is large enough to mask\n", 100)
	for _, src := range []string{
		"a: |\n  line one\n    more indented\n\n  after blank\nb: x\n",
		"a: >\n  folded one\n  folded two\n\n  new para\n    spaced\n  back\nb: 1\n",
		"a: |-\n  strip\n\n\nb: 2\n",
		"a: |+\n  keep\n\n\nb: 3\n",
		"list:\n  - |\n    item block\n  - key: >-\n      nested folded\n      text\n  - plain\n",
		"a: |\n  # not a comment\n  x: not a key\nb: end\n",
		"a: |\n  text\n# a comment\nb: c\n",
		// blanks at the end of a literal block's lines other than its last (masked since issue 17)
		"a: |\n  line one  \n  two\nb: x\n",
		"a: |-\n  x \n\n  y\t\n  z\nb: 2\n",
		"list:\n  - |\n    item \n    more\n  - k\n",
		"a: |+\n  keep \n  last\n\nb: 3\n",
		// a tab after the content indentation on a later line is content (masked since issue 17)
		"a: |\n  make:\n  \tgo build\n    \tgo vet\nb: 4\n",
		// a block left unmasked (blanks at the end of its last line) is skipped whole: the header-like
		// line in its text is not masked (goccy would refuse the mask), so the block after it still is
		"a: |\n  x\n  run: |\n    echo \nb: |\n  masked\nc: 5\n",
	} {
		full := pad + src
		li := source.NewLineIndex([]byte(full))
		masked, blocks := mask(li, minMaskBytes)
		if masked == nil {
			t.Fatalf("nothing masked in %q", src)
		}
		got, ok := parse(li, masked, blocks, nil, nil)
		if !ok {
			t.Fatalf("masked parse not confirmed for %q", src)
		}
		want, _ := parse(li, nil, nil, nil, nil)
		if want.err != nil {
			t.Fatalf("original does not parse: %v", want.err)
		}
		if d := cmp.Diff(want.Root, got.Root); d != "" {
			t.Errorf("masked parse differs for %q (-want +got):\n%s", src, d)
		}
	}
}

// TestCRLFWithComments pins goccy's line counting after comments in CRLF text.
func TestCRLFWithComments(t *testing.T) {
	src := "# c\r\ntitle: T\r\nx: |\r\n  a\r\n  b\r\ny: 1\r\n"
	doc, err := Parse(source.NewLineIndex([]byte(src)))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"title": "title", "y": "y"} {
		p := doc.Root.Pair(key)
		if p == nil || src[p.Key.R.Start:p.Key.R.End] != want {
			t.Errorf("key %s at %v", key, p)
		}
	}
	if v := doc.Root.Get("x"); v == nil || v.Value != "a\nb\n" || src[v.R.Start:v.R.End] != "|\r\n  a\r\n  b" {
		t.Errorf("block scalar: %+v", v)
	}
}
