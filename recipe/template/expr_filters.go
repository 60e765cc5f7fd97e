// Parsing of filter and test suffixes (`x | f(args)`, `x is [not] test arg`), as minijinja's parser reads them.

package template

// filterChain parses `| f(args)` and `is test` suffixes; with base nil it parses a bare filter chain.
func (p *parser) filterChain(base Expr) (Expr, error) {
	defer func(chain int) { p.chain = chain }(p.chain)
	e := base
	first := base == nil
	for {
		if err := p.link(); err != nil {
			return nil, err
		}
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		switch {
		case first || (t.kind == tkOp && t.val == "|"):
			if !first {
				p.next()
			}
			first = false
			f, err := p.filterCall(e)
			if err != nil {
				return nil, err
			}
			e = f
		case t.kind == tkIdent && t.val == "is" && e != nil:
			p.next()
			tt := &Test{Expr: e}
			name, err := p.next()
			if err != nil {
				return nil, err
			}
			if name.kind == tkIdent && name.val == "not" {
				tt.Negated = true
				if name, err = p.next(); err != nil {
					return nil, err
				}
			}
			if name.kind != tkIdent {
				return nil, p.unexpected(name, "identifier")
			}
			if name, err = p.dottedName(name); err != nil {
				return nil, err
			}
			tt.Name, tt.NameRange = name.val, name.r
			tt.R = Range{Start: e.Span().Start, End: name.r.End}
			nt, err := p.peek()
			if err != nil {
				return nil, err
			}
			switch {
			case nt.kind == tkOp && nt.val == "(":
				p.next()
				end, err := p.args(&tt.Args, &tt.Kwargs)
				if err != nil {
					return nil, err
				}
				tt.R.End = end
			// minijinja reads a test's bare argument at these tokens (only `and`, `or`, `else` and `is`
			// end the test: `x is d if f` passes a variable named `if`)
			case nt.kind == tkString || nt.kind == tkInt || nt.kind == tkFloat ||
				(nt.kind == tkOp && (nt.val == "+" || nt.val == "-" || nt.val == "[" || nt.val == "{")) ||
				(nt.kind == tkIdent && nt.val != "and" && nt.val != "or" && nt.val != "else" && nt.val != "is"):
				arg, err := p.negation() // minijinja's parse_unary_only: a minus, then a primary
				if err != nil {
					return nil, err
				}
				if arg, err = p.postfix(arg); err != nil {
					return nil, err
				}
				tt.Args = []Expr{arg}
				tt.R.End = arg.Span().End
			}
			e = tt
		default:
			return e, nil
		}
	}
}
