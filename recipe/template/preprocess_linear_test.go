// The linear pre-processing (one pass for wrapped texts, binary search back to the original) agrees with
// the straightforward per-pattern search and per-offset scan it replaced, and a same-named nested block
// is refused as minijinja refuses it.

package template

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// referenceWraps is the quadratic version: every listed text searched for on its own.
func referenceWraps(src string, wraps map[string]int) []wrap {
	var ws []wrap
	for v, times := range wraps {
		pat := "{{" + v + "}}"
		for i := 0; ; {
			j := strings.Index(src[i:], pat)
			if j < 0 {
				break
			}
			ws = append(ws, wrap{i + j, i + j + len(pat), times})
			i += j + len(pat)
		}
	}
	sort.Slice(ws, func(a, b int) bool { return ws[a].start < ws[b].start })
	var kept []wrap
	last := 0
	for _, w := range ws {
		if w.start >= last {
			kept = append(kept, w)
			last = w.end
		}
	}
	return kept
}

func referenceToOriginal(p *Preprocessed, off int) int {
	shift := 0
	for _, in := range p.inserts {
		newAt := in.at + shift
		if off < newAt {
			break
		}
		if off < newAt+in.n {
			return in.at
		}
		shift += in.n
	}
	return off - shift
}

func TestPreprocessMatchesReference(t *testing.T) {
	for _, src := range []string{
		"a {{ x y }} b {{ok}} {{ x y }}\n{{ 1 + }} {{{ x y }}} {{ x y }}}}",
		"{{ {{ a b }} }} {{ a b }}",
		"{{ a b }}{{ a b }}{{ c d }}\n{{ c d }} {{ e f",
		strings.Repeat("{{ n m }} {{{{ ", 50) + "\n" + strings.Repeat("{{ p q }}", 30),
	} {
		pre := Preprocess(src)
		wraps := map[string]int{}
		for _, lit := range pre.Literal {
			wraps[src[lit.Start+2:lit.End-2]] = 1
		}
		var got []string
		for _, w := range findWraps(src, wraps) {
			got = append(got, fmt.Sprint(w.start, w.end))
		}
		var want []string
		for _, w := range referenceWraps(src, wraps) {
			want = append(want, fmt.Sprint(w.start, w.end))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%q: wraps %v, reference %v", src, got, want)
		}
		for off := 0; off <= len(pre.Text); off++ {
			if g, w := pre.ToOriginal(off), referenceToOriginal(pre, off); g != w {
				t.Fatalf("%q: ToOriginal(%d) = %d, reference %d", src, off, g, w)
			}
		}
	}
}

func TestSameNamedNestedBlockIsRefused(t *testing.T) {
	src := `{% block a %}{% block a %}x{% endblock %}{% endblock %}`
	_, err := Parse("recipe", src)
	se, ok := err.(*SyntaxError)
	if !ok || se.Msg != "block 'a' defined twice" || src[se.R.Start:se.R.End] != "a" || se.R.Start != 22 {
		t.Fatalf("error %#v, want minijinja's \"block 'a' defined twice\" at the inner name", err)
	}
}
