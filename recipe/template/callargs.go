// A call's arguments evaluated as minijinja's code evaluates them: positional, keyword, `**m` merges and
// `*xs` spreads (before signature.go binds them to the callee's parameters).

package template

// evalArgs evaluates a call's arguments as minijinja's code does: every positional expression, then every
// keyword one, then `**m` maps merged into the keyword arguments (a later entry wins), then `*xs` spread
// among the positional arguments. kv is non-nil when the call has keyword arguments, even none after
// merging (minijinja then still passes an empty keyword map).
func (ec *evalCtx) evalArgs(args []Expr, kwargs []Kwarg) ([]Value, []kwValue, error) {
	av := make([]Value, 0, len(args))
	splats := 0
	for _, a := range args {
		if u, ok := a.(*Unary); ok && u.Op == "*" {
			a, splats = u.Expr, splats+1
		}
		v, err := ec.eval(a)
		if err != nil {
			return nil, nil, err
		}
		av = append(av, v)
	}
	if len(kwargs) == 0 && splats == 0 {
		return av, nil, nil
	}
	kvals := make([]Value, len(kwargs))
	for i, k := range kwargs {
		v, err := ec.eval(k.Value)
		if err != nil {
			return nil, nil, err
		}
		kvals[i] = v
	}
	var kv []kwValue
	if len(kwargs) > 0 {
		kv = []kwValue{}
	}
	for i, k := range kwargs {
		v := kvals[i]
		if k.Name != "" {
			kv = setKwarg(kv, k.Name, v)
			continue
		}
		if ec.strictUndefined(v) { // minijinja's merge_kwargs: assert_iterable, then a map
			return nil, nil, ec.fail(k.Value.Span(), "undefined value")
		}
		if v.kind != KindMap {
			return nil, nil, ec.fail(k.Value.Span(), "invalid operation: attempted to apply keyword arguments from non map (got %s)", v.typeName())
		}
		for _, key := range v.m.Keys {
			kv = setKwarg(kv, key, v.m.get(key))
			kv[len(kv)-1].key = v.m.keyOf(key)
		}
	}
	if splats == 0 {
		return av, kv, nil
	}
	spread := make([]Value, 0, len(av))
	for i, a := range args {
		u, ok := a.(*Unary)
		if !ok || u.Op != "*" {
			spread = append(spread, av[i])
			continue
		}
		items, err := ec.splatItems(u, av[i])
		if err != nil {
			return nil, nil, err
		}
		spread = append(spread, items...)
	}
	return spread, kv, nil
}

// setKwarg sets a keyword argument, a repeated name keeping its place with the later value.
func setKwarg(kv []kwValue, name string, v Value) []kwValue {
	for i := range kv {
		if kv[i].name == name {
			kv[i].v = v
			return kv
		}
	}
	return append(kv, kwValue{name: name, v: v})
}

// splatItems is minijinja's UnpackLists for `*xs`: its items (undefined and none are empty).
func (ec *evalCtx) splatItems(u *Unary, v Value) ([]Value, error) {
	switch v.kind {
	case KindUndefined, KindNone:
		return nil, nil
	case KindString, KindSeq, KindMap:
		return ec.iterate(u, v)
	}
	return nil, ec.fail(u.R, "invalid operation: %s is not iterable", v.typeName())
}
