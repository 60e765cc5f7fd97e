// Expression evaluation: attribute and item access, calls, operators, filters and tests.

package template

import (
	"math"
	"math/big"
	"strings"
)

func (ec *evalCtx) eval(e Expr) (Value, error) {
	if err := ec.step(e.Span()); err != nil {
		return Value{}, err
	}
	switch e := e.(type) {
	case *Name:
		return ec.valid(e.R, ec.lookup(e.Name), nil)
	case *Const:
		return e.Value, nil
	case *List:
		return ec.evalSeq(e.R, e.Items)
	case *Tuple:
		return ec.evalSeq(e.R, e.Items)
	case *Dict:
		m := NewMap()
		for i, k := range e.Keys {
			kv, err := ec.eval(k)
			if err != nil {
				return Value{}, err
			}
			vv, err := ec.eval(e.Values[i])
			if err != nil {
				return Value{}, err
			}
			m.SetKey(kv, vv)
		}
		m.sortKeys()
		return ec.fitsValue(e.R, MapValue(m))
	case *GetAttr:
		obj, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		v, err := ec.getAttr(e.R, obj, StringValue(e.Name))
		return ec.valid(e.R, v, err)
	case *GetItem:
		obj, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		idx, err := ec.eval(e.Index)
		if err != nil {
			return Value{}, err
		}
		v, err := ec.getAttr(e.R, obj, idx)
		return ec.valid(e.R, v, err)
	case *Slice:
		return ec.slice(e)
	case *Call:
		return ec.call(e)
	case *Filter:
		var v Value
		if e.Expr != nil {
			var err error
			if v, err = ec.eval(e.Expr); err != nil {
				return Value{}, err
			}
		}
		return ec.applyFilter(e, v)
	case *Test:
		v, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		ok, err := ec.applyTest(e, v)
		return BoolValue(ok != e.Negated), err
	case *Unary:
		v, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		switch e.Op {
		case "not":
			if ec.strictUndefined(v) {
				return Value{}, ec.fail(e.Expr.Span(), "undefined value")
			}
			return BoolValue(!v.Truthy()), nil
		case "-":
			switch v.kind {
			case KindInt:
				if v.wide == nil && v.i != math.MinInt64 {
					return IntValue(-v.i), nil
				}
				// minijinja negates in i128
				if n := new(big.Int).Neg(v.bigOf()); fitsI128(v.bigOf()) && fitsI128(n) {
					return wideValue(n), nil
				}
				return Value{}, ec.fail(e.R, "invalid operation: overflow")
			case KindFloat:
				return FloatValue(-v.f), nil
			}
		}
		return Value{}, ec.fail(e.R, "invalid operation") // minijinja's negation gives no detail
	case *Binary:
		return ec.binary(e)
	case *CondExpr:
		ok, err := ec.truthy(e.Cond)
		if err != nil {
			return Value{}, err
		}
		if ok {
			return ec.eval(e.True)
		}
		if e.False == nil {
			// minijinja's silent undefined: lenient even in strict mode (`{{ x if false }}` prints nothing)
			return Value{kind: KindUndefined, safe: true}, nil
		}
		return ec.eval(e.False)
	}
	return Undefined(), nil
}

func (ec *evalCtx) evalSeq(r Range, items []Expr) (Value, error) {
	out := make([]Value, len(items))
	for i, it := range items {
		v, err := ec.eval(it)
		if err != nil {
			return Value{}, err
		}
		out[i] = v
	}
	return ec.fitsValue(r, SeqValue(out))
}

// getAttr implements both `a.b` and `a[b]`: attribute access on undefined or none fails.
func (ec *evalCtx) getAttr(r Range, obj, key Value) (Value, error) {
	switch obj.kind {
	case KindUndefined:
		return Value{}, ec.fail(r, "undefined value")
	case KindNone:
		return Undefined(), nil // minijinja: an attribute of none is undefined
	case KindMap:
		if v, ok := obj.m.Get(mapKey(key)); ok {
			return v, nil
		}
	case KindSeq:
		if obj.m != nil && key.kind == KindString {
			if v, ok := obj.m.Get(key.s); ok {
				return v, nil // a groupby pair's `.grouper` / `.list`
			}
		}
		key = indexKey(key)
		if key.kind == KindInt {
			i := int(key.i)
			if i < 0 {
				i += len(obj.seq)
			}
			if i >= 0 && i < len(obj.seq) {
				return obj.seq[i], nil
			}
		}
	case KindString:
		key = indexKey(key)
		if key.kind == KindInt {
			if err := ec.work(r, len(obj.s)/16); err != nil {
				return Value{}, err
			}
			rs := []rune(obj.s)
			i := int(key.i)
			if i < 0 {
				i += len(rs)
			}
			if i >= 0 && i < len(rs) {
				return StringValue(string(rs[i])), nil
			}
		}
	}
	return Undefined(), nil
}

