// Expression evaluation: attribute and item access, calls, operators, filters and tests.

package template

import (
	"math"
	"strings"
)

func (ec *evalCtx) eval(e Expr) (Value, error) {
	if err := ec.step(e.Span()); err != nil {
		return Value{}, err
	}
	switch e := e.(type) {
	case *Name:
		return ec.lookup(e.Name), nil
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
			ks, err := ec.toString(k.Span(), kv)
			if err != nil {
				return Value{}, err
			}
			m.Set(ks, vv)
		}
		return ec.fitsValue(e.R, MapValue(m))
	case *GetAttr:
		obj, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		return ec.getAttr(e.R, obj, StringValue(e.Name))
	case *GetItem:
		obj, err := ec.eval(e.Expr)
		if err != nil {
			return Value{}, err
		}
		idx, err := ec.eval(e.Index)
		if err != nil {
			return Value{}, err
		}
		return ec.getAttr(e.R, obj, idx)
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
			if v.kind == KindUndefined && ec.opts.Undefined == Strict {
				return Value{}, ec.fail(e.Expr.Span(), "undefined value")
			}
			return BoolValue(!v.Truthy()), nil
		case "-":
			switch v.kind {
			case KindInt:
				if v.i == math.MinInt64 {
					return Value{}, ec.fail(e.R, "invalid operation: unable to calculate -(%d)", v.i)
				}
				return IntValue(-v.i), nil
			case KindFloat:
				return FloatValue(-v.f), nil
			}
			return Value{}, ec.fail(e.R, "invalid operation: tried to use - operator on unsupported types %s", v.typeName())
		}
		if !v.isNumber() {
			return Value{}, ec.fail(e.R, "invalid operation: tried to use + operator on unsupported types %s", v.typeName())
		}
		return v, nil
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
			return Undefined(), nil
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
		return Value{}, ec.fail(r, "undefined value")
	case KindMap:
		k, err := ec.toString(r, key)
		if err != nil {
			return Value{}, err
		}
		if v, ok := obj.m.Get(k); ok {
			return v, nil
		}
	case KindSeq:
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

func (ec *evalCtx) slice(e *Slice) (Value, error) {
	obj, err := ec.eval(e.Expr)
	if err != nil {
		return Value{}, err
	}
	bound := func(x Expr, def int) (int, error) {
		if x == nil {
			return def, nil
		}
		v, err := ec.eval(x)
		if err != nil {
			return 0, err
		}
		if v.kind == KindNone {
			return def, nil
		}
		if v.kind != KindInt {
			return 0, ec.fail(x.Span(), "invalid operation: slice indices must be integers")
		}
		return int(v.i), nil
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
		return Value{}, ec.fail(e.R, "undefined value")
	default:
		return Value{}, ec.fail(e.R, "invalid operation: value of type %s cannot be sliced", obj.typeName())
	}
	n := len(items)
	step, err := bound(e.Step, 1)
	if err != nil {
		return Value{}, err
	}
	if step == 0 {
		return Value{}, ec.fail(e.R, "invalid operation: cannot slice by step size of 0")
	}
	start, err := bound(e.Start, 0)
	if err != nil {
		return Value{}, err
	}
	stop, err := bound(e.Stop, n)
	if err != nil {
		return Value{}, err
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
		if e.Start != nil {
			s = min(norm(start), n-1)
		}
		stopAt := -1
		if e.Stop != nil {
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
	callee, err := ec.eval(e.Callee)
	if err != nil {
		return Value{}, err
	}
	if callee.kind != KindFunc {
		if n, ok := e.Callee.(*Name); ok && callee.kind == KindUndefined {
			return Value{}, ec.fail(e.R, "unknown function: %s is unknown", n.Name)
		}
		return Value{}, ec.fail(e.R, "invalid operation: %s is not callable", callee.typeName())
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

func (ec *evalCtx) evalArgs(args []Expr, kwargs []Kwarg) ([]Value, []kwValue, error) {
	var av []Value
	for _, a := range args {
		v, err := ec.eval(a)
		if err != nil {
			return nil, nil, err
		}
		av = append(av, v)
	}
	var kv []kwValue
	for _, k := range kwargs {
		v, err := ec.eval(k.Value)
		if err != nil {
			return nil, nil, err
		}
		kv = append(kv, kwValue{k.Name, v})
	}
	return av, kv, nil
}

func (ec *evalCtx) binary(e *Binary) (Value, error) {
	switch e.Op {
	case "and":
		l, err := ec.eval(e.Left)
		if err != nil || !l.Truthy() {
			return l, err
		}
		return ec.eval(e.Right)
	case "or":
		l, err := ec.eval(e.Left)
		if err != nil || l.Truthy() {
			return l, err
		}
		return ec.eval(e.Right)
	}
	l, err := ec.eval(e.Left)
	if err != nil {
		return Value{}, err
	}
	r, err := ec.eval(e.Right)
	if err != nil {
		return Value{}, err
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
		if ec.opts.Undefined == Strict && (l.kind == KindUndefined || r.kind == KindUndefined) {
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
		_, ok := container.m.Get(item.String())
		return ok, true
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
		if ec.opts.Undefined == Strict {
			return false, ec.fail(e.Right.Span(), "undefined value")
		}
		return false, nil
	}
	return false, ec.fail(e.R, "invalid operation: cannot perform a containment check on this value")
}
