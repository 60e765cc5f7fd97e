// Recursive-descent parser producing the AST with byte ranges, following minijinja's grammar.

package template

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

const (
	// maxDepth bounds nested expressions; 226 gives minijinja 2.24's limits: 74 nested parentheses, 75 lists.
	maxDepth = 226
	// maxStmtDepth bounds nested statements as minijinja does (150 nested blocks fail).
	maxStmtDepth = 150
	// maxChain bounds operator, filter, attribute and elif chains, which the parser reads in a loop but
	// which nest in the tree the evaluator and analysis walk recursively.
	maxChain = 10_000
	// recursionLimitMsg is minijinja's message for all three.
	recursionLimitMsg = "template exceeds maximum recursion limits"
)

type parser struct {
	lx     *lexer
	lexErr error // a lexer error is sticky: lookahead that ignores it must not lose it
	// eofAt, when set (> 0), makes the rest of the input end there: minijinja's token stream drops a
	// lexer error that a lookahead ignored (after a string literal) and then reads as at its end
	eofAt  int
	tok    token
	peeked bool
	depth  int // nested expressions (recursive calls)
	stmts  int // nested statement bodies
	chain  int // links of the chains being read (operators, filters, postfix, elif)
	blocks map[string]*Block
	ext    *Extends
	// srcEnd is the end of the whole source, the trailing newline minijinja drops included: where an
	// unclosed block is reported
	srcEnd int
	// last is where the last token minijinja's parser would have consumed starts (template data, a tag
	// opener, an expression token), or -1: its line is the one minijinja names for a parser error
	last int
	// open are the block statements being read, innermost last: where an unclosed one is reported
	open []openStmt
}

// openStmt is a block statement whose end tag the parser has not reached yet.
type openStmt struct {
	start int
	kw    string
}

// Parse parses src as a template named name.
func Parse(name, src string) (*Template, error) {
	// minijinja (keep_trailing_newline off) drops one trailing "\n", then one "\r", from every template
	// it loads before lexing it; ranges stay valid since the lexed text is a prefix of src
	lexed := strings.TrimSuffix(src, "\n")
	lexed = strings.TrimSuffix(lexed, "\r")
	p := &parser{lx: &lexer{src: lexed}, blocks: map[string]*Block{}, srcEnd: len(src), last: -1}
	// one allocation for the tag list instead of regrowing it (a 3,000-line recipe has ~1,000 tags)
	p.lx.tags = make([]Tag, 0, strings.Count(lexed, "{{")+strings.Count(lexed, "{%")+strings.Count(lexed, "{#"))
	body, end, err := p.subparse(nil)
	if err == nil && end != "" {
		err = &SyntaxError{R: p.tok.r, Msg: fmt.Sprintf("unexpected `%s`", end)}
	}
	var se *SyntaxError
	if errors.As(err, &se) && se.Line == 0 && p.last >= 0 {
		se.Line = p.lx.lineOf(p.last)
	}
	if se != nil {
		p.pointAtConstruct(se)
	}
	t := &Template{Name: name, Source: src, Body: body, Blocks: p.blocks, Extends: p.ext, Tags: p.lx.tags}
	t.TrailingNewline = len(lexed) < len(src)
	if err != nil {
		return t, err
	}
	return t, nil
}

// ParseExpression parses a standalone expression (as `{{ src }}` would hold it).
func ParseExpression(src string) (Expr, error) {
	p := &parser{lx: &lexer{src: src, inVar: true}, blocks: map[string]*Block{}}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tkEOF {
		return nil, p.unexpected(t, "end of expression")
	}
	return e, nil
}

func (p *parser) next() (token, error) {
	if p.eofAt > 0 {
		return token{kind: tkEOF, r: Range{Start: p.eofAt, End: p.eofAt}}, nil
	}
	if p.lexErr != nil {
		return token{}, p.lexErr
	}
	if p.peeked {
		p.peeked = false
		p.consumed(p.tok)
		return p.tok, nil
	}
	t, err := p.lx.next()
	if err != nil {
		p.lexErr = err
		return t, err
	}
	p.tok = t
	p.consumed(t)
	return t, nil
}

// consumed notes a token the parser took (minijinja's end of input is no token).
func (p *parser) consumed(t token) {
	if t.kind != tkEOF {
		p.last = t.r.Start
	}
}

