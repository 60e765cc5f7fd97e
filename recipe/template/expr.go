// Expression grammar: conditional, logic, comparison, arithmetic, concat, unary, postfix, filters, tests.

package template

import (
	"errors"
	"strconv"
	"strings"
)

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.tooDeep()
	}
	return nil
}

func (p *parser) expr() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func(chain int) { p.depth--; p.chain = chain }(p.chain)
	e, err := p.orExpr()
	if err != nil {
		return nil, err
	}
	for p.isKeyword("if") {
		if err := p.link(); err != nil {
			return nil, err
		}
		p.next()
		cond, err := p.orExpr()
		if err != nil {
			return nil, err
		}
		ce := &CondExpr{Cond: cond, True: e, R: Range{Start: e.Span().Start, End: cond.Span().End}}
		if p.isKeyword("else") {
			p.next()
			if ce.False, err = p.expr(); err != nil {
				return nil, err
			}
			ce.R.End = ce.False.Span().End
		}
		e = ce
	}
	return e, nil
}

// binaryOp returns the binary operator at t and its precedence (0: none). `not` is handled by binExpr
// (prefix at level 3, or the first word of `not in`).
func (p *parser) binaryOp(t token) (string, int) {
	switch t.kind {
	case tkIdent:
		switch t.val {
		case "or":
			return "or", 1
		case "and":
			return "and", 2
		case "in":
			return "in", 4
		case "not":
			// after an operand, minijinja's comparison level reads `not` as the start of `not in`
			// (and wants `in` next: "unexpected …, expected in")
			return "not in", 4
		}
	case tkOp:
		switch t.val {
		case "==", "!=", "<", "<=", ">", ">=":
			return t.val, 4
		case "+", "-":
			return t.val, 5
		case "~":
			return "~", 6
		case "*", "/", "//", "%":
			return t.val, 7
		case "**":
			return "**", 8
		}
	}
	return "", 0
}

// orExpr parses a full operator expression (without the trailing `if … else …`).
func (p *parser) orExpr() (Expr, error) { return p.binExpr(1) }

// binExpr is precedence climbing over minijinja's levels: or 1, and 2, not 3 (prefix), comparisons
// and `in` 4, + - 5, ~ 6, * / // % 7, ** 8; all left-associative.
func (p *parser) binExpr(minPrec int) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func(chain int) { p.depth--; p.chain = chain }(p.chain)
	var left Expr
	if minPrec <= 3 && p.isKeyword("not") {
		t, _ := p.next()
		operand, err := p.binExpr(3)
		if err != nil {
			return nil, err
		}
		left = &Unary{R: Range{Start: t.r.Start, End: operand.Span().End}, Op: "not", Expr: operand}
	} else {
		var err error
		if left, err = p.unary(); err != nil {
			return nil, err
		}
	}
	comparedHere := false // left is a comparison built by this loop (not a parenthesised one)
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		op, prec := p.binaryOp(t)
		if prec == 0 || prec < minPrec {
			return left, nil
		}
		if err := p.link(); err != nil {
			return nil, err
		}
		p.next()
		if op == "not in" {
			in, err := p.next() // the `in` after `not`
			if err != nil {
				return nil, err
			}
			if in.kind != tkIdent || in.val != "in" {
				return nil, p.unexpected(in, "in")
			}
		}
		right, err := p.binExpr(prec + 1)
		if err != nil {
			return nil, err
		}
		chained := prec == 4 && comparedHere
		comparedHere = prec == 4
		left = &Binary{R: Range{Start: left.Span().Start, End: right.Span().End}, Op: op, Left: left, Right: right, Chained: chained}
	}
}

// unary is a negation or primary with its attributes, subscripts, calls, filters and tests (the
// recursion is counted in negation).
func (p *parser) unary() (Expr, error) {
	e, err := p.negation()
	if err != nil {
		return nil, err
	}
	if e, err = p.postfix(e); err != nil {
		return nil, err
	}
	return p.filterChain(e)
}

// negation is `-`… before a primary: minijinja's minus binds tighter than attributes, calls and filters
// (`-x.y` is `(-x).y`, `-1|abs` is 1), and there is no unary `+`.
func (p *parser) negation() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind != tkOp || t.val != "-" {
		return p.primary()
	}
	p.next()
	e, err := p.negation()
	if err != nil {
		return nil, err
	}
	return &Unary{R: Range{Start: t.r.Start, End: e.Span().End}, Op: t.val, Expr: e}, nil
}