// indexKey is an index as minijinja converts one for a sequence or a string: a bool is 0 or 1, an
// integral float its integer.
func indexKey(key Value) Value {
	switch {
	case key.kind == KindBool:
		return IntValue(key.asInt())
	case key.kind == KindFloat && key.f == math.Trunc(key.f) && math.Abs(key.f) < 1<<53:
		return IntValue(int64(key.f))
	}
	return key
}

// sliceIndex converts a slice bound as minijinja's i64 conversion does.
func (ec *evalCtx) sliceIndex(r Range, v Value) (int, error) {
	switch v.kind {
	case KindInt:
		return int(v.i), nil
	case KindBool:
		if v.b {
			return 1, nil
		}
		return 0, nil
	case KindFloat:
		if f := v.f; f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
			return int(f), nil
		}
		return 0, ec.fail(r, "invalid operation: cannot convert number to i64")
	}
	return 0, ec.fail(r, "invalid operation: cannot convert %s to i64", v.typeName())
}

func (ec *evalCtx) slice(e *Slice) (Value, error) {
	obj, err := ec.eval(e.Expr)
	if err != nil {
		return Value{}, err
	}
	// minijinja evaluates start, stop and step in order, then converts each (none or absent: the
	// default), then looks at the step and at what is sliced
	var bounds [3]Value
	given := [3]bool{}
	for i, x := range [3]Expr{e.Start, e.Stop, e.Step} {
		if x == nil {
			continue
		}
		if bounds[i], err = ec.eval(x); err != nil {
			return Value{}, err
		}
		given[i] = bounds[i].kind != KindNone
	}
	if obj.kind == KindUndefined && ec.opts.Undefined == Strict {
		// minijinja's strict check of what is sliced comes before the bounds are converted; it takes the
		// silent undefined of an if without else too, as attribute and item access do
		return Value{}, ec.fail(e.R, "undefined value")
	}
	var idx [3]int
	for i := range bounds {
		if given[i] {
			if idx[i], err = ec.sliceIndex(e.R, bounds[i]); err != nil {
				return Value{}, err
			}
		}
	}
	step := 1
	if given[2] {
		step = idx[2]
	}
	if step == 0 {
		return Value{}, ec.fail(e.R, "invalid operation: cannot slice by step size of 0")
	}
	var items []Value
	isStr := obj.kind == KindString
	if err := ec.work(e.R, obj.byteSize()/16); err != nil {
		return Value{}, err
	}
	switch obj.kind {
	case KindSeq:
		items = obj.seq
	case KindString:
		for _, r := range obj.s {
			items = append(items, StringValue(string(r)))
		}
	case KindUndefined:
		if ec.strictUndefined(obj) {
			return Value{}, ec.fail(e.R, "undefined value")
		}
		return SeqValue(nil), nil // lenient: undefined slices as none does, to an empty sequence
	case KindNone:
		return SeqValue(nil), nil
	default:
		return Value{}, ec.fail(e.R, "invalid operation: value of type %s cannot be sliced", obj.typeName())
	}
	n := len(items)
	start, stop := 0, n
	if given[0] {
		start = idx[0]
	}
	if given[1] {
		stop = idx[1]
	}
	norm := func(i int) int {
		if i < 0 {
			i += n
		}
		return max(0, min(i, n))
	}
	var out []Value
	if step > 0 {
		for i := norm(start); i < norm(stop); i += step {
			out = append(out, items[i])
		}
	} else {
		s := n - 1
		if given[0] {
			s = min(norm(start), n-1)
		}
		stopAt := -1
		if given[1] {
			stopAt = norm(stop)
		}
		for i := s; i > stopAt; i += step {
			out = append(out, items[i])
		}
	}
	if isStr {
		var b strings.Builder
		for _, v := range out {
			b.WriteString(v.s)
		}
		return StringValue(b.String()), nil
	}
	return ec.fitsValue(e.R, SeqValue(out))
}

