// goose's literal-brace pre-processing: single-line `{{…}}` whose inside is not a plain identifier,
// not a quoted literal and not a parseable expression is wrapped in `{% raw %}…{% endraw %}`.

package template

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
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
	// Err is set, and Text left as the input, when the pre-processing would grow past maxGrowth.
	Err *PreprocessError
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

// PreprocessCached is Preprocess with a per-document cache of which brace contents parse (nil: a cache
// for this call only), so a keystroke does not parse every `{{ … }}` of the file again (probecache.go).
func PreprocessCached(src string, cache *ProbeCache) *Preprocessed {
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
	// which are unparseable (goose compiles `{{inner}}` as a template); seq is goose's list, in order and
	// with repeats (each listing replaces its text everywhere once more)
	times := map[string]int{}
	var seq []string
	probe := cache.start()
	defer cache.finish(probe)
	for _, v := range complexVars {
		t := strings.TrimSpace(v)
		if strings.HasPrefix(t, "'") || strings.HasPrefix(t, `"`) {
			continue
		}
		if times[v] == 0 && probe.parses(v) {
			continue
		}
		times[v]++
		seq = append(seq, v)
	}
	if len(seq) == 0 {
		return out
	}
	out.rewrite(src, seq, times)
	return out
}

// maxGrowth bounds the pre-processed text: goose wraps each occurrence once per listing of its text, so
// a text listed n times grows the file by n² wraps; past the bound goose-ls reports instead of building.
func maxGrowth(src string) int { return 8*len(src) + 1<<20 }

// rewrite builds the pre-processed text of src from goose's listing sequence (see planWraps for
// where goose's order matters and how a line is replayed then).
func (p *Preprocessed) rewrite(src string, seq []string, times map[string]int) {
	plan := planWraps(src, times)
	size, limit := len(src), maxGrowth(src)
	for _, w := range plan.wraps {
		size += (len(rawOpen) + len(rawClose)) * w.times
	}
	if size > limit {
		p.Err = growthError(src, plan.wraps, limit)
		return
	}
	type replayed struct {
		line replayLine
		lits []Range
	}
	lines := make([]replayed, len(plan.lines))
	if len(plan.lines) > 0 {
		r := newReplayer(src, seq, plan, 16*len(src)+64<<20)
		for i, span := range plan.lines {
			line, lits, ok := r.replay(span, limit-size+(span.end-span.start))
			if !ok {
				p.Err = &PreprocessError{R: Range{Start: span.start, End: span.end}, Msg: fmt.Sprintf(
					"goose's literal-brace pre-processing of this line (overlapping unparseable `{{ }}` texts) would grow the file past %d bytes or take too long to reproduce: goose-ls does not check the template", limit)}
				return
			}
			size += len(line.text) - (span.end - span.start)
			lines[i] = replayed{line, lits}
		}
	}
	var b strings.Builder
	b.Grow(size)
	last, li := 0, 0
	emitLines := func(upTo int) { // the replayed lines that start before upTo
		for ; li < len(plan.lines) && plan.lines[li].start < upTo; li++ {
			span, l := plan.lines[li], lines[li]
			b.WriteString(src[last:span.start])
			b.Write(l.line.text)
			p.addLine(l.line, span.end)
			p.Literal = append(p.Literal, l.lits...)
			last = span.end
		}
	}
	for _, w := range plan.wraps {
		emitLines(w.start)
		b.WriteString(src[last:w.start])
		b.WriteString(strings.Repeat(rawOpen, w.times))
		p.addInsert(w.start, len(rawOpen)*w.times)
		b.WriteString(src[w.start:w.end])
		b.WriteString(strings.Repeat(rawClose, w.times))
		p.addInsert(w.end, len(rawClose)*w.times)
		p.Literal = append(p.Literal, Range{Start: w.start, End: w.end})
		last = w.end
	}
	emitLines(len(src) + 1)
	b.WriteString(src[last:])
	p.Text = b.String()
}

// PreprocessError is a pre-processing goose-ls does not reproduce because it would exhaust the
// machine (goose's own would too): the text stays as it was.
type PreprocessError struct {
	R   Range
	Msg string
}

func (e *PreprocessError) Error() string { return e.Msg }

// growthError names the most-listed text, at its first occurrence.
func growthError(src string, ws []wrap, limit int) *PreprocessError {
	top := ws[0]
	for _, w := range ws {
		if w.times > top.times {
			top = w
		}
	}
	return &PreprocessError{R: Range{Start: top.start, End: top.end}, Msg: fmt.Sprintf(
		"goose's literal-brace pre-processing would grow this file past %d bytes: `%s` cannot be parsed and is listed %d times, and goose wraps every occurrence in {%% raw %%} once per listing; goose-ls does not check the template",
		limit, clip(src[top.start:top.end], 80), top.times)}
}

// clip shortens s to at most n bytes (on a character boundary), marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func (p *Preprocessed) addInsert(at, n int) {
	shift := 0
	if k := len(p.inserts); k > 0 {
		shift = p.inserts[k-1].shift + p.inserts[k-1].n
	}
	p.inserts = append(p.inserts, insert{at: at, n: n, shift: shift})
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