func (p *parser) peek() (token, error) {
	if p.eofAt > 0 {
		return token{kind: tkEOF, r: Range{Start: p.eofAt, End: p.eofAt}}, nil
	}
	if p.lexErr != nil {
		return token{}, p.lexErr
	}
	if p.peeked {
		return p.tok, nil
	}
	t, err := p.lx.next()
	if err != nil {
		p.lexErr = err
		return t, err
	}
	p.tok, p.peeked = t, true
	return t, nil
}

func (p *parser) unexpected(t token, expected string) error {
	return &SyntaxError{R: t.r, Msg: fmt.Sprintf("unexpected %s, expected %s", t.describe(), expected)}
}

func (p *parser) expectOp(op string) (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != tkOp || t.val != op {
		return t, p.unexpected(t, "`"+op+"`")
	}
	return t, nil
}

func (p *parser) isOp(op string) bool {
	t, err := p.peek()
	return err == nil && t.kind == tkOp && t.val == op
}

func (p *parser) isKeyword(kw string) bool {
	t, err := p.peek()
	return err == nil && t.kind == tkIdent && t.val == kw
}

// skipContextMarker skips `with context` or `without context`, which minijinja accepts after include and
// import names and ignores.
func (p *parser) skipContextMarker() (bool, error) {
	if !p.isKeyword("with") && !p.isKeyword("without") {
		return false, nil
	}
	p.next()
	t, err := p.next()
	if err != nil {
		return false, err
	}
	if t.kind != tkIdent || t.val != "context" {
		return false, p.unexpected(t, "context")
	}
	return true, nil
}

func (p *parser) expectBlockEnd() (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != tkBlockEnd {
		return t, p.unexpected(t, "end of block")
	}
	return t, nil
}

// blockBody closes the opening tag, parses the body up to `{% end %}`, closes that tag too and returns
// the body with the range of the whole statement from start.
func (p *parser) blockBody(start int, end string) ([]Stmt, Range, error) {
	if _, err := p.expectBlockEnd(); err != nil {
		return nil, Range{}, err
	}
	body, _, err := p.subparse([]string{end})
	if err != nil {
		return nil, Range{}, err
	}
	t, err := p.expectBlockEnd()
	if err != nil {
		return nil, Range{}, err
	}
	return body, Range{Start: start, End: t.r.End}, nil
}

// subparse parses statements until one of the end keywords opens a block tag; it returns that keyword
// with the tag's start consumed (the keyword itself consumed too).
func (p *parser) subparse(ends []string) ([]Stmt, string, error) {
	p.stmts++
	defer func() { p.stmts-- }()
	if p.stmts >= maxStmtDepth+1 {
		return nil, "", p.tooDeep()
	}
	var body []Stmt
	emit := func(s Stmt) {
		switch s := s.(type) {
		case *Text:
			// minijinja's data token starts after the whitespace a `-` trims; all trimmed, there is none
			if s.Out.Start < s.Out.End {
				p.last = s.Out.Start
			}
		case *Raw:
			p.last = s.R.Start
		}
		body = append(body, s)
	}
	for {
		op, err := p.lx.scanData(emit)
		if err != nil {
			return body, "", err
		}
		switch op {
		case openEOF:
			if len(ends) > 0 {
				eof := max(p.srcEnd, len(p.lx.src))
				se := &SyntaxError{R: Range{Start: eof, End: eof}, Msg: "unexpected end of input, expected end of block"}
				if r, ok := p.innermostOpenTag(); ok {
					se.movedTo(r, true) // the user closes the block its opening tag starts
				}
				return body, "", se
			}
			return body, "", nil
		case openVar:
			start := p.lx.tagStart
			p.last = start
			e, err := p.expr()
			if err != nil {
				return body, "", err
			}
			t, err := p.next()
			if err != nil {
				return body, "", err
			}
			if t.kind != tkVarEnd {
				return body, "", p.unexpected(t, "end of variable block")
			}
			emit(&Emit{R: Range{Start: start, End: t.r.End}, Expr: e})
		case openBlock:
			start := p.lx.tagStart
			p.last = start
			kw, err := p.next()
			if err != nil {
				return body, "", err
			}
			switch kw.kind {
			case tkIdent:
			case tkEOF:
				return body, "", &SyntaxError{R: kw.r, Msg: "unexpected end of input, expected keyword"}
			default:
				// minijinja's words for a tag that holds no keyword (`{%%}`, `{% 1 %}`)
				return body, "", &SyntaxError{R: kw.r, Msg: fmt.Sprintf("unknown %s, expected statement", kw.describe())}
			}
			for _, e := range ends {
				if kw.val == e {
					p.markKeyword(start, kw.val)
					return body, kw.val, nil
				}
			}
			st, err := p.statement(start, kw)
			if err != nil {
				return body, "", err
			}
			if st != nil {
				emit(st)
			}
		}
	}
}

