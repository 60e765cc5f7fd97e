// goose's pre-processing replayed on a line where listed texts overlap: each listed text's `{{v}}`
// replaced everywhere in the line, in goose's listing order, on the text the earlier replacements left
// (so `{{ x y }}` listed first breaks a later `{{{{ x y }}`, and a text listed before a suffix of it is
// wrapped again inside). Every replacement is bounded by the caller's budgets.

package template

import (
	"bytes"
	"sort"
)

// replayLine is a line being rewritten, each byte with its original offset (-1: inserted by goose).
type replayLine struct {
	text   []byte
	origin []int32
}

// replayer replays lines of src against goose's listing sequence.
type replayer struct {
	src     string
	at      map[string][]int32 // listed text → its positions in goose's listing sequence
	creates []string           // listed texts that a replacement can create (they contain rawTag)
	work    int                // bytes scanned or copied so far
	maxWork int
}

// newReplayer indexes the listing positions of the texts the plan's replayed lines can meet.
func newReplayer(src string, seq []string, plan wrapPlan, maxWork int) *replayer {
	r := &replayer{src: src, at: map[string][]int32{}, creates: plan.creates, maxWork: maxWork}
	for _, l := range plan.lines {
		for _, t := range l.texts {
			r.at[t] = nil
		}
	}
	for _, t := range plan.creates {
		r.at[t] = nil
	}
	for i, v := range seq {
		if ps, ok := r.at[v]; ok {
			r.at[v] = append(ps, int32(i))
		}
	}
	return r
}

// replay rewrites one line; it returns the line and the original ranges of the texts it wrapped, or
// ok=false when the work budget ran out or the line grew past maxLen.
func (r *replayer) replay(span lineSpan, maxLen int) (line replayLine, lits []Range, ok bool) {
	line = replayLine{text: []byte(r.src[span.start:span.end]), origin: make([]int32, span.end-span.start)}
	for i := range line.origin {
		line.origin[i] = int32(span.start + i)
	}
	texts := map[string]bool{}
	for _, t := range span.texts {
		texts[t] = true
	}
	for _, t := range r.creates {
		texts[t] = true
	}
	type step struct {
		pos  int32
		text string
	}
	for t := range texts {
		r.work += len(r.at[t])
	}
	if r.work > r.maxWork {
		return line, nil, false
	}
	var steps []step
	for t := range texts {
		for _, p := range r.at[t] {
			steps = append(steps, step{p, t})
		}
	}
	sort.Slice(steps, func(a, b int) bool { return steps[a].pos < steps[b].pos })
	gone := map[string]bool{} // texts that no longer occur (without rawTag texts, none comes back)
	for _, s := range steps {
		if gone[s.text] {
			continue
		}
		r.work += len(line.text)
		n := line.replaceAll("{{"+s.text+"}}", &lits)
		if n == 0 && len(r.creates) == 0 {
			gone[s.text] = true
		}
		if n > 0 {
			r.work += len(line.text)
		}
		if r.work > r.maxWork || len(line.text) > maxLen {
			return line, nil, false
		}
	}
	sort.Slice(lits, func(a, b int) bool {
		return lits[a].Start < lits[b].Start || lits[a].Start == lits[b].Start && lits[a].End < lits[b].End
	})
	return line, compactRanges(lits), true
}

// replaceAll wraps every non-overlapping occurrence of pat, leftmost first (Rust's str::replace), and
// records each one's original range.
func (l *replayLine) replaceAll(pat string, lits *[]Range) int {
	p := []byte(pat)
	first := bytes.Index(l.text, p)
	if first < 0 {
		return 0
	}
	text := make([]byte, 0, len(l.text)+len(rawOpen)+len(rawClose))
	origin := make([]int32, 0, cap(text))
	n, last := 0, 0
	for i := first; i >= 0; {
		start, end := last+i, last+i+len(p)
		text, origin = append(text, l.text[last:start]...), append(origin, l.origin[last:start]...)
		text, origin = appendInserted(text, origin, rawOpen)
		text, origin = append(text, l.text[start:end]...), append(origin, l.origin[start:end]...)
		text, origin = appendInserted(text, origin, rawClose)
		// a match starts and ends on original bytes (inserted text has no `{{` and no `}}`)
		if s, e := l.origin[start], l.origin[end-1]; s >= 0 && e >= 0 {
			*lits = append(*lits, Range{Start: int(s), End: int(e) + 1})
		}
		n++
		last = end
		i = bytes.Index(l.text[last:], p)
	}
	l.text, l.origin = append(text, l.text[last:]...), append(origin, l.origin[last:]...)
	return n
}

func appendInserted(text []byte, origin []int32, s string) ([]byte, []int32) {
	text = append(text, s...)
	for range len(s) {
		origin = append(origin, -1)
	}
	return text, origin
}

// compactRanges drops repeats from sorted ranges.
func compactRanges(rs []Range) []Range {
	out := rs[:0]
	for i, r := range rs {
		if i == 0 || r != rs[i-1] {
			out = append(out, r)
		}
	}
	return out
}

// addLine appends a replayed line's inserted runs to p's insert map (end: the line's end offset).
func (p *Preprocessed) addLine(line replayLine, end int) {
	for i := 0; i < len(line.origin); {
		if line.origin[i] >= 0 {
			i++
			continue
		}
		k := i
		for k < len(line.origin) && line.origin[k] < 0 {
			k++
		}
		at := end
		if k < len(line.origin) {
			at = int(line.origin[k])
		}
		p.addInsert(at, k-i)
		i = k
	}
}