// args parses call arguments after `(` through `)` and returns the end offset. minijinja's splats: `*xs` is
// a Unary `*` among the positional arguments, `**m` a keyword argument without a name.
func (p *parser) args(args *[]Expr, kwargs *[]Kwarg) (int, error) {
	for {
		t, err := p.peek()
		if err != nil {
			return 0, err
		}
		if t.kind == tkOp && t.val == ")" {
			p.next()
			return t.r.End, nil
		}
		if len(*args)+len(*kwargs) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return 0, err
			}
			if p.isOp(")") {
				t, _ := p.next()
				return t.r.End, nil
			}
		}
		t, err = p.peek()
		if err != nil {
			return 0, err
		}
		if t.kind == tkOp && (t.val == "*" || t.val == "**") {
			p.next()
			v, err := p.expr()
			if err != nil {
				return 0, err
			}
			if t.val == "**" {
				*kwargs = append(*kwargs, Kwarg{Value: v})
			} else {
				*args = append(*args, &Unary{R: Range{Start: t.r.Start, End: v.Span().End}, Op: "*", Expr: v})
			}
			continue
		}
		if t.kind == tkIdent && p.nextIsAssign() {
			p.next()
			p.next()           // '='
			v, err := p.expr() // a keyword's value may end in an inline `if` (minijinja 2.24)
			if err != nil {
				return 0, err
			}
			*kwargs = append(*kwargs, Kwarg{Name: t.val, Value: v})
			continue
		}
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		if len(*kwargs) > 0 {
			return 0, &SyntaxError{R: v.Span(), Msg: "non-keyword arg after keyword arg"}
		}
		*args = append(*args, v)
	}
}

// nextIsAssign reports whether the peeked identifier is followed by a single `=`.
func (p *parser) nextIsAssign() bool {
	rest := p.lx.src[p.lx.pos:]
	i := skipSpaces(rest, 0)
	return i < len(rest) && rest[i] == '=' && (i+1 >= len(rest) || rest[i+1] != '=')
}

func (p *parser) postfix(e Expr) (Expr, error) {
	defer func(chain int) { p.chain = chain }(p.chain)
	for {
		if err := p.link(); err != nil {
			return nil, err
		}
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind != tkOp {
			return e, nil
		}
		switch t.val {
		case ".":
			p.next()
			n, err := p.next()
			if err != nil {
				return nil, err
			}
			switch n.kind {
			case tkIdent:
				e = &GetAttr{R: Range{Start: e.Span().Start, End: n.r.End}, Expr: e, Name: n.val, NameRange: n.r}
			case tkInt:
				// minijinja reads `x.1` as `x[1]`
				idx, err := parseInt(n)
				if err != nil {
					return nil, err
				}
				e = &GetItem{R: Range{Start: e.Span().Start, End: n.r.End}, Expr: e, Index: &Const{R: n.r, Value: idx}}
			default:
				return nil, p.unexpected(n, "identifier or integer")
			}
		case "[":
			p.next()
			e2, err := p.subscript(e)
			if err != nil {
				return nil, err
			}
			e = e2
		case "(":
			p.next()
			c := &Call{Callee: e}
			end, err := p.args(&c.Args, &c.Kwargs)
			if err != nil {
				return nil, err
			}
			c.R = Range{Start: e.Span().Start, End: end}
			e = c
		default:
			return e, nil
		}
	}
}

func (p *parser) subscript(base Expr) (Expr, error) {
	var parts [3]Expr
	idx, isSlice := 0, false
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tkOp && t.val == "]" {
			p.next()
			r := Range{Start: base.Span().Start, End: t.r.End}
			if isSlice {
				return &Slice{R: r, Expr: base, Start: parts[0], Stop: parts[1], Step: parts[2]}, nil
			}
			if parts[0] == nil {
				return nil, p.notExpression(t) // `x[]`: minijinja parses an expression at `]`
			}
			return &GetItem{R: r, Expr: base, Index: parts[0]}, nil
		}
		if t.kind == tkOp && t.val == ":" {
			p.next()
			isSlice = true
			if idx++; idx > 2 {
				return nil, p.unexpected(t, "`]`")
			}
			continue
		}
		if parts[idx] != nil {
			return nil, p.unexpected(t, "`]`")
		}
		if parts[idx], err = p.expr(); err != nil {
			return nil, err
		}
	}
}

