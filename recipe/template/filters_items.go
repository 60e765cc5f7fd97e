// Filters over the items of a sequence: select/reject(attr), map and groupby, as minijinja 2.20 has them.

package template

import (
	"sort"
	"strings"
)

func selectFilter(reject, byAttr bool) filterFn {
	return func(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
		items, err := ec.seqOf(f, v)
		if err != nil {
			return Value{}, err
		}
		rest := args
		attr := ""
		if byAttr {
			if len(rest) == 0 {
				return Value{}, ec.fail(f.R, "invalid operation: missing argument")
			}
			attr, rest = rest[0].String(), rest[1:]
		}
		var out []Value
		for _, it := range items {
			x := it
			if byAttr {
				if x, err = ec.getAttr(f.R, it, StringValue(attr)); err != nil {
					return Value{}, err // minijinja: an attribute of undefined fails
				}
			}
			ok := x.Truthy()
			if len(rest) > 0 {
				name := rest[0].String()
				tf, known := tests[name]
				if !known {
					return Value{}, ec.fail(f.R, "unknown test: test %s is unknown", name)
				}
				if ok, err = tf(ec, x, rest[1:]); err != nil {
					return Value{}, err
				}
			}
			if ok != reject {
				out = append(out, it)
			}
		}
		return SeqValue(out), nil
	}
}

func mapFilter(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	out := make([]Value, 0, len(items))
	if a, ok := arg(nil, kw, -1, "attribute"); ok {
		d, hasDef := arg(nil, kw, -1, "default")
		for _, it := range items {
			x, err := ec.getAttr(f.R, it, a)
			if err != nil {
				return Value{}, err
			}
			if x.kind == KindUndefined && hasDef {
				x = d
			}
			out = append(out, x)
		}
		return SeqValue(out), nil
	}
	if len(args) == 0 {
		return SeqValue(items), nil
	}
	name := args[0].String()
	fn, ok := filters[name]
	if !ok {
		return Value{}, ec.fail(f.R, "unknown filter: filter %s is unknown", name)
	}
	for _, it := range items {
		if err := ec.step(f.R); err != nil {
			return Value{}, err
		}
		x, err := fn(ec, f, it, args[1:], nil)
		if err != nil {
			return Value{}, err
		}
		out = append(out, x)
	}
	return SeqValue(out), nil
}

// groupbyFilter is minijinja's `groupby`: items sorted by the attribute, runs of equal keys grouped
// into (grouper, list) pairs that also answer `.grouper` and `.list`.
func groupbyFilter(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
	var items []Value
	var err error
	if v.kind != KindUndefined { // minijinja's plain try_iter: undefined is empty, strict or not
		if items, err = ec.seqOf(f, v); err != nil {
			return Value{}, err
		}
	}
	attr := strArg(args, kw, 0, "attribute", "")
	def, _ := arg(nil, kw, -1, "default")
	caseSensitive := boolArg(nil, kw, -1, "case_sensitive")
	keyOf := func(it Value) Value {
		k, _ := ec.getAttr(f.R, it, StringValue(attr))
		if k.kind == KindUndefined {
			k = def
		}
		return k
	}
	cmpKeys := func(a, b Value) int {
		if !caseSensitive && a.kind == KindString && b.kind == KindString {
			a, b = StringValue(strings.ToLower(a.s)), StringValue(strings.ToLower(b.s))
		}
		c, _ := compare(a, b)
		return c
	}
	keys := make([]Value, len(items))
	order := make([]int, len(items))
	for i, it := range items {
		keys[i], order[i] = keyOf(it), i
	}
	sort.SliceStable(order, func(a, b int) bool { return cmpKeys(keys[order[a]], keys[order[b]]) < 0 })
	var out []Value
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && cmpKeys(keys[order[start]], keys[order[end]]) == 0 {
			end++
		}
		list := make([]Value, 0, end-start)
		for _, i := range order[start:end] {
			list = append(list, items[i])
		}
		grouper := keys[order[end-1]] // minijinja keeps the last item's key of a run
		attrs := NewMap()
		attrs.Set("grouper", grouper)
		attrs.Set("list", SeqValue(list))
		pair := SeqValue([]Value{grouper, SeqValue(list)})
		pair.m = attrs
		out = append(out, pair)
		start = end
	}
	return SeqValue(out), nil
}

// uniqueFilter is minijinja's `unique`: the first of each value (of its `attribute` when given), strings
// compared without case unless `case_sensitive=true`.
func uniqueFilter(ec *evalCtx, f *Filter, v Value, _ []Value, kw []kwValue) (Value, error) {
	items, err := ec.seqOf(f, v)
	attr, hasAttr := arg(nil, kw, -1, "attribute")
	caseSensitive := boolArg(nil, kw, -1, "case_sensitive")
	keyOf := func(it Value) Value {
		k := it
		if hasAttr && attr.kind == KindString {
			k, _ = ec.getAttr(f.R, it, attr)
		}
		if !caseSensitive && k.kind == KindString {
			k = StringValue(strings.ToLower(k.s))
		}
		return k
	}
	var out, seen []Value
	for _, it := range items {
		if err := ec.work(f.R, len(out)); err != nil {
			return Value{}, err
		}
		k := keyOf(it)
		dup := false
		for _, s := range seen {
			if c, ok := compare(s, k); ok && c == 0 { // minijinja's set orders values: true is not 1
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, it)
			seen = append(seen, k)
		}
	}
	return SeqValue(out), err
}