func (ec *evalCtx) call(e *Call) (Value, error) {
	if cur, ok := ec.callsLoop(e); ok {
		return ec.recurseLoop(e, cur)
	}
	if ga, ok := e.Callee.(*GetAttr); ok {
		if n, ok := ga.Expr.(*Name); ok && n.Name == "self" {
			return ec.selfBlock(e.R, ga.Name)
		}
	}
	callee, err := ec.callee(e)
	if err != nil {
		return Value{}, err
	}
	if callee.kind != KindFunc {
		// minijinja evaluates the arguments before it finds out that there is nothing to call
		if _, _, err := ec.evalArgs(e.Args, e.Kwargs); err != nil {
			return Value{}, err
		}
		if n, ok := e.Callee.(*Name); ok && callee.kind == KindUndefined && !ec.bound(n.Name) {
			if n.Name == "super" {
				return Value{}, ec.fail(e.R, "invalid operation: cannot super outside of block")
			}
			return Value{}, ec.fail(e.R, "unknown function: %s is unknown", n.Name)
		}
		if callee.kind == KindSeq || callee.kind == KindMap {
			// minijinja's objects (lists, maps, iterators) refuse a call with their own words
			return Value{}, ec.fail(e.R, "invalid operation: object is not callable")
		}
		return Value{}, ec.fail(e.R, "invalid operation: value of type %s is not callable", callee.typeName())
	}
	args, kwargs, err := ec.evalArgs(e.Args, e.Kwargs)
	if err != nil {
		return Value{}, err
	}
	v, err := callee.fn(ec, args, kwargs)
	if err != nil {
		if _, ok := err.(*RuntimeError); !ok {
			return Value{}, ec.fail(e.R, "%s", err.Error())
		}
		return v, err
	}
	return ec.fitsValue(e.R, v)
}

// selfBlock is minijinja's `self.name()` (multi_template): the block (its most derived override) renders
// into a capture, and the call's value is that text, safe when autoescape is on as any capture
// (`{{ self.b() | upper }}` prints it upper-cased, `{% if self.b() %}` tests it); a template without the
// block fails with "unknown block".
func (ec *evalCtx) selfBlock(r Range, name string) (Value, error) {
	if ec.inh != nil && ec.inh.parent != nil {
		return StringValue(""), nil // after `{% extends %}` minijinja skips the call (its output is discarded)
	}
	if len(ec.blocks[name]) == 0 {
		return Value{}, ec.fail(r, "unknown block: block '%s' not found", name)
	}
	text, discarded, err := ec.captureFn(func() error { return ec.renderBlock(r, name, 0) })
	if err != nil || discarded {
		return Value{}, err
	}
	v := StringValue(text)
	v.safe = ec.autoescape
	return v, nil
}

// callee evaluates what a call calls. `x.name(…)` is a method call to minijinja: the value must hold an
// attribute of that name (a map's key here), else "x has no method named name".
func (ec *evalCtx) callee(e *Call) (Value, error) {
	ga, ok := e.Callee.(*GetAttr)
	if !ok {
		if n, isName := e.Callee.(*Name); isName && n.Name == "super" {
			return ec.superFunc(), nil // `super()` reaches the parent block (the name alone does not)
		}
		return ec.eval(e.Callee)
	}
	obj, err := ec.eval(ga.Expr)
	if err != nil {
		return Value{}, err
	}
	if obj.kind == KindMap {
		if v, ok := obj.m.Get(ga.Name); ok {
			return v, nil
		}
		if l := obj.m.loop; l != nil && ga.Name == "cycle" {
			return Value{kind: KindFunc, fn: l.cycle}, nil
		}
		if l := obj.m.loop; l != nil && ga.Name == "changed" {
			return Value{kind: KindFunc, fn: l.changedCall}, nil
		}
	}
	// minijinja looks the method up after it has evaluated the arguments
	if _, _, err := ec.evalArgs(e.Args, e.Kwargs); err != nil {
		return Value{}, err
	}
	return Value{}, ec.fail(e.R, "unknown method: %s has no method named %s", obj.typeName(), ga.Name)
}

func (ec *evalCtx) binary(e *Binary) (Value, error) {
	switch e.Op {
	case "and", "or":
		if e.Op == "and" && isConstExpr(e.Left) && isConstExpr(e.Right) {
			if v, ok := ec.foldAnd(e); ok {
				return v, nil
			}
		}
		l, err := ec.eval(e.Left)
		if err == nil && ec.strictUndefined(l) {
			err = ec.fail(e.Left.Span(), "undefined value")
		}
		if err != nil || l.Truthy() == (e.Op == "or") {
			return l, err
		}
		return ec.eval(e.Right)
	}
	if e.Chained {
		v, _, err := ec.compareChain(e)
		return v, err
	}
	l, err := ec.eval(e.Left)
	if err != nil {
		return Value{}, err
	}
	r, err := ec.eval(e.Right)
	if err != nil {
		return Value{}, err
	}
	return ec.binaryValues(e, l, r)
}

