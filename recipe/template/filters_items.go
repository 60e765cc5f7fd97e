// Filters over the items of a sequence: select/reject(attr), map, groupby and unique, as minijinja 2.24 has them.

package template

import (
	"errors"
	"slices"
	"strings"
)

// selectFilter is minijinja's select_or_reject: the test is looked up first, then every item (or its
// attribute path) is tested with the remaining arguments, or taken by its truth without a test.
func selectFilter(reject, byAttr bool) filterFn {
	return func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
		next := 1
		attr := ""
		if byAttr {
			attr, next = a.str(1, ""), 2
		}
		var test testFn
		name, hasTest := a.value(next)
		if hasTest {
			fn, known := testTable()[name.s]
			if !known {
				return Value{}, errors.New("unknown test")
			}
			test = fn
		}
		items, err := ec.seqOf(f, v)
		if err != nil {
			return Value{}, err
		}
		restArgs, restKw := a.restSplit()
		var out []Value
		for _, it := range items {
			x := it
			if byAttr {
				if x, err = ec.getPath(f, it, attr); err != nil {
					return Value{}, err
				}
			}
			ok := x.Truthy()
			if hasTest {
				if ok, err = ec.callTest(name.s, test, x, restArgs, restKw); err != nil {
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

// mapFilter is minijinja's map: attribute mapping with `attribute=` (and `default=`), else the filter
// named by the first argument applied to every item with the other positional arguments (keyword
// arguments are dropped there).
func mapFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	args, kw := a.restSplit()
	k := &kwargs{decl: mapKwargs, values: kw}
	attr, byAttr, err := k.get(ec, "attribute")
	if err != nil {
		return Value{}, err
	}
	if byAttr {
		if len(args) > 0 {
			return Value{}, errors.New("too many arguments")
		}
		def := Undefined()
		if k.has("default") {
			if def, _, err = k.get(ec, "default"); err != nil {
				return Value{}, err
			}
		}
		items, err := ec.seqOf(f, v)
		if err != nil {
			return Value{}, err
		}
		out := make([]Value, 0, len(items))
		for _, it := range items {
			var x Value
			if attr.kind == KindString {
				x, err = ec.getPath(f, it, attr.s)
			} else {
				x, err = ec.getAttr(f.R, it, attr)
			}
			switch {
			case err == nil && x.kind == KindUndefined:
				x = def
			case err != nil && def.kind != KindUndefined:
				x = def
			case err != nil:
				return Value{}, err
			}
			out = append(out, x)
		}
		if err := k.assertAllUsed(); err != nil {
			return Value{}, err
		}
		return SeqValue(out), nil
	}
	if len(args) == 0 {
		return Value{}, errors.New("invalid operation: filter name is required")
	}
	if args[0].kind != KindString {
		return Value{}, errors.New("invalid operation: filter name must be a string")
	}
	name := args[0].s
	fn, ok := filterTable()[name]
	if !ok {
		return Value{}, errors.New("unknown filter")
	}
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	out := make([]Value, 0, len(items))
	for _, it := range items {
		if err := ec.step(f.R); err != nil {
			return Value{}, err
		}
		x, err := ec.callFilter(f, name, fn, it, args[1:], nil)
		if err != nil {
			return Value{}, err
		}
		out = append(out, x)
	}
	return SeqValue(out), nil
}

// groupbyFilter is minijinja's `groupby`: items sorted by the attribute path, runs of equal keys grouped
// into (grouper, list) pairs that also answer `.grouper` and `.list`.
func groupbyFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	def, _, err := a.kw.get(ec, "default")
	if err != nil {
		return Value{}, err
	}
	caseSensitive, err := a.kwFlag(ec, "case_sensitive")
	if err != nil {
		return Value{}, err
	}
	attr, ok := a.value(1)
	if !ok {
		if attr, _, err = a.kw.get(ec, "attribute"); err != nil {
			return Value{}, err
		}
	}
	var items []Value
	if v.kind != KindUndefined { // minijinja's plain try_iter: undefined is empty, strict or not
		if items, err = ec.seqOf(f, v); err != nil {
			return Value{}, err
		}
	}
	keys := make([]Value, len(items))
	order := make([]int, len(items))
	for i, it := range items {
		keys[i], order[i] = ec.getPathOrDefault(f, it, attr.s, def), i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmpHelper(keys[x], keys[y], caseSensitive, false) })
	if err := a.kw.assertAllUsed(); err != nil {
		return Value{}, err
	}
	var out []Value
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && cmpHelper(keys[order[end-1]], keys[order[end]], caseSensitive, false) == 0 {
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

// uniqueFilter is minijinja's `unique`: the first of each value (of its `attribute` path when given),
// strings compared lower-cased unless `case_sensitive=true`.
func uniqueFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	attr, hasAttr, err := a.kw.get(ec, "attribute")
	if err != nil {
		return Value{}, err
	}
	caseSensitive, err := a.kwFlag(ec, "case_sensitive")
	if err != nil {
		return Value{}, err
	}
	if err := a.kw.assertAllUsed(); err != nil {
		return Value{}, err
	}
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	keyOf := func(it Value) Value {
		k := it
		if hasAttr {
			k = ec.getPathOrDefault(f, it, attr.s, Undefined())
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
	return SeqValue(out), nil
}
