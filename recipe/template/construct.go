// Where a syntax error points: at the construct its author must fix (the opening tag, delimiter or
// bracket of what is left unclosed), with minijinja's own position kept as a note.

package template

import "strings"

// innermostOpenTag is the opening tag of the innermost block statement being read.
func (p *parser) innermostOpenTag() (Range, bool) {
	if len(p.open) == 0 {
		return Range{}, false
	}
	start := p.open[len(p.open)-1].start
	for i := len(p.lx.tags) - 1; i >= 0; i-- {
		if t := p.lx.tags[i]; t.R.Start == start {
			return t.R, true
		}
		if p.lx.tags[i].R.Start < start {
			break
		}
	}
	return Range{}, false
}

// closesSomething: kw is a tag that ends or continues a block.
func closesSomething(kw string) bool {
	return strings.HasPrefix(kw, "end") || kw == "else" || kw == "elif"
}

// pointAtConstruct moves an error minijinja notices past the text to fix onto that text:
//   - inside an unclosed bracket, minijinja reads the tag's `%}` or `}}` as operators and fails on its `}`
//     (or at the end of the input): the bracket is what to fix;
//   - a tag whose closing delimiter is missing fails on the next line's first token (or at the end of
//     the input) as more of the tag: the tag's opening delimiter, to the end of its line, is what to fix
//     (a token later on a line of a multi-line tag is itself the mistake).
func (p *parser) pointAtConstruct(se *SyntaxError) {
	if len(se.Notes) > 0 || p.eofAt > 0 {
		return
	}
	src, r := p.lx.src, se.R
	atEnd := r.Start >= len(src)
	r.Start = min(r.Start, len(src))
	ts := p.lx.tagStart
	if n := len(p.lx.tags); ts >= r.Start || (n > 0 && p.lx.tags[n-1].R.Start == ts) {
		return // not inside a tag any more: the tag at tagStart is closed
	}
	if d, ok := swallowedDelimiter(src, r); ok || atEnd {
		if !ok {
			d = len(src)
		}
		if o, ok := unclosedBracket(src, ts+2, d); ok {
			se.movedTo(Range{Start: o, End: o + 1}, atEnd)
			return
		}
	}
	if !strings.HasSuffix(se.Msg, "expected end of block") && !strings.HasSuffix(se.Msg, "expected end of variable block") {
		return
	}
	if atEnd || firstOnLaterLine(src, ts, r.Start) {
		end := ts
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		end = max(len(strings.TrimRight(src[:end], " \t")), ts+2)
		se.movedTo(Range{Start: ts, End: end}, atEnd)
	}
}

// swallowedDelimiter: r is a `}` of a tag's closing `%}` or `}}`; it returns where that delimiter starts.
func swallowedDelimiter(src string, r Range) (int, bool) {
	if r.Start >= len(src) || r.End != r.Start+1 || src[r.Start] != '}' {
		return 0, false
	}
	switch {
	case r.Start > 0 && (src[r.Start-1] == '%' || src[r.Start-1] == '}'):
		return r.Start - 1, true
	case r.End < len(src) && src[r.End] == '}':
		return r.Start, true
	}
	return 0, false
}

// unclosedBracket is the innermost bracket of src[from:to] (a tag's text) that is not closed there,
// string literals passed.
func unclosedBracket(src string, from, to int) (int, bool) {
	var open []int
	for i := from; i < to; i++ {
		switch c := src[i]; c {
		case '"', '\'':
			for i++; i < to && src[i] != c; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			open = append(open, i)
		case ')', ']', '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return 0, false
	}
	return open[len(open)-1], true
}

// firstOnLaterLine: the token at at is the first on its line, a line after the one where the tag at ts
// starts.
func firstOnLaterLine(src string, ts, at int) bool {
	i := at
	for i > ts && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	return i > ts && (src[i-1] == '\n' || src[i-1] == '\r')
}
