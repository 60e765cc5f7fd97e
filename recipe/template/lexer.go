// Lexer for goose's template dialect: data segments, tags with whitespace control, raw blocks, comments.

package template

import (
	"math/big"
	"strings"
)

type tokKind uint8

const (
	tkEOF tokKind = iota
	tkVarEnd
	tkBlockEnd
	tkIdent
	tkString
	tkInt
	tkFloat
	tkOp
)

type token struct {
	kind tokKind
	val  string // identifier, operator, decoded string or number text
	r    Range
}

func (t token) describe() string {
	switch t.kind {
	case tkEOF:
		return "end of input"
	case tkVarEnd:
		return "end of variable block"
	case tkBlockEnd:
		return "end of block"
	case tkIdent:
		return "identifier"
	case tkString:
		return "string"
	case tkInt:
		return "integer"
	case tkFloat:
		return "float"
	}
	return "`" + t.val + "`"
}

// SyntaxError is a template syntax error with the range it concerns.
type SyntaxError struct {
	// R is the text the user must fix: the offending token, or the opening tag, delimiter, bracket or quote
	// of what is left unclosed.
	R   Range
	Msg string
	// Line is the line minijinja names in ` (in name:N)` (from 1): where its lexer stood for a lexing
	// error, else the first line of the last token its parser consumed. R stays on the offending text.
	Line int
	// NotSyntax: minijinja's error kind is not a syntax error (a bad string escape), so the message has no
	// "syntax error: " before it.
	NotSyntax bool
	// Notes are other places that explain the error: where minijinja noticed it when that is not R (the
	// end of the input, the token after an unclosed bracket), the statement an end tag cannot close.
	Notes []Note
}

// Note is a place that explains a syntax error.
type Note struct {
	R   Range
	Msg string
	// Engine marks where minijinja noticed the error.
	Engine bool
}

// Related-place texts (goose-ls's words).
const (
	noteEngineStop = "goose's template engine (minijinja) stops here"
	noteEngineEnd  = "goose's template engine (minijinja) reaches the end of the text here"
)

// EngineRange is where minijinja noticed the error: its engine note, else R.
func (e *SyntaxError) EngineRange() Range {
	for _, n := range e.Notes {
		if n.Engine {
			return n.R
		}
	}
	return e.R
}

// movedTo puts the error on r (the construct to fix) and keeps where minijinja noticed it as a note.
func (e *SyntaxError) movedTo(r Range, atEnd bool) {
	msg := noteEngineStop
	if atEnd {
		msg = noteEngineEnd
	}
	e.Notes = append(e.Notes, Note{R: e.R, Msg: msg, Engine: true})
	e.R = r
}

// lineOf is the 1-based line of offset off in the lexed source.
func (lx *lexer) lineOf(off int) int {
	return 1 + strings.Count(lx.src[:min(max(off, 0), len(lx.src))], "\n")
}

func (e *SyntaxError) Error() string {
	if e.NotSyntax {
		return e.Msg
	}
	return "syntax error: " + e.Msg
}

// lexer walks the source; the parser drives it between data mode (scanData) and tag mode (next).
type lexer struct {
	src      string
	pos      int
	trimNext bool // the previous tag ended with `-`: strip leading whitespace of the next data
	depth    int  // open `{`, `[`, `(` inside the current tag
	inVar    bool // inside `{{ }}` (else inside `{% %}`)
	tags     []Tag
	tagStart int
	keyword  string // statement keyword of the block tag being read
	// owned holds one copy of each identifier and string the lexer returned: tokens do not point into
	// src, so a template re-used across edits (incremental.go) does not keep its first text alive
	owned map[string]string
}

// own returns lx's copy of s (a part of src).
func (lx *lexer) own(s string) string {
	if c, ok := lx.owned[s]; ok {
		return c
	}
	if lx.owned == nil {
		lx.owned = map[string]string{}
	}
	c := strings.Clone(s)
	lx.owned[c] = c
	return c
}

// opener is what ended a data segment.
type opener uint8

const (
	openEOF opener = iota
	openVar
	openBlock
)