// compareChain evaluates a chained comparison as minijinja's CompareAndPreserve/JumpIfFalseOrPop:
// the result and the last operand (the left side of the next comparison).
func (ec *evalCtx) compareChain(e *Binary) (Value, Value, error) {
	var l Value
	var err error
	if inner, ok := e.Left.(*Binary); ok && e.Chained {
		var res Value
		if res, l, err = ec.compareChain(inner); err != nil || !res.Truthy() {
			return res, Value{}, err
		}
	} else if l, err = ec.eval(e.Left); err != nil {
		return Value{}, Value{}, err
	}
	r, err := ec.eval(e.Right)
	if err != nil {
		return Value{}, Value{}, err
	}
	v, err := ec.binaryValues(e, l, r)
	return v, r, err
}

// binaryValues applies a non-logical binary operator to evaluated operands.
func (ec *evalCtx) binaryValues(e *Binary, l, r Value) (Value, error) {
	switch e.Op {
	case "==", "!=", "<", "<=", ">", ">=", "in", "not in":
		// strict undefined fails in comparisons and containment, as minijinja's does
		if ec.strictUndefined(l) || ec.strictUndefined(r) {
			return Value{}, ec.fail(e.R, "undefined value")
		}
	}
	switch e.Op {
	case "==", "!=", "<", "<=", ">", ">=":
		if err := ec.work(e.R, min(l.byteSize(), r.byteSize())/16); err != nil {
			return Value{}, err
		}
	case "in", "not in":
		if err := ec.work(e.R, r.byteSize()/16); err != nil {
			return Value{}, err
		}
	}
	switch e.Op {
	case "==":
		return BoolValue(equal(l, r)), nil
	case "!=":
		return BoolValue(!equal(l, r)), nil
	case "<", "<=", ">", ">=":
		c, ok := compare(l, r)
		if !ok {
			return Value{}, ec.fail(e.R, "invalid operation: tried to use %s operator on unsupported types %s and %s", e.Op, l.typeName(), r.typeName())
		}
		switch e.Op {
		case "<":
			return BoolValue(c < 0), nil
		case "<=":
			return BoolValue(c <= 0), nil
		case ">":
			return BoolValue(c > 0), nil
		}
		return BoolValue(c >= 0), nil
	case "in", "not in":
		ok, err := ec.contains(e, r, l)
		return BoolValue(ok == (e.Op == "in")), err
	case "~":
		if ec.strictUndefined(l) || ec.strictUndefined(r) {
			return Value{}, ec.fail(e.R, "undefined value")
		}
		ls, err := ec.toString(e.Left.Span(), l)
		if err != nil {
			return Value{}, err
		}
		rs, err := ec.toString(e.Right.Span(), r)
		if err != nil {
			return Value{}, err
		}
		if err := ec.fits(e.R, len(ls)+len(rs)); err != nil {
			return Value{}, err
		}
		return StringValue(ls + rs), nil
	}
	return ec.arith(e, l, r)
}

// containsValue is Jinja's containment: a substring, a sequence element or a map key. isContainer is
// false for values that cannot contain anything.
func containsValue(container, item Value) (found, isContainer bool) {
	switch container.kind {
	case KindString:
		return strings.Contains(container.s, item.String()), true
	case KindSeq:
		for _, it := range container.seq {
			if equal(it, item) {
				return true, true
			}
		}
		return false, true
	case KindMap:
		_, ok := container.m.Get(mapKey(item))
		return ok, true
	case KindFunc:
		// a function is a plain object to minijinja: it holds nothing, and asking is no error
		return false, true
	}
	return false, false
}

// contains is the `in` operator: undefined contains nothing (an error in strict mode), other
// non-containers are an error.
func (ec *evalCtx) contains(e *Binary, container, item Value) (bool, error) {
	if found, ok := containsValue(container, item); ok {
		return found, nil
	}
	if container.kind == KindUndefined {
		if ec.strictUndefined(container) {
			return false, ec.fail(e.Right.Span(), "undefined value")
		}
		return false, nil
	}
	return false, ec.fail(e.R, "invalid operation: cannot perform a containment check on this value")
}