func (p *parser) primary() (Expr, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	switch t.kind {
	case tkIdent:
		switch t.val {
		case "true", "True":
			return &Const{R: t.r, Value: BoolValue(true)}, nil
		case "false", "False":
			return &Const{R: t.r, Value: BoolValue(false)}, nil
		case "none", "None":
			return &Const{R: t.r, Value: NoneValue()}, nil
		}
		return &Name{R: t.r, Name: t.val}, nil
	case tkString:
		var s strings.Builder
		s.WriteString(t.val)
		r := t.r
		for first := true; ; first = false {
			nt, err := p.peek()
			var se *SyntaxError
			if err != nil && first && errors.As(err, &se) && p.eofAt == 0 && !strings.Contains(p.lx.src[t.r.Start:t.r.End], `\`) {
				// minijinja's first look for an adjacent string drops its error: a lexing error right
				// after a lone string literal leaves its parser at the end of the input (after two
				// strings, or after a literal with an escape, which minijinja reads on another path,
				// the error stands)
				p.eofAt = max(se.R.Start, 1)
				p.lexErr = nil
				break
			}
			if err != nil || nt.kind != tkString {
				break
			}
			p.next()
			s.WriteString(nt.val)
			r.End = nt.r.End
		}
		return &Const{R: r, Value: StringValue(s.String())}, nil
	case tkInt:
		v, err := parseInt(t)
		if err != nil {
			return nil, err
		}
		return &Const{R: t.r, Value: v}, nil
	case tkFloat:
		f, err := strconv.ParseFloat(t.val, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) { // Rust reads 1e400 as inf, 1e-400 as 0.0
			return nil, &SyntaxError{R: t.r, Msg: "invalid float"}
		}
		return &Const{R: t.r, Value: FloatValue(f)}, nil
	case tkOp:
		switch t.val {
		case "(":
			return p.parenthesized(t)
		case "[":
			l := &List{}
			end, err := p.sequence("]", &l.Items)
			if err != nil {
				return nil, err
			}
			l.R = Range{Start: t.r.Start, End: end}
			return l, nil
		case "{":
			return p.dict(t)
		}
	}
	return nil, p.notExpression(t)
}

// notExpression is minijinja's error for a token that cannot start an expression: only the end of the
// input says what was expected.
func (p *parser) notExpression(t token) error {
	if t.kind == tkEOF {
		return p.unexpected(t, "expression")
	}
	return &SyntaxError{R: t.r, Msg: "unexpected " + t.describe()}
}

func (p *parser) parenthesized(open token) (Expr, error) {
	if p.isOp(")") {
		c, _ := p.next()
		return &Tuple{R: Range{Start: open.r.Start, End: c.r.End}}, nil
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.isOp(")") {
		p.next()
		return e, nil
	}
	if !p.isOp(",") {
		// minijinja: an expression in parentheses is a tuple only from its comma on
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		return nil, p.unexpected(t, "`)`")
	}
	items := []Expr{e}
	end, err := p.sequenceAfterFirst(")", &items)
	if err != nil {
		return nil, err
	}
	return &Tuple{R: Range{Start: open.r.Start, End: end}, Items: items}, nil
}

func (p *parser) sequence(closer string, items *[]Expr) (int, error) {
	if p.isOp(closer) {
		t, _ := p.next()
		return t.r.End, nil
	}
	e, err := p.expr()
	if err != nil {
		return 0, err
	}
	*items = append(*items, e)
	return p.sequenceAfterFirst(closer, items)
}

func (p *parser) sequenceAfterFirst(closer string, items *[]Expr) (int, error) {
	for {
		t, err := p.next()
		if err != nil {
			return 0, err
		}
		if t.kind == tkOp && t.val == closer {
			return t.r.End, nil
		}
		if t.kind != tkOp || t.val != "," {
			return 0, p.unexpected(t, "`,`") // minijinja's list, tuple and map loops expect the comma
		}
		if p.isOp(closer) {
			t, _ := p.next()
			return t.r.End, nil
		}
		e, err := p.expr()
		if err != nil {
			return 0, err
		}
		*items = append(*items, e)
	}
}

func (p *parser) dict(open token) (Expr, error) {
	d := &Dict{}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tkOp && t.val == "}" {
			p.next()
			d.R = Range{Start: open.r.Start, End: t.r.End}
			return d, nil
		}
		if len(d.Keys) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
			if p.isOp("}") {
				continue
			}
		}
		k, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expectOp(":"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		d.Keys, d.Values = append(d.Keys, k), append(d.Values, v)
	}
}

// filterCall reads a filter's name and optional arguments after `|` (or first in a filter block), applied
// to e (nil in a filter block); its range runs from e's start (else the name) to the last token.
func (p *parser) filterCall(e Expr) (*Filter, error) {
	name, err := p.next()
	if err != nil {
		return nil, err
	}
	if name.kind != tkIdent {
		return nil, p.unexpected(name, "identifier")
	}
	if name, err = p.dottedName(name); err != nil {
		return nil, err
	}
	f := &Filter{Expr: e, Name: name.val, NameRange: name.r, R: name.r}
	if e != nil {
		f.R.Start = e.Span().Start
	}
	if p.isOp("(") {
		p.next()
		end, err := p.args(&f.Args, &f.Kwargs)
		if err != nil {
			return nil, err
		}
		f.R.End = end
	}
	return f, nil
}
