// Sorting and chunking filters as minijinja 2.24 has them: dictsort, sort, batch and slice.

package template

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// cmpHelper is minijinja's cmp_helper: two strings compare ASCII-case-insensitively unless caseSensitive
// (goose builds minijinja without `unicode`), everything else by minijinja's value order; reverse flips the
// comparison itself, so a stable sort keeps equal items in their order.
func cmpHelper(a, b Value, caseSensitive, reverse bool) int {
	if !caseSensitive && a.kind == KindString && b.kind == KindString {
		a, b = StringValue(asciiLower(a.s)), StringValue(asciiLower(b.s))
	}
	c, _ := compare(a, b)
	if reverse {
		return -c
	}
	return c
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// getPath is minijinja's get_path: dotted parts, a number an index, each step failing as an attribute
// access does (an attribute of undefined).
func (ec *evalCtx) getPath(f *Filter, v Value, path string) (Value, error) {
	for _, part := range strings.Split(path, ".") {
		key := StringValue(part)
		if n, err := strconv.ParseUint(part, 10, 64); err == nil && n <= 1<<62 {
			key = IntValue(int64(n))
		}
		var err error
		if v, err = ec.getAttr(f.R, v, key); err != nil {
			return Value{}, err
		}
	}
	return v, nil
}

// getPathOrDefault is minijinja's get_path_or_default: a failed or undefined path is def.
func (ec *evalCtx) getPathOrDefault(f *Filter, v Value, path string, def Value) Value {
	got, err := ec.getPath(f, v, path)
	if err != nil || got.kind == KindUndefined {
		return def
	}
	return got
}

// kwFlag reads an Option<bool> keyword argument (false when absent).
func (b *boundArgs) kwFlag(ec *evalCtx, name string) (bool, error) {
	v, ok, err := b.kw.get(ec, name)
	return ok && v.b, err
}

// dictsortFilter is minijinja's dictsort(v, by=, case_sensitive=, reverse=): keyword arguments only, keys
// (or values) compared as values, case-insensitively by default, the pairs as a list.
func dictsortFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	if v.kind != KindMap {
		return Value{}, errors.New("invalid operation: cannot convert value into pair list")
	}
	by, hasBy, err := a.kw.get(ec, "by")
	if err != nil {
		return Value{}, err
	}
	byValue := hasBy && by.s == "value"
	caseSensitive, reverse, err := sortFlags(ec, a)
	if err != nil {
		return Value{}, err
	}
	pairs, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	for i, k := range pairs {
		val, _ := ec.getAttr(f.R, v, k)
		pairs[i] = SeqValue([]Value{k, val})
	}
	side := 0
	if byValue {
		side = 1
	}
	slices.SortStableFunc(pairs, func(x, y Value) int {
		return cmpHelper(x.seq[side], y.seq[side], caseSensitive, reverse)
	})
	if err := a.kw.assertAllUsed(); err != nil {
		return Value{}, err
	}
	return SeqValue(pairs), nil
}

// sortFlags reads the case_sensitive and reverse keywords that sort and dictsort share, in that order.
func sortFlags(ec *evalCtx, a *boundArgs) (caseSensitive, reverse bool, err error) {
	if caseSensitive, err = a.kwFlag(ec, "case_sensitive"); err != nil {
		return false, false, err
	}
	reverse, err = a.kwFlag(ec, "reverse")
	return caseSensitive, reverse, err
}

// sortFilter is minijinja's sort(value, case_sensitive=, reverse=, attribute=): keyword arguments only;
// attribute is a dotted path, or several separated by commas (compared as a list).
func sortFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	items, err := ec.listOf(f, v)
	if err != nil {
		return Value{}, err
	}
	out := append([]Value{}, items...)
	caseSensitive, reverse, err := sortFlags(ec, a)
	if err != nil {
		return Value{}, err
	}
	attr, hasAttr, err := a.kw.get(ec, "attribute")
	if err != nil {
		return Value{}, err
	}
	switch {
	case !hasAttr:
		slices.SortStableFunc(out, func(x, y Value) int { return cmpHelper(x, y, caseSensitive, reverse) })
	default:
		var keys []string
		for _, k := range strings.Split(attr.s, ",") {
			if k != "" {
				keys = append(keys, strings.TrimSpace(k))
			}
		}
		if len(keys) > 1 {
			keyOf := func(x Value) Value {
				parts := make([]Value, len(keys))
				for i, k := range keys {
					parts[i] = ec.getPathOrDefault(f, x, k, Undefined())
				}
				return SeqValue(parts)
			}
			slices.SortStableFunc(out, func(x, y Value) int {
				return cmpHelper(keyOf(x), keyOf(y), caseSensitive, reverse)
			})
			break
		}
		key := attr.s
		if len(keys) == 1 {
			key = keys[0]
		}
		slices.SortStableFunc(out, func(x, y Value) int {
			kx, errX := ec.getPath(f, x, key)
			ky, errY := ec.getPath(f, y, key)
			if errX != nil || errY != nil {
				return 0
			}
			return cmpHelper(kx, ky, caseSensitive, reverse)
		})
	}
	if err := a.kw.assertAllUsed(); err != nil {
		return Value{}, err
	}
	return SeqValue(out), nil
}

// batchFilter is minijinja's batch(value, count: usize, fill_with): chunks of count, the last one filled.
func batchFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	count, _ := a.value(1)
	n := int(min(count.i, 1<<40))
	if n == 0 {
		return Value{}, errors.New("invalid operation: count cannot be 0")
	}
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	fill, filled := a.value(2)
	if filled && len(items) > 0 {
		if err := ec.fitsItems(f.R, mulSize((len(items)+n-1)/n, n), 0); err != nil {
			return Value{}, err
		}
	}
	if count.wide != nil || n > maxBatchCount {
		// minijinja reserves count items up front: it panics (capacity overflow) or aborts; goose would crash
		return Value{}, fmt.Errorf("invalid operation: batch count %s is more than minijinja can allocate", count.String())
	}
	var out []Value
	for i := 0; i < len(items); i += n {
		chunk := append([]Value{}, items[i:min(i+n, len(items))]...)
		for filled && len(chunk) < n {
			chunk = append(chunk, fill)
		}
		out = append(out, SeqValue(chunk))
	}
	return SeqValue(out), nil
}

// maxBatchCount is the largest batch count goose-ls takes: minijinja reserves room for that many items
// (24 bytes each) before it starts, so past a few billion it cannot run at all.
const maxBatchCount = 1 << 32

// sliceFilter is minijinja's slice(value, count: usize, fill_with): count slices, the first ones one item
// longer; with fill_with every slice without the extra item gets one filler.
func sliceFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	n := a.integer(1, 0)
	if n == 0 {
		return Value{}, errors.New("invalid operation: count cannot be 0")
	}
	if err := ec.fitsItems(f.R, int(min(n, 1<<40)), containerBytes); err != nil {
		return Value{}, err
	}
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	count := int(n)
	fill, filled := a.value(2)
	per, extra := len(items)/count, len(items)%count
	out := make([]Value, 0, count)
	off := 0
	for i := 0; i < count; i++ {
		size := per
		if i < extra {
			size++
		}
		chunk := items[off : off+size : off+size]
		if filled && i >= extra {
			chunk = append(chunk, fill)
		}
		out = append(out, SeqValue(chunk))
		off += size
	}
	return SeqValue(out), nil
}
