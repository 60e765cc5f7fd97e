// Statement parsers: if, for, set, with, block, import/from.

package template

import "fmt"

func (p *parser) ifStmt(start int) (Stmt, error) {
	cond, err := p.orExpr() // minijinja reads the condition without an inline `if`
	if err != nil {
		return nil, err
	}
	if _, err := p.expectBlockEnd(); err != nil {
		return nil, err
	}
	then, end, err := p.subparse([]string{"elif", "else", "endif"})
	if err != nil {
		return nil, err
	}
	st := &If{Cond: cond, Then: then}
	switch end {
	case "elif":
		defer func(chain int) { p.chain = chain }(p.chain)
		if err := p.link(); err != nil {
			return nil, err
		}
		elifStart := p.lx.tagStart
		inner, err := p.ifStmt(elifStart)
		if err != nil {
			return nil, err
		}
		st.Else = []Stmt{inner}
		st.R = Range{Start: start, End: inner.Span().End}
		return st, nil
	case "else":
		if st.Else, st.R, err = p.blockBody(start, "endif"); err != nil {
			return nil, err
		}
		return st, nil
	}
	t, err := p.expectBlockEnd()
	if err != nil {
		return nil, err
	}
	st.R = Range{Start: start, End: t.r.End}
	return st, nil
}

