// minijinja's constant folding of `and` (its codegen's as_const): which expressions fold, and to what.

package template

// foldAnd is minijinja's constant folding of `a and b` with constant operands (its codegen loads the
// folded value): a false result is `false`, not the left operand as at run time.
func (ec *evalCtx) foldAnd(e *Binary) (Value, bool) {
	l, err := ec.eval(e.Left)
	if err != nil {
		return Value{}, false
	}
	r, err := ec.eval(e.Right)
	if err != nil {
		return Value{}, false
	}
	if l.Truthy() && r.Truthy() {
		return r, true
	}
	return BoolValue(false), true
}

// isConstExpr reports whether minijinja's as_const folds e: literals, lists and maps of literals (only:
// `[-1]` and `[[1]]` are not folded), unary and binary operations of foldable operands.
func isConstExpr(e Expr) bool {
	switch x := e.(type) {
	case *Const:
		return true
	case *List:
		return allLiteral(x.Items)
	case *Tuple:
		return allLiteral(x.Items)
	case *Dict:
		return allLiteral(x.Keys) && allLiteral(x.Values)
	case *Unary:
		return isConstExpr(x.Expr)
	case *Binary:
		return isConstExpr(x.Left) && isConstExpr(x.Right)
	}
	return false
}

func allLiteral(items []Expr) bool {
	for _, it := range items {
		if _, ok := it.(*Const); !ok {
			return false
		}
	}
	return true
}