// scanData returns the text up to the next `{{` or `{%` (comments and raw blocks are consumed) and what
// follows it. Raw blocks are returned as separate statements through raws.
func (lx *lexer) scanData(emit func(Stmt)) (opener, error) {
	for {
		start := lx.pos
		i := indexOpen(lx.src, lx.pos)
		end := len(lx.src)
		if i >= 0 {
			end = i
		}
		out := Range{Start: start, End: end}
		if lx.trimNext {
			for out.Start < out.End && isSpace(lx.src[out.Start]) {
				out.Start++
			}
			lx.trimNext = false
		}
		if i >= 0 && i+2 < len(lx.src) && lx.src[i+2] == '-' {
			for out.End > out.Start && isSpace(lx.src[out.End-1]) {
				out.End--
			}
		}
		if end > start {
			emit(&Text{R: Range{Start: start, End: end}, Out: out})
		}
		if i < 0 {
			lx.pos = len(lx.src)
			return openEOF, nil
		}
		lx.pos = i + 2
		lx.tagStart = i
		if lx.pos < len(lx.src) && (lx.src[lx.pos] == '-' || lx.src[lx.pos] == '+') {
			lx.pos++
		}
		switch lx.src[i+1] {
		case '#':
			j := strings.Index(lx.src[lx.pos:], "#}")
			if j < 0 {
				lx.tags = append(lx.tags, Tag{Kind: TagComment, R: Range{Start: i, End: len(lx.src)}})
				return openEOF, &SyntaxError{R: Range{Start: i, End: i + 2}, Msg: "unexpected end of comment", Line: lx.lineOf(len(lx.src)),
					Notes: []Note{lx.endNote()}}
			}
			endC := lx.pos + j
			if endC > lx.pos && lx.src[endC-1] == '-' {
				lx.trimNext = true
			}
			lx.pos = endC + 2
			lx.tags = append(lx.tags, Tag{Kind: TagComment, R: Range{Start: i, End: lx.pos}})
			continue
		case '{':
			lx.inVar, lx.depth = true, 0
			return openVar, nil
		default:
			if raw, ok, err := lx.tryRaw(i); ok || err != nil {
				if err != nil {
					return openEOF, err
				}
				emit(raw)
				continue
			}
			lx.inVar, lx.depth = false, 0
			return openBlock, nil
		}
	}
}

// indexOpen finds the next `{{`, `{%` or `{#` at or after from.
func indexOpen(s string, from int) int {
	for {
		j := strings.IndexByte(s[from:], '{')
		if j < 0 || from+j+1 >= len(s) {
			return -1
		}
		k := from + j
		switch s[k+1] {
		case '{', '%', '#':
			return k
		}
		from = k + 1
	}
}

// tryRaw recognises `{% raw %}` at the tag starting at i and consumes through `{% endraw %}`.
func (lx *lexer) tryRaw(i int) (*Raw, bool, error) {
	p := skipSpaces(lx.src, lx.pos)
	if !strings.HasPrefix(lx.src[p:], "raw") {
		return nil, false, nil
	}
	p = skipSpaces(lx.src, p+3)
	trimBody := false
	if p < len(lx.src) && (lx.src[p] == '-' || lx.src[p] == '+') {
		trimBody = lx.src[p] == '-'
		p++
	}
	if !strings.HasPrefix(lx.src[p:], "%}") {
		return nil, false, nil
	}
	bodyStart := p + 2
	lx.tags = append(lx.tags, Tag{Kind: TagBlock, R: Range{Start: i, End: bodyStart}, Keyword: "raw"})
	// find {%-? endraw -?%}
	q := bodyStart
	for {
		j := strings.Index(lx.src[q:], "{%")
		if j < 0 {
			return nil, true, &SyntaxError{R: Range{Start: i, End: bodyStart}, Msg: "unexpected end of raw block", Line: lx.lineOf(len(lx.src)),
				Notes: []Note{lx.endNote()}}
		}
		k := q + j
		r := k + 2
		trimEnd := false
		if r < len(lx.src) && (lx.src[r] == '-' || lx.src[r] == '+') {
			trimEnd = lx.src[r] == '-'
			r++
		}
		r = skipSpaces(lx.src, r)
		if !strings.HasPrefix(lx.src[r:], "endraw") {
			q = k + 2
			continue
		}
		r = skipSpaces(lx.src, r+6)
		trimAfter := false
		if r < len(lx.src) && (lx.src[r] == '-' || lx.src[r] == '+') {
			trimAfter = lx.src[r] == '-'
			r++
		}
		if !strings.HasPrefix(lx.src[r:], "%}") {
			q = k + 2
			continue
		}
		body := Range{Start: bodyStart, End: k}
		if trimBody {
			for body.Start < body.End && isSpace(lx.src[body.Start]) {
				body.Start++
			}
		}
		if trimEnd {
			for body.End > body.Start && isSpace(lx.src[body.End-1]) {
				body.End--
			}
		}
		lx.pos = r + 2
		lx.trimNext = trimAfter
		lx.tags = append(lx.tags, Tag{Kind: TagBlock, R: Range{Start: k, End: lx.pos}, Keyword: "endraw"})
		return &Raw{R: Range{Start: i, End: lx.pos}, Body: body}, true, nil
	}
}

