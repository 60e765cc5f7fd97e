// goose's literal-brace pre-processing: single-line `{{…}}` whose inside is not a plain identifier,
// not a quoted literal and not a parseable expression is wrapped in `{% raw %}…{% endraw %}`.

package template

import (
	"sort"
	"strings"
)

const (
	rawOpen  = "{% raw %}"
	rawClose = "{% endraw %}"
)

// Preprocessed is the rewritten text with a map back to the original offsets.
type Preprocessed struct {
	Text string
	// Literal lists the original ranges of brace expressions kept literally.
	Literal []Range
	// inserts are (original offset, inserted length) pairs in ascending order of offset.
	inserts []insert
}

type insert struct {
	at, n int // original offset, bytes inserted before it
}

// ToOriginal maps an offset in Text back to the original text; offsets inside inserted text map to
// the point of insertion.
func (p *Preprocessed) ToOriginal(off int) int {
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

// Preprocess applies goose's rewrite. It returns the input unchanged (no copy) when nothing applies.
func Preprocess(src string) *Preprocessed {
	var complexVars []string
	for i := 0; ; {
		j := strings.Index(src[i:], "{{")
		if j < 0 {
			break
		}
		start := i + j
		// non-greedy `\{\{(.*?)\}\}` with `.` not matching \n
		k := start + 2
		end := -1
		for k+1 < len(src) {
			if src[k] == '\n' {
				break
			}
			if src[k] == '}' && src[k+1] == '}' {
				end = k
				break
			}
			k++
		}
		if end < 0 {
			i = start + 1
			if k+1 >= len(src) {
				break
			}
			continue
		}
		inner := src[start+2 : end]
		if !isPlainIdent(inner) {
			complexVars = append(complexVars, inner)
		}
		i = end + 2
	}
	out := &Preprocessed{Text: src}
	if len(complexVars) == 0 {
		return out
	}
	// which are unparseable (goose compiles `{{inner}}` as a template)
	wraps := map[string]int{}
	var order []string
	for _, v := range complexVars {
		t := strings.TrimSpace(v)
		if strings.HasPrefix(t, "'") || strings.HasPrefix(t, `"`) {
			continue
		}
		if _, err := Parse("probe", "{{"+v+"}}"); err == nil {
			continue
		}
		if wraps[v] == 0 {
			order = append(order, v)
		}
		wraps[v]++
	}
	if len(order) == 0 {
		return out
	}
	// goose replaces each listed variable's `{{v}}` text everywhere, once per listing; a text listed
	// twice is wrapped twice (which then breaks the raw block, as it does in goose).
	type wrap struct{ start, end, times int }
	var ws []wrap
	for _, v := range order {
		pat := "{{" + v + "}}"
		for i := 0; ; {
			j := strings.Index(src[i:], pat)
			if j < 0 {
				break
			}
			ws = append(ws, wrap{i + j, i + j + len(pat), wraps[v]})
			i += j + len(pat)
		}
	}
	sort.Slice(ws, func(a, b int) bool { return ws[a].start < ws[b].start })
	var b strings.Builder
	last := 0
	for _, w := range ws {
		if w.start < last {
			continue // overlapping patterns: keep the first
		}
		b.WriteString(src[last:w.start])
		b.WriteString(strings.Repeat(rawOpen, w.times))
		out.inserts = append(out.inserts, insert{w.start, len(rawOpen) * w.times})
		b.WriteString(src[w.start:w.end])
		b.WriteString(strings.Repeat(rawClose, w.times))
		out.inserts = append(out.inserts, insert{w.end, len(rawClose) * w.times})
		out.Literal = append(out.Literal, Range{Start: w.start, End: w.end})
		last = w.end
	}
	b.WriteString(src[last:])
	out.Text = b.String()
	return out
}

func isPlainIdent(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" || !isIdentStart(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !isIdentChar(t[i]) {
			return false
		}
	}
	// `\s` in the regex also admits other Unicode spaces; TrimSpace covers them
	return true
}