// tooDeep is the error for nesting past a limit, at the current position.
func (p *parser) tooDeep() error {
	return &SyntaxError{R: Range{Start: p.lx.pos, End: p.lx.pos}, Msg: recursionLimitMsg}
}

// link counts one more link of a chain; restore p.chain when the chain's function returns.
func (p *parser) link() error {
	if p.chain++; p.chain > maxChain {
		return p.tooDeep()
	}
	return nil
}

// markKeyword records the statement keyword for the block tag being read (it is stored when the tag closes).
func (p *parser) markKeyword(_ int, kw string) {
	p.lx.keyword = kw
}

func (p *parser) statement(start int, kw token) (Stmt, error) {
	p.markKeyword(start, kw.val)
	switch kw.val {
	case "if", "for", "set", "with", "block", "filter", "autoescape":
		p.open = append(p.open, openStmt{start: start, kw: kw.val})
		defer func() { p.open = p.open[:len(p.open)-1] }()
	}
	switch kw.val {
	case "if":
		return p.ifStmt(start)
	case "for":
		return p.forStmt(start)
	case "set":
		return p.setStmt(start)
	case "with":
		return p.withStmt(start)
	case "block":
		return p.blockStmt(start)
	case "extends":
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		t, err := p.expectBlockEnd()
		if err != nil {
			return nil, err
		}
		x := &Extends{R: Range{Start: start, End: t.r.End}, Name: e}
		if p.ext == nil {
			p.ext = x
		}
		return x, nil
	case "include":
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		inc := &Include{Name: e}
		skipped, err := p.skipContextMarker()
		if err != nil {
			return nil, err
		}
		if p.isKeyword("ignore") {
			p.next()
			t, err := p.next()
			if err != nil {
				return nil, err
			}
			if t.kind != tkIdent || t.val != "missing" {
				return nil, p.unexpected(t, "missing keyword")
			}
			inc.IgnoreMissing = true
			if !skipped {
				if _, err := p.skipContextMarker(); err != nil {
					return nil, err
				}
			}
		}
		t, err := p.expectBlockEnd()
		if err != nil {
			return nil, err
		}
		inc.R = Range{Start: start, End: t.r.End}
		return inc, nil
	case "import", "from":
		return p.importStmt(start, kw.val)
	case "do":
		return p.doStmt(start)
	case "filter":
		f, err := p.blockFilters()
		if err != nil {
			return nil, err
		}
		body, r, err := p.blockBody(start, "endfilter")
		if err != nil {
			return nil, err
		}
		return &FilterBlock{R: r, Filter: f, Body: body}, nil
	case "autoescape":
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		body, r, err := p.blockBody(start, "endautoescape")
		if err != nil {
			return nil, err
		}
		return &AutoEscape{R: r, Expr: e, Body: body}, nil
	}
	// a stray end tag (`{% endif %}` with no open `if`) is an unknown statement to minijinja too
	se := &SyntaxError{R: kw.r, Msg: "unknown statement " + kw.val}
	if r, ok := p.innermostOpenTag(); ok && closesSomething(kw.val) {
		// an end tag that meets another open block (`{% endif %}` inside an unclosed `for`)
		se.Notes = append(se.Notes, Note{R: r, Msg: fmt.Sprintf("this `%s` is still open", p.open[len(p.open)-1].kw)})
	}
	return nil, se
}

func parseInt(t token) (Value, error) {
	if i, err := strconv.ParseInt(t.val, 10, 64); err == nil {
		return IntValue(i), nil
	}
	// past 64 bits minijinja keeps up to 128
	n, ok := new(big.Int).SetString(t.val, 10)
	if !ok || n.BitLen() > 128 {
		return Value{}, &SyntaxError{R: t.r, Msg: "invalid integer (too large)"}
	}
	return wideValue(n), nil
}

// dottedName extends a filter or test name with `.segment`s, as minijinja 2.24 reads them (`|ns.f`):
// the name is the source text from the first segment to the last.
func (p *parser) dottedName(first token) (token, error) {
	name := first
	for p.isOp(".") {
		p.next()
		seg, err := p.next()
		if err != nil {
			return name, err
		}
		if seg.kind != tkIdent {
			return name, p.unexpected(seg, "identifier")
		}
		name.r.End = seg.r.End
		name.val = p.lx.src[name.r.Start:name.r.End]
	}
	return name, nil
}