// skipSpaces skips whitespace inside a tag: Rust's is_ascii_whitespace, which has no vertical tab
// (minijinja: "unexpected character").
func skipSpaces(s string, p int) int {
	for p < len(s) && isSpace(s[p]) && s[p] != '\v' {
		p++
	}
	return p
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentStart(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// next returns the next token inside a tag; the closing delimiter yields tkVarEnd or tkBlockEnd.
func (lx *lexer) next() (token, error) {
	s := lx.src
	lx.pos = skipSpaces(s, lx.pos)
	p := lx.pos
	if p >= len(s) {
		return token{kind: tkEOF, r: Range{Start: p, End: p}}, nil
	}
	// closing delimiters, optionally with whitespace control
	if lx.depth == 0 { // minijinja: inside brackets (paren_balance != 0) a tag does not end
		q, trim := p, false
		if s[q] == '-' || s[q] == '+' {
			trim = s[q] == '-'
			q++
		}
		if lx.inVar && strings.HasPrefix(s[q:], "}}") {
			lx.pos, lx.trimNext = q+2, trim
			lx.closeTag(TagVariable)
			return token{kind: tkVarEnd, r: Range{Start: p, End: q + 2}}, nil
		}
		if !lx.inVar && strings.HasPrefix(s[q:], "%}") {
			lx.pos, lx.trimNext = q+2, trim
			lx.closeTag(TagBlock)
			return token{kind: tkBlockEnd, r: Range{Start: p, End: q + 2}}, nil
		}
	}
	c := s[p]
	switch {
	case isIdentStart(c):
		q := p + 1
		for q < len(s) && isIdentChar(s[q]) {
			q++
		}
		lx.pos = q
		return token{kind: tkIdent, val: lx.own(s[p:q]), r: Range{Start: p, End: q}}, nil
	case c >= '0' && c <= '9':
		return lx.number()
	case c == '"' || c == '\'':
		return lx.str(c)
	}
	for _, op := range operators {
		if strings.HasPrefix(s[p:], op) {
			switch op {
			case "(", "[", "{":
				lx.depth++
			case ")", "]", "}":
				lx.depth-- // minijinja's balance goes below zero too (then no delimiter ends the tag)
			}
			lx.pos = p + len(op)
			return token{kind: tkOp, val: op, r: Range{Start: p, End: lx.pos}}, nil
		}
	}
	return token{}, &SyntaxError{R: Range{Start: p, End: p + 1}, Msg: "unexpected character", Line: lx.lineOf(p)}
}

// endNote says minijinja reached the end of the lexed text.
func (lx *lexer) endNote() Note {
	return Note{R: Range{Start: len(lx.src), End: len(lx.src)}, Msg: noteEngineEnd, Engine: true}
}

func (lx *lexer) closeTag(kind TagKind) {
	lx.tags = append(lx.tags, Tag{Kind: kind, R: Range{Start: lx.tagStart, End: lx.pos}, Keyword: lx.keyword})
	lx.keyword = ""
}

// operators, longest first.
var operators = []string{"**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|", "=", "<", ">"}

// number scans a number literal with minijinja's state machine: `0b`/`0o`/`0x` integers, decimal integers,
// fractions (`1.` included), exponents, and `_` anywhere after the first digit but not at the end.
func (lx *lexer) number() (token, error) {
	s, p := lx.src, lx.pos
	const (
		stRadix = iota
		stInteger
		stFraction
		stExponent
		stExponentSign
	)
	radix, state, q := 10, stInteger, p
	if p+1 < len(s) && s[p] == '0' {
		switch s[p+1] {
		case 'b', 'B':
			radix = 2
		case 'o', 'O':
			radix = 8
		case 'x', 'X':
			radix = 16
		}
		if radix != 10 {
			state, q = stRadix, p+2
		}
	}
	digitsStart := q
	hasUnderscore := false
scan:
	for ; q < len(s); q++ {
		c := s[q]
		switch {
		case c == '.' && state == stInteger:
			// `x.1.name` is an attribute chain, `1.e3` a float: an identifier after the dot ends the number
			isExp := q+2 < len(s) && (s[q+1] == 'e' || s[q+1] == 'E') && (s[q+2] == '+' || s[q+2] == '-' || s[q+2] >= '0' && s[q+2] <= '9')
			if !isExp && q+1 < len(s) && (s[q+1] == '_' || s[q+1] >= 'a' && s[q+1] <= 'z' || s[q+1] >= 'A' && s[q+1] <= 'Z') {
				break scan
			}
			state = stFraction
		case (c == 'e' || c == 'E') && (state == stInteger || state == stFraction):
			state = stExponent
		case (c == '+' || c == '-') && state == stExponent:
			state = stExponentSign
		case c >= '0' && c <= '9' && state == stExponent:
			state = stExponentSign
		case c >= '0' && c <= '9':
		case (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') && state == stRadix && radix == 16:
		case c == '_':
			hasUnderscore = true
		default:
			break scan
		}
	}
	lx.pos = q
	r := Range{Start: p, End: q}
	num := s[digitsStart:q]
	if hasUnderscore {
		if strings.HasSuffix(num, "_") {
			return token{}, &SyntaxError{R: r, Msg: "'_' may not occur at end of number", Line: lx.lineOf(r.End)}
		}
		num = strings.ReplaceAll(num, "_", "")
	}
	if state != stInteger && state != stRadix {
		return token{kind: tkFloat, val: lx.own(num), r: r}, nil
	}
	if radix != 10 {
		// the token keeps decimal digits, so the parser reads every integer the same way
		n, ok := new(big.Int).SetString(num, radix)
		if !ok || num == "" || n.BitLen() > 128 {
			return token{}, &SyntaxError{R: r, Msg: "invalid integer (too large)", Line: lx.lineOf(r.End)}
		}
		num = n.String()
	}
	return token{kind: tkInt, val: lx.own(num), r: r}, nil
}

func (lx *lexer) str(quote byte) (token, error) {
	s, p := lx.src, lx.pos
	// minijinja finds the closing quote first (a backslash takes the byte after it along), then unescapes
	q, escapes := p+1, false
	for q < len(s) && s[q] != quote {
		if s[q] == '\\' {
			escapes = true
			q++
		}
		q++
	}
	if q >= len(s) {
		lx.pos = len(s)
		// the user closes the string on its first line: the range is the opening quote to that line's end
		first := p + 1
		for first < len(s) && s[first] != '\n' && s[first] != '\r' {
			first++
		}
		return token{}, &SyntaxError{R: Range{Start: p, End: first}, Msg: "unexpected end of string", Line: lx.lineOf(len(s)),
			Notes: []Note{lx.endNote()}}
	}
	lx.pos = q + 1
	val := s[p+1 : q]
	if !escapes {
		val = lx.own(val)
	} else {
		var ok bool
		if val, ok = unescapeString(val); !ok {
			// minijinja's BadEscape carries no position: the parser's last token names the line
			return token{}, &SyntaxError{R: Range{Start: p, End: q + 1}, Msg: "bad string escape", NotSyntax: true}
		}
	}
	return token{kind: tkString, val: val, r: Range{Start: p, End: q + 1}}, nil
}
