// Finding where goose's literal-brace pre-processing wraps: one pass over the text's `{{ … }}` segments,
// each listed text found by walking back from its `}}` through the listed texts' sorted reversals.
//
// goose replaces the listed texts' `{{v}}` one text after another, each everywhere (str::replace). A
// listed v never contains `}}` and never ends with `}`, so an occurrence of `{{v}}` that starts at a
// `{{` ends at the first `}}` after it: the `{{` starts that share a first `}}` form a segment, and the
// only candidates of a segment are the texts from each of its starts to that `}}` — suffixes of one
// another. A segment with one listed candidate is wrapped as goose wraps it, whatever the order; two
// listed candidates in one segment overlap, and their order decides what goose makes of them, so their
// line is replayed in goose's order (preprocess_replay.go).

package template

import (
	"sort"
	"strings"
)

// rawTag is the text a listed v must contain for a replacement to create an occurrence of it that the
// original text did not have (an inserted `{% raw %}` completing it).
const rawTag = "% raw %}"

type wrap struct{ start, end, times int }

// lineSpan is a line, [start, end) without its newline, that is replayed in goose's order; texts are
// the listed texts met at its `{{` starts.
type lineSpan struct {
	start, end int
	texts      []string
}

// wrapPlan is where the pre-processing wraps: single wraps (in order) outside the replayed lines;
// creates are the listed texts that contain rawTag.
type wrapPlan struct {
	wraps   []wrap
	lines   []lineSpan
	creates []string
}

// suffixIndex holds the listed texts reversed and sorted, to find which suffixes of a segment are listed
// in one backward walk (a map look-up per `{{` would hash each suffix: quadratic on `{{{{…`).
type suffixIndex struct{ rev []string }

func newSuffixIndex(texts []string) suffixIndex {
	rev := make([]string, len(texts))
	for i, t := range texts {
		b := []byte(t)
		for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
			b[l], b[r] = b[r], b[l]
		}
		rev[i] = string(b)
	}
	sort.Strings(rev)
	return suffixIndex{rev: rev}
}

// listedSuffixes calls found(q) for each `{{` start q in [first, end-2], last first, whose text
// src[q+2:end] is listed. The walk stops as soon as no listed text ends with what it has read.
func (x suffixIndex) listedSuffixes(src string, first, end int, found func(q int)) {
	lo, hi := 0, len(x.rev)
	for j, d := end, 0; ; j, d = j-1, d+1 {
		// the candidate src[j:end] (length d) is listed when the range's first entry is exactly it
		if j-2 >= first && src[j-2] == '{' && src[j-1] == '{' && len(x.rev[lo]) == d {
			found(j - 2)
		}
		if j-1 < first+2 {
			return
		}
		c := src[j-1]
		span := x.rev[lo:hi]
		nlo := sort.Search(len(span), func(k int) bool { s := span[k]; return len(s) > d && s[d] >= c })
		nhi := sort.Search(len(span), func(k int) bool { s := span[k]; return len(s) > d && s[d] > c })
		lo, hi = lo+nlo, lo+nhi
		if lo >= hi {
			return
		}
	}
}

// planWraps finds every wrap goose makes: a segment with one listed candidate is a single wrap (times:
// how often goose lists its text); a line with a segment of several, or with any listed candidate when
// a listed text contains rawTag, is replayed whole.
func planWraps(src string, times map[string]int) wrapPlan {
	var plan wrapPlan
	texts := make([]string, 0, len(times))
	for v := range times {
		texts = append(texts, v)
		if strings.Contains(v, rawTag) {
			plan.creates = append(plan.creates, v)
		}
	}
	idx := newSuffixIndex(texts)
	replayFrom := -1      // start of the line being replayed, -1 when none
	curLine := -1         // start of the line of the last segment with a listed text
	var curTexts []string // that line's listed texts so far
	var found []int
	lineStart, lineScan := 0, 0 // the line of the current segment; newlines are looked for from lineScan on
	for i := 0; ; {
		j := strings.Index(src[i:], "{{")
		if j < 0 {
			break
		}
		first := i + j
		end, next := closeOnLine(src, first+2)
		if end < 0 {
			i = next // no `}}` before this newline: no `{{` up to it closes either
			if next < 0 {
				break
			}
			continue
		}
		found = found[:0]
		idx.listedSuffixes(src, first, end, func(q int) { found = append(found, q) })
		i = end + 2
		if len(found) == 0 {
			continue
		}
		if k := strings.LastIndexByte(src[lineScan:first], '\n'); k >= 0 {
			lineStart = lineScan + k + 1
		}
		lineScan = first
		if lineStart != curLine {
			curLine, curTexts = lineStart, curTexts[:0]
		}
		for _, q := range found {
			curTexts = append(curTexts, src[q+2:end])
		}
		if replayFrom == lineStart {
			line := &plan.lines[len(plan.lines)-1]
			line.texts = append(line.texts, curTexts[len(curTexts)-len(found):]...) // this segment's
			continue
		}
		if len(found) > 1 || len(plan.creates) > 0 {
			plan.dropWrapsFrom(lineStart)
			lineEnd := strings.IndexByte(src[end:], '\n')
			if lineEnd < 0 {
				lineEnd = len(src)
			} else {
				lineEnd += end
			}
			plan.lines = append(plan.lines, lineSpan{start: lineStart, end: lineEnd, texts: append([]string(nil), curTexts...)})
			replayFrom = lineStart
			continue
		}
		q := found[0]
		plan.wraps = append(plan.wraps, wrap{q, end + 2, times[src[q+2:end]]})
	}
	return plan
}

// dropWrapsFrom removes the single wraps at or after start (their line is replayed instead).
func (p *wrapPlan) dropWrapsFrom(start int) {
	k := len(p.wraps)
	for k > 0 && p.wraps[k-1].start >= start {
		k--
	}
	p.wraps = p.wraps[:k]
}

// closeOnLine returns the first `}}` at or after i on i's line (end = -1 when a newline or the text's end
// comes first; next is then where the search goes on, -1 at the end of the text).
func closeOnLine(src string, i int) (end, next int) {
	for k := i; k+1 < len(src); k++ {
		switch {
		case src[k] == '\n':
			return -1, k
		case src[k] == '}' && src[k+1] == '}':
			return k, k + 2
		}
	}
	return -1, -1
}
