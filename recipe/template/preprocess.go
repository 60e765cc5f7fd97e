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
	shift int // bytes inserted before this insert (so it starts at at+shift in Text)
}

// ToOriginal maps an offset in Text back to the original text; offsets inside inserted text map to
// the point of insertion. O(log inserts).
func (p *Preprocessed) ToOriginal(off int) int {
	// the last insert starting at or before off
	i := sort.Search(len(p.inserts), func(i int) bool { return p.inserts[i].at+p.inserts[i].shift > off }) - 1
	if i < 0 {
		return off
	}
	in := p.inserts[i]
	if off < in.at+in.shift+in.n {
		return in.at
	}
	return off - in.shift - in.n
}

// Preprocess applies goose's rewrite. It returns the input unchanged (no copy) when nothing applies.
func Preprocess(src string) *Preprocessed { return PreprocessCached(src, nil) }

// PreprocessCached is Preprocess with a per-document memo of which brace contents parse (nil: a memo
// for this call only), so a keystroke does not parse every `{{ … }}` of the file again (probememo.go).
func PreprocessCached(src string, memo *ProbeMemo) *Preprocessed {
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
			if k+1 >= len(src) {
				break
			}
			// no `}}` before this newline: no `{{` between here and it can match either
			i = k
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
	probe := memo.start()
	defer memo.finish(probe)
	for _, v := range complexVars {
		t := strings.TrimSpace(v)
		if strings.HasPrefix(t, "'") || strings.HasPrefix(t, `"`) {
			continue
		}
		if probe.parses(v) {
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
	ws := findWraps(src, wraps)
	var b strings.Builder
	last := 0
	for _, w := range ws {
		if w.start < last {
			continue // overlapping patterns: keep the first
		}
		b.WriteString(src[last:w.start])
		b.WriteString(strings.Repeat(rawOpen, w.times))
		out.addInsert(w.start, len(rawOpen)*w.times)
		b.WriteString(src[w.start:w.end])
		b.WriteString(strings.Repeat(rawClose, w.times))
		out.addInsert(w.end, len(rawClose)*w.times)
		out.Literal = append(out.Literal, Range{Start: w.start, End: w.end})
		last = w.end
	}
	b.WriteString(src[last:])
	out.Text = b.String()
	return out
}

func (p *Preprocessed) addInsert(at, n int) {
	shift := 0
	if k := len(p.inserts); k > 0 {
		shift = p.inserts[k-1].shift + p.inserts[k-1].n
	}
	p.inserts = append(p.inserts, insert{at: at, n: n, shift: shift})
}

type wrap struct{ start, end, times int }

// findWraps lists, in order, every occurrence of `{{v}}` for the listed v (goose replaces each listed
// text everywhere). A listed v never contains `}}` or a newline, so the only candidate at a `{{` is
// the text up to the first `}}` after it on its line: one pass over the text with a map look-up.
func findWraps(src string, wraps map[string]int) []wrap {
	// closeAt[i]: the first `}}` at or after i, or -1 when a newline or the end comes first
	closeAt := make([]int32, len(src)+1)
	next := int32(-1)
	closeAt[len(src)] = -1
	for i := len(src) - 1; i >= 0; i-- {
		switch {
		case src[i] == '\n':
			next = -1
		case src[i] == '}' && i+1 < len(src) && src[i+1] == '}':
			next = int32(i)
		}
		closeAt[i] = next
	}
	var ws []wrap
	for i := 0; ; {
		j := strings.Index(src[i:], "{{")
		if j < 0 {
			break
		}
		start := i + j
		if end := int(closeAt[start+2]); end >= 0 {
			if times, ok := wraps[src[start+2:end]]; ok {
				ws = append(ws, wrap{start, end + 2, times})
				i = end + 2
				continue
			}
		}
		i = start + 1
	}
	return ws
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
