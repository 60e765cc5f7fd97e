// The pre-processing agrees with goose's algorithm written out literally (regex extraction, the parse
// probe, then one str::replace over the whole text per listed text, in order, repeats included), on
// hand-picked overlaps and on random brace-heavy texts; offsets map back as the literal version says.

package template

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

var (
	gooseVarRE   = regexp.MustCompile(`\{\{(.*?)\}\}`)
	gooseIdentRE = regexp.MustCompile(`^\s*[a-zA-Z_][a-zA-Z0-9_]*\s*$`)
)

// refByte is a byte of the literal version's text with its original offset (-1: inserted).
type refByte struct {
	b byte
	o int
}

// goosePreprocessLiteral is goose's pre-processing step by step, each byte tracked to the original.
func goosePreprocessLiteral(src string) []refByte {
	var listed []string
	for _, m := range gooseVarRE.FindAllStringSubmatch(src, -1) {
		v := m[1]
		t := strings.TrimSpace(v)
		if gooseIdentRE.MatchString(v) || strings.HasPrefix(t, "'") || strings.HasPrefix(t, `"`) {
			continue
		}
		if _, err := Parse("probe", "{{"+v+"}}"); err == nil {
			continue
		}
		listed = append(listed, v)
	}
	text := make([]refByte, len(src))
	for i := range src {
		text[i] = refByte{src[i], i}
	}
	for _, v := range listed {
		pat := "{{" + v + "}}"
		var next []refByte
		for i := 0; i < len(text); {
			if matchAt(text, i, pat) {
				next = appendRef(next, rawOpen)
				next = append(next, text[i:i+len(pat)]...)
				next = appendRef(next, rawClose)
				i += len(pat)
				continue
			}
			next = append(next, text[i])
			i++
		}
		text = next
	}
	return text
}

func matchAt(text []refByte, i int, pat string) bool {
	if i+len(pat) > len(text) {
		return false
	}
	for k := 0; k < len(pat); k++ {
		if text[i+k].b != pat[k] {
			return false
		}
	}
	return true
}

func appendRef(text []refByte, s string) []refByte {
	for i := 0; i < len(s); i++ {
		text = append(text, refByte{s[i], -1})
	}
	return text
}

// checkAgainstGoose compares Preprocess with the literal version: the text, and every offset mapped back
// (an inserted byte maps to the next original byte's offset, as goose-ls reports positions).
func checkAgainstGoose(t *testing.T, src string) {
	t.Helper()
	ref := goosePreprocessLiteral(src)
	var want strings.Builder
	for _, r := range ref {
		want.WriteByte(r.b)
	}
	pre := Preprocess(src)
	if pre.Err != nil {
		t.Fatalf("%q: %v", src, pre.Err)
	}
	if pre.Text != want.String() {
		t.Fatalf("Preprocess(%q)\n = %q\ngoose %q", src, pre.Text, want.String())
	}
	next := len(src)
	for off := len(ref) - 1; off >= 0; off-- {
		want := ref[off].o
		if want < 0 {
			want = next
		} else {
			next = want
		}
		if got := pre.ToOriginal(off); got != want {
			t.Fatalf("%q: ToOriginal(%d) = %d, goose's text says %d", src, off, got, want)
		}
	}
	if got := pre.ToOriginal(len(pre.Text)); got != len(src) {
		t.Fatalf("%q: ToOriginal(end) = %d, want %d", src, got, len(src))
	}
}

func TestPreprocessFollowsGooseOrder(t *testing.T) {
	for _, src := range []string{
		// mj-oracle: goose wraps ` a b ` first, inside `{{{ a b }}` too, which then no longer matches
		"x: \"{{ a b }}\"\ny: \"{{{ a b }}\"\n",
		// mj-oracle: `{ a b ` listed first is wrapped, then ` a b ` is wrapped again inside it
		"y: \"{{{ a b }}\"\nx: \"{{ a b }}\"\n",
		// mj-oracle (a fresh differential seed, reduced): the later `{{{{ x y }}` is broken by the first
		"x: \"{{ x y }}\"\ny: \"}{{{{ x y }}\"\n",
		"a {{ x y }} b {{ok}} {{ x y }}\n{{ 1 + }} {{{ x y }}} {{ x y }}}}",
		"{{ {{ a b }} }} {{ a b }}",
		"{{ a b }}{{ a b }}{{ c d }}\n{{ c d }} {{ e f",
		strings.Repeat("{{ n m }} {{{{ ", 50) + "\n" + strings.Repeat("{{ p q }}", 30),
		"{{{% raw %}{{ a b }}\n{{{ a b }}\n{{ a b }}",
		"{{}} {{{}} {{{{}}",
		"p {{ a b }} q {{{ a b }} r {{{ a b }} s\n{{ a b }}",
	} {
		checkAgainstGoose(t, src)
	}
}

func TestPreprocessRandomBracesFollowGoose(t *testing.T) {
	pieces := []string{"{", "{", "{{", "}}", "}", " ", "a", "b", " a b ", "\n", "x", "%", "{% raw %}", "'", "{{ a b }}", "{{{ a b }}"}
	rng := rand.New(rand.NewSource(17))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := rng.Intn(14); k >= 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		checkAgainstGoose(t, b.String())
	}
}

func TestPreprocessRepeatsBelowTheLimitFollowGoose(t *testing.T) {
	checkAgainstGoose(t, strings.Repeat("k: \"{{ a b }}\"\n", 40)+strings.Repeat("{{{ a b }}\n", 3))
}

func TestPreprocessPastTheLimitIsAnError(t *testing.T) {
	// 5,000 copies: goose would build a text of 5,000² wraps (half a gigabyte)
	src := "prompt: hi\n" + strings.Repeat("k: \"{{ c d }}\"\n", 3) + strings.Repeat("k: \"{{ a b }}\"\n", 5000)
	pre := Preprocess(src)
	if pre.Err == nil {
		t.Fatalf("no error; the pre-processed text has %d bytes", len(pre.Text))
	}
	if first := strings.Index(src, "{{ a b }}"); pre.Err.R != (Range{Start: first, End: first + len("{{ a b }}")}) {
		t.Errorf("error at %+v, want the first `{{ a b }}` at %d", pre.Err.R, first)
	}
	if !strings.Contains(pre.Err.Msg, "listed 5000 times") || pre.Text != src {
		t.Errorf("message %q; text changed: %v", pre.Err.Msg, pre.Text != src)
	}
	// overlapping texts on many lines: each line replayed in goose's order until the budget runs out
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString("k: \"" + strings.Repeat("{", i%50+2) + " a b }}\"\n")
	}
	if pre := Preprocess(b.String()); pre.Err == nil || !strings.Contains(pre.Err.Msg, "overlapping") {
		t.Fatalf("overlapping texts: error %v", pre.Err)
	}
}
