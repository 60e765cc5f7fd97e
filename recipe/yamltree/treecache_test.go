// A tree from the tree cache after an edit inside a masked block scalar (treecache.go) is the tree a
// parse from scratch builds, and the cache serves the edits it should.

package yamltree

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// blockEdit types, deletes or replaces a few characters inside a random indented line (after its
// indentation), where block scalar content lives.
func blockEdit(rng *rand.Rand, text string) string {
	for tries := 0; tries < 50; tries++ {
		p := rng.IntN(len(text) + 1)
		ls := strings.LastIndexByte(text[:p], '\n') + 1
		if !strings.HasPrefix(text[ls:], "  ") || p <= ls+2 || !utf8.RuneStart(text[min(p, len(text)-1)]) {
			continue
		}
		end := p
		if rng.IntN(2) == 0 {
			end = min(p+1+rng.IntN(3), len(text))
			for end < len(text) && !utf8.RuneStart(text[end]) {
				end++
			}
		}
		ins := []string{"a", "Z", " ", "é", ":", "#", "- ", "|", "\n", "  b: c"}[rng.IntN(10)]
		return text[:p] + ins + text[end:]
	}
	return text + "x"
}

func treeCacheSession(t *testing.T, name, src string, edits int, seed uint64) (served int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	cache := &Cache{}
	text := src
	for i := 0; i <= edits; i++ {
		switch {
		case i == 0:
		case rng.IntN(2) == 0: // an edit of the original: the tree parsed from it is re-usable
			text = blockEdit(rng, src)
		default:
			text = blockEdit(rng, text)
		}
		li := source.NewLineIndex([]byte(text))
		if m, blocks := mask(li, minMaskBytes); m != nil && cache.cachedTree(li, m, blocks) != nil {
			served++
		}
		inc, incErr := ParseCached(li, cache)
		full, fullErr := ParseCached(source.NewLineIndex([]byte(text)), nil)
		if !reflect.DeepEqual(incErr, fullErr) || !reflect.DeepEqual(inc, full) {
			t.Fatalf("%s, edit %d: the cached parse differs from a parse from scratch (errors %v / %v)\ntext:\n%s", name, i, incErr, fullErr, text)
		}
	}
	return served
}

func TestCachedTreeMatchesScratch(t *testing.T) {
	heavy := testgen.HeavyRecipe().Text
	if n := treeCacheSession(t, "heavy", heavy, 40, 1); n < 12 {
		t.Errorf("the tree cache served the heavy recipe %d times in 40 edits", n)
	}
	var files []string
	_ = filepath.WalkDir("../../../shared/corpus/recipes", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if len(files) == 0 {
		t.Fatal("corpus not found (expected ../shared beside the checkout)")
	}
	served := 0
	for i, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		served += treeCacheSession(t, filepath.Base(p), string(src), 6, uint64(i))
	}
	t.Logf("%d of %d corpus edits were served by the tree cache", served, 6*len(files))
	if served < len(files) {
		t.Errorf("the tree cache served only %d corpus edits", served)
	}
}

func TestTreeCacheOnlyInsideOneBlock(t *testing.T) {
	src := "title: t\ninstructions: |\n  first line\n  second line\n  last line\nprompt: go\n"
	cache := &Cache{}
	if _, err := ParseCached(source.NewLineIndex([]byte(src)), cache); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		served     bool
	}{
		{"typing in the first line", strings.Replace(src, "first line", "first long line", 1), true},
		{"typing at the end of the last line: the range's end moves", strings.Replace(src, "last line", "last lines", 1), true},
		{"deleting the last line's last character", strings.Replace(src, "last line", "last lin", 1), true},
		{"replacing the last line's last character", strings.Replace(src, "last line", "last linE", 1), true},
		{"inside the last line", strings.Replace(src, "last line", "last long line", 1), true},
		{"from the first line to the last", strings.Replace(src, "line\n  second line\n  last", "row\n  second row\n  final", 1), true},
		{"past the last line's text", strings.Replace(src, "last line\n", "last line \n", 1), false},
		{"a new line changes the mask", strings.Replace(src, "first line\n", "first\n  line\n", 1), false},
		{"outside the block", strings.Replace(src, "prompt: go", "prompt: gone", 1), false},
		{"the same text", src, true},
	} {
		li := source.NewLineIndex([]byte(c.text))
		m, blocks := mask(li, minMaskBytes)
		got := m != nil && cache.cachedTree(li, m, blocks) != nil
		if got != c.served {
			t.Errorf("%s: served %v, want %v", c.name, got, c.served)
		}
		if got {
			doc := cache.cachedTree(li, m, blocks)
			full, err := Parse(source.NewLineIndex([]byte(c.text)))
			if err != nil || !reflect.DeepEqual(doc.Root, full.Root) {
				t.Errorf("%s: the cached tree differs from a parse (%v)", c.name, err)
			}
		}
	}
}