func (p *parser) forStmt(start int) (Stmt, error) {
	target, err := p.assignTarget(false)
	if err != nil {
		return nil, err
	}
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tkIdent || t.val != "in" {
		return nil, p.unexpected(t, "in")
	}
	iter, err := p.orExpr()
	if err != nil {
		return nil, err
	}
	st := &For{Target: target, Iter: iter}
	if p.isKeyword("if") {
		p.next()
		// minijinja reads the loop filter as a full expression (an inline `if` included)
		if st.Filter, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.isKeyword("recursive") {
		p.next()
		st.Recursive = true
	}
	if _, err := p.expectBlockEnd(); err != nil {
		return nil, err
	}
	body, end, err := p.subparse([]string{"else", "endfor"})
	if err != nil {
		return nil, err
	}
	st.Body = body
	if end == "else" {
		if st.Else, st.R, err = p.blockBody(start, "endfor"); err != nil {
			return nil, err
		}
		return st, nil
	}
	t, err = p.expectBlockEnd()
	if err != nil {
		return nil, err
	}
	st.R = Range{Start: start, End: t.r.End}
	return st, nil
}

// assignTarget parses an assignment target as minijinja's parse_assignment does: names (dotted ones
// when dotted: `ns.attr`), parenthesised targets, separated by commas (a trailing one too); it may be
// empty (`{% for in x %}`, `{% set %}`), which minijinja accepts.
func (p *parser) assignTarget(dotted bool) (Expr, error) {
	var items []Expr
	tuple := false
	start := -1
	for {
		if len(items) > 0 {
			if _, err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if start < 0 {
			start = t.r.Start
		}
		if (t.kind == tkOp && t.val == ")") || t.kind == tkVarEnd || t.kind == tkBlockEnd || (t.kind == tkIdent && t.val == "in") {
			break
		}
		var item Expr
		if t.kind == tkOp && t.val == "(" {
			p.next()
			if item, err = p.assignTarget(dotted); err != nil {
				return nil, err
			}
			if _, err := p.expectOp(")"); err != nil {
				return nil, err
			}
		} else if item, err = p.assignName(dotted); err != nil {
			return nil, err
		}
		items = append(items, item)
		if !p.isOp(",") {
			break
		}
		tuple = true
	}
	if !tuple && len(items) == 1 {
		return items[0], nil
	}
	r := Range{Start: start, End: start}
	if len(items) > 0 {
		r.End = items[len(items)-1].Span().End
	}
	return &Tuple{R: r, Items: items}, nil
}

// assignName is one name of a target (with `.attr` parts when dotted).
func (p *parser) assignName(dotted bool) (Expr, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tkIdent {
		return nil, p.unexpected(t, "identifier")
	}
	if err := reservedName(t); err != nil {
		return nil, err
	}
	var e Expr = &Name{R: t.r, Name: t.val}
	for dotted && p.isOp(".") {
		p.next()
		a, err := p.next()
		if err != nil {
			return nil, err
		}
		if a.kind != tkIdent {
			return nil, p.unexpected(a, "identifier")
		}
		e = &GetAttr{R: Range{Start: e.Span().Start, End: a.r.End}, Expr: e, Name: a.val, NameRange: a.r}
	}
	return e, nil
}

// expectNamed is expectOp with minijinja's name for what was expected ("comma", "assignment operator").
func (p *parser) expectNamed(op, name string) (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != tkOp || t.val != op {
		return t, p.unexpected(t, name)
	}
	return t, nil
}

// reservedName refuses the names minijinja's parser will not assign to.
func reservedName(t token) error {
	switch t.val {
	case "true", "True", "false", "False", "none", "None", "loop", "self":
		return &SyntaxError{R: t.r, Msg: "cannot assign to reserved variable name " + t.val}
	}
	return nil
}

// blockFilters parses the filters of `{% filter f | g %}` and `{% set x | f %}` as minijinja does:
// filter calls joined by `|` up to the end of the tag, at least one.
func (p *parser) blockFilters() (Expr, error) {
	defer func(chain int) { p.chain = chain }(p.chain)
	var e Expr
	for {
		if err := p.link(); err != nil {
			return nil, err
		}
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tkBlockEnd {
			if e == nil {
				return nil, &SyntaxError{R: t.r, Msg: "expected a filter"}
			}
			return e, nil
		}
		if e != nil {
			if _, err := p.expectOp("|"); err != nil {
				return nil, err
			}
		}
		f, err := p.filterCall(e)
		if err != nil {
			return nil, err
		}
		e = f
	}
}

func (p *parser) setStmt(start int) (Stmt, error) {
	target, err := p.assignTarget(true)
	if err != nil {
		return nil, err
	}
	if t, err := p.peek(); err != nil {
		return nil, err
	} else if t.kind != tkBlockEnd && !(t.kind == tkOp && t.val == "|") {
		if _, err := p.expectNamed("=", "assignment operator"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.isOp(",") {
			// `{% set x = 1, 2 %}`: the values as one sequence
			items := []Expr{v}
			for p.isOp(",") {
				p.next()
				if t, err := p.peek(); err != nil {
					return nil, err
				} else if t.kind == tkBlockEnd {
					break
				}
				it, err := p.expr()
				if err != nil {
					return nil, err
				}
				items = append(items, it)
			}
			v = &Tuple{R: Range{Start: items[0].Span().Start, End: items[len(items)-1].Span().End}, Items: items}
		}
		t, err := p.expectBlockEnd()
		if err != nil {
			return nil, err
		}
		return &Set{R: Range{Start: start, End: t.r.End}, Target: target, Value: v}, nil
	}
	st := &SetBlock{Target: target}
	if p.isOp("|") {
		p.next()
		if st.Filter, err = p.blockFilters(); err != nil {
			return nil, err
		}
	}
	if st.Body, st.R, err = p.blockBody(start, "endset"); err != nil {
		return nil, err
	}
	return st, nil
}

func (p *parser) withStmt(start int) (Stmt, error) {
	st := &With{}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tkBlockEnd {
			break
		}
		if len(st.Targets) > 0 {
			if _, err := p.expectNamed(",", "comma"); err != nil {
				return nil, err
			}
		}
		var target Expr
		if p.isOp("(") {
			p.next()
			if target, err = p.assignTarget(false); err != nil {
				return nil, err
			}
			if _, err := p.expectOp(")"); err != nil {
				return nil, err
			}
		} else if target, err = p.assignName(false); err != nil {
			return nil, err
		}
		if _, err := p.expectNamed("=", "assignment operator"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		st.Targets = append(st.Targets, target)
		st.Values = append(st.Values, v)
	}
	var err error
	if st.Body, st.R, err = p.blockBody(start, "endwith"); err != nil {
		return nil, err
	}
	return st, nil
}

func (p *parser) blockStmt(start int) (Stmt, error) {
	name, err := p.next()
	if err != nil {
		return nil, err
	}
	if name.kind != tkIdent {
		return nil, p.unexpected(name, "identifier")
	}
	if _, ok := p.blocks[name.val]; ok {
		return nil, &SyntaxError{R: name.r, Msg: fmt.Sprintf("block '%s' defined twice", name.val)}
	}
	if _, err := p.expectBlockEnd(); err != nil {
		return nil, err
	}
	// the name is taken from here on, so a block of the same name inside this one is "defined twice"
	// (else rendering one would render the other, and itself, forever)
	b := &Block{Name: name.val, NameRange: name.r}
	p.blocks[name.val] = b
	body, _, err := p.subparse([]string{"endblock"})
	if err != nil {
		delete(p.blocks, name.val)
		return nil, err
	}
	if t, _ := p.peek(); t.kind == tkIdent {
		p.next()
		if t.val != name.val {
			return nil, &SyntaxError{R: t.r, Msg: fmt.Sprintf("mismatching name on block. Got `%s`, expected `%s`", t.val, name.val)}
		}
	}
	t, err := p.expectBlockEnd()
	if err != nil {
		return nil, err
	}
	b.R, b.Body = Range{Start: start, End: t.r.End}, body
	return b, nil
}

func (p *parser) doStmt(start int) (Stmt, error) {
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	call, ok := e.(*Call)
	if !ok {
		return nil, &SyntaxError{R: e.Span(), Msg: "expected call expression in call block, got " + describeExpr(e)}
	}
	t, err := p.expectBlockEnd()
	if err != nil {
		return nil, err
	}
	return &Do{R: Range{Start: start, End: t.r.End}, Call: call}, nil
}

// describeExpr names an expression's kind as minijinja's errors do.
func describeExpr(e Expr) string {
	switch e.(type) {
	case *Name:
		return "variable"
	case *Const:
		return "constant"
	case *List, *Tuple:
		return "list literal"
	case *Dict:
		return "map literal"
	case *Filter:
		return "filter expression"
	case *Test:
		return "test expression"
	}
	return "expression"
}

// fromImportDone: a context marker (skipped) or the end of the tag ends `from … import` names.
func (p *parser) fromImportDone() (bool, error) {
	if skipped, err := p.skipContextMarker(); skipped || err != nil {
		return skipped, err
	}
	t, err := p.peek()
	if err != nil {
		return false, err
	}
	return t.kind == tkBlockEnd, nil
}

func (p *parser) importStmt(start int, kw string) (Stmt, error) {
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	st := &Import{Name: e}
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if kw == "import" {
		if t.kind != tkIdent || t.val != "as" {
			return nil, p.unexpected(t, "as")
		}
		n, err := p.next()
		if err != nil {
			return nil, err
		}
		if n.kind != tkIdent {
			return nil, p.unexpected(n, "identifier")
		}
		st.Names = append(st.Names, &Name{R: n.r, Name: n.val})
		if _, err := p.skipContextMarker(); err != nil {
			return nil, err
		}
	} else {
		if t.kind != tkIdent || t.val != "import" {
			return nil, p.unexpected(t, "import")
		}
		// minijinja's loop: a context marker or the end of the tag ends the names (a trailing comma too)
		for {
			if done, err := p.fromImportDone(); done || err != nil {
				if err != nil {
					return nil, err
				}
				break
			}
			if len(st.Names) > 0 {
				c, err := p.next()
				if err != nil {
					return nil, err
				}
				if c.kind != tkOp || c.val != "," {
					return nil, p.unexpected(c, "`,`")
				}
			}
			if done, err := p.fromImportDone(); done || err != nil {
				if err != nil {
					return nil, err
				}
				break
			}
			n, err := p.next()
			if err != nil {
				return nil, err
			}
			if n.kind != tkIdent {
				return nil, p.unexpected(n, "identifier")
			}
			if err := reservedName(n); err != nil {
				return nil, err
			}
			bound := &Name{R: n.r, Name: n.val}
			st.From = append(st.From, n.val)
			if p.isKeyword("as") {
				p.next()
				a, err := p.next()
				if err != nil {
					return nil, err
				}
				if a.kind != tkIdent {
					return nil, p.unexpected(a, "identifier")
				}
				if err := reservedName(a); err != nil {
					return nil, err
				}
				bound = &Name{R: a.r, Name: a.val}
			}
			st.Names = append(st.Names, bound)
		}
	}
	end, err := p.expectBlockEnd()
	if err != nil {
		return nil, err
	}
	st.R = Range{Start: start, End: end.r.End}
	return st, nil
}