// Typing at the end of a block scalar's last line is served by the tree cache whatever holds the block: a mapping
// value, a sequence item, a folded block, a block at the end of the text, one followed by a comment;
// every tree equals a parse from scratch.
func TestTreeCacheAtBlockEnd(t *testing.T) {
	for _, src := range []string{
		"a: |\n  one\n  two\nb: 1\n",
		"a: >\n  one\n  two\n\nb: 1\n",
		"a: |-\n  one\n  two\n",
		"a: |+\n  one\n  two\n\n# note\nb: 1\n",
		"list:\n  - x: |\n      one\n      two\n  - y\n",
		"list:\n  - |\n    one\n    two\n",
		"a:\n  b: |\n    one\n    two\n  # a comment\nc: 2\n",
	} {
		cache := &Cache{}
		if _, err := ParseCached(source.NewLineIndex([]byte(src)), cache); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		text, at := src, strings.Index(src, "two")+len("two")
		for i, typed := range []string{"s", "!", "é", "", "🦆", "", ""} {
			if typed == "" { // a backspace
				_, size := utf8.DecodeLastRuneInString(text[:at])
				text, at = text[:at-size]+text[at:], at-size
			} else {
				text, at = text[:at]+typed+text[at:], at+len(typed)
			}
			li := source.NewLineIndex([]byte(text))
			m, blocks := mask(li, minMaskBytes)
			if m == nil || cache.cachedTree(li, m, blocks) == nil {
				t.Errorf("%q, edit %d: the tree cache did not serve it", src, i)
			}
			inc, incErr := ParseCached(li, cache)
			full, fullErr := ParseCached(source.NewLineIndex([]byte(text)), nil)
			if !reflect.DeepEqual(incErr, fullErr) || !reflect.DeepEqual(inc, full) {
				t.Fatalf("%q, edit %d: the cached tree differs from a parse from scratch\ntext:\n%s", src, i, text)
			}
		}
	}
}

// The tree cache keeps the tree only when it can serve the next text: with an alias it cannot.
func TestTreeCacheOnlyWithoutAliases(t *testing.T) {
	cache := &Cache{}
	if _, err := ParseCached(source.NewLineIndex([]byte("a: |\n  one\nb: 1\n")), cache); err != nil {
		t.Fatal(err)
	}
	if cache.tree == nil {
		t.Error("the tree was not kept")
	}
	cache = &Cache{}
	if _, err := ParseCached(source.NewLineIndex([]byte("a: &x 1\nb: *x\nc: |\n  one\n")), cache); err != nil {
		t.Fatal(err)
	}
	if cache.tree != nil {
		t.Error("a tree with an alias was kept")
	}
}

// A cached libyaml verdict is shared by texts with the same masked text; its error must be placed in
// each text, not where it was in the text that filled the cache.
func TestCachedVerdictErrorPlacedInEachText(t *testing.T) {
	first := "a: |\n  some text\nb: x\n  - c: d\n"
	second := "a: |\n  some longer text\nb: x\n  - c: d\n"
	cache := &Cache{}
	for _, src := range []string{first, second} {
		_, cached := ParseCached(source.NewLineIndex([]byte(src)), cache)
		_, scratch := ParseCached(source.NewLineIndex([]byte(src)), nil)
		if cached == nil || !reflect.DeepEqual(cached, scratch) {
			t.Errorf("%q: cached verdict %#v, from scratch %#v", src, cached, scratch)
		}
	}
}

// FuzzCachedTree: after any edit of a parsed text (at any position, of any length, with any inserted
// text), a parse with the cache equals a parse from scratch.
func FuzzCachedTree(f *testing.F) {
	f.Add("title: t\ninstructions: |\n  first line\n  last line\nprompt: go\n", 30, 0, "s")
	f.Add("a: >\n  one\n  two\n\nb: 1\n", 17, 0, "!")
	f.Add("list:\n  - x: |\n      one\n      two\n  - y\n", 34, 1, "")
	f.Add("a: |+\n  one\n  two\n\n# note\nb: 1\n", 15, 0, "\n  three")
	// edits inside one entry (splice.go): a key renamed, a value mistyped, a line dedented, a bracket lost
	entries := "params:\n  - key: a\n    req: optional\n  - key: b\n    req: optional\next:\n  - name: x\n    args: [\"a\"]\n"
	f.Add(entries, 4, 1, "")
	f.Add(entries, 46, 1, "")
	f.Add(entries, 34, 2, "")
	f.Add(entries, len(entries)-2, 1, "")
	f.Fuzz(func(t *testing.T, src string, at, del int, ins string) {
		if len(src) > 4096 || len(ins) > 64 || at < 0 || del < 0 || at > len(src) {
			return
		}
		edited := src[:at] + ins + src[min(at+del, len(src)):]
		cache := &Cache{}
		_, _ = ParseCached(source.NewLineIndex([]byte(src)), cache)
		inc, incErr := ParseCached(source.NewLineIndex([]byte(edited)), cache)
		full, fullErr := ParseCached(source.NewLineIndex([]byte(edited)), nil)
		if !reflect.DeepEqual(incErr, fullErr) || !reflect.DeepEqual(inc, full) {
			t.Fatalf("the cached parse differs from a parse from scratch (errors %v / %v)\ntext:\n%q\nedited:\n%q", incErr, fullErr, src, edited)
		}
	})
}
