// Filters whose input conversion minijinja 2.24 decides: string-only inputs, list conversion, number parsing, sum/zip/chain.

package template

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// stringInput is minijinja's `Arc<str>`/`&str` argument: only a string converts (undefined and none fail too).
func (ec *evalCtx) stringInput(f *Filter, v Value) (string, error) {
	if v.kind != KindString {
		return "", ec.fail(f.R, "invalid operation: value is not a string")
	}
	return v.s, nil
}

// listOf is minijinja's list conversion in `list`, `sort`, `min` and `max`: every failure (a strict
// undefined too) becomes "cannot convert value to list".
func (ec *evalCtx) listOf(f *Filter, v Value) ([]Value, error) {
	switch v.kind {
	case KindUndefined:
		if ec.strictUndefined(v) {
			return nil, ec.fail(f.R, "invalid operation: cannot convert value to list")
		}
		return nil, nil
	case KindNone:
		return nil, nil
	case KindString, KindSeq, KindMap:
		return ec.seqOf(f, v)
	}
	return nil, ec.fail(f.R, "invalid operation: cannot convert value to list")
}

// splitFilter is minijinja's `split`: a string only, Rust's `split`/`splitn` (an empty separator yields
// empty first and last parts), Python's maxsplits (n splits, n+1 parts), and an iterator as the result.
func splitFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	s, err := ec.stringInput(f, v)
	if err != nil {
		return Value{}, err
	}
	parts := -1
	if n := a.integer(2, -1); n >= 0 {
		parts = int(min(n, math.MaxInt32)) + 1
	}
	sep, ok := a.value(1)
	if !ok {
		fields := strings.Fields(s)
		if parts > 0 && len(fields) > parts {
			// the last part keeps the rest of the text from its first non-space character
			rest := s
			for i := 0; i < parts-1; i++ {
				rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
				rest = rest[strings.IndexFunc(rest, unicode.IsSpace):]
			}
			fields = append(fields[:parts-1:parts-1], strings.TrimLeftFunc(rest, unicode.IsSpace))
		}
		return SeqValue(partsOf(v, fields)), nil
	}
	if err := ec.fitsItems(f.R, strings.Count(s, sep.s)+2, 0); err != nil {
		return Value{}, err
	}
	var out []string
	if sep.s == "" {
		// Rust's split on "" yields "", every character, "".
		out = append(out, "")
		for _, r := range s {
			out = append(out, string(r))
		}
		out = append(out, "")
		if parts > 0 && len(out) > parts {
			out = append(out[:parts-1:parts-1], strings.Join(out[parts-1:], ""))
		}
	} else {
		out = strings.SplitN(s, sep.s, parts)
	}
	return SeqValue(partsOf(v, out)), nil
}

// partsOf is the parts of in's text as string values (split and lines: safe when in was a safe string).
func partsOf(in Value, parts []string) []Value {
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = withSafety(in, p)
	}
	return out
}

// parseRustNumber is minijinja's string conversion in `int` and `float`: Rust's parsers, whose errors
// are the message ("cannot parse float from empty string", "invalid float literal").
func parseRustNumber(s string, wantInt bool) (Value, string) {
	if wantInt {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return IntValue(i), ""
		}
		if n, ok := new(big.Int).SetString(s, 10); ok && fitsI128(n) { // Rust's i128 parser
			return wideValue(n), ""
		}
	}
	if s == "" {
		return Value{}, "cannot parse float from empty string"
	}
	if strings.ContainsAny(s, "_xXpP") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0b") {
		return Value{}, "invalid float literal" // Go's parser accepts hex floats and underscores, Rust's not
	}
	x, err := strconv.ParseFloat(s, 64)
	if unsigned, neg := strings.CutPrefix(s, "-"); err != nil && strings.EqualFold(strings.TrimPrefix(unsigned, "+"), "nan") {
		// Rust reads a signed NaN (a negative one orders below everything), Go no sign before NaN
		x, err = math.NaN(), nil
		if neg {
			x = math.Copysign(x, -1)
		}
	}
	if err != nil && !strings.Contains(err.Error(), "out of range") {
		return Value{}, "invalid float literal"
	}
	if wantInt {
		return floatToI128(x), "" // Rust's saturating `as i128`
	}
	return FloatValue(x), ""
}

func intFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	switch v.kind {
	case KindInvalid:
		return Value{}, ec.fail(f.R, "%s", v.s)
	case KindUndefined, KindNone:
		if ec.strictUndefined(v) {
			return Value{}, ec.fail(f.R, "undefined value")
		}
		return IntValue(0), nil
	case KindInt:
		return v, nil
	case KindFloat:
		return floatToI128(v.f), nil
	case KindBool:
		if v.b {
			return IntValue(1), nil
		}
		return IntValue(0), nil
	case KindString:
		out, msg := parseRustNumber(v.s, true)
		if msg != "" {
			return Value{}, ec.fail(f.R, "invalid operation: %s", msg)
		}
		return out, nil
	}
	return Value{}, ec.fail(f.R, "invalid operation: cannot convert %s to integer", v.typeName())
}

func floatFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	switch v.kind {
	case KindInvalid:
		return Value{}, ec.fail(f.R, "%s", v.s)
	case KindUndefined, KindNone:
		if ec.strictUndefined(v) {
			return Value{}, ec.fail(f.R, "undefined value")
		}
		return FloatValue(0), nil
	case KindString:
		out, msg := parseRustNumber(v.s, false)
		if msg != "" {
			return Value{}, ec.fail(f.R, "invalid operation: %s", msg)
		}
		return out, nil
	}
	if x, ok := v.asFloat(); ok {
		return FloatValue(x), nil
	}
	return Value{}, ec.fail(f.R, "invalid operation: cannot convert %s to float", v.typeName())
}

// sumFilter is minijinja's `sum`: numbers only; undefined items are skipped (an error when strict).
func sumFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	total := IntValue(0)
	for _, it := range items {
		switch it.kind {
		case KindUndefined:
			continue // minijinja skips an undefined item, strict undefined included (`[m]|sum` is 0)
		case KindInt:
			if total.kind == KindInt {
				// minijinja's add: i128, an error past it
				if s, ok := intArith("+", total.i, it.i); ok && total.wide == nil && it.wide == nil {
					total = s
					continue
				}
				n, ok := wideArith("+", total.bigOf(), it.bigOf())
				if !ok {
					return Value{}, ec.fail(f.R, "invalid operation: unable to calculate %s + %s", total.String(), it.String())
				}
				total = wideValue(n)
				continue
			}
		case KindFloat:
		default:
			return Value{}, ec.fail(f.R, "invalid operation: can only sum numbers, got %s", it.typeName())
		}
		a, _ := total.asFloat()
		b, _ := it.asFloat()
		total = FloatValue(a + b)
	}
	return total, nil
}

// hasLength reports whether minijinja knows v's length without iterating (not for iterators, none, undefined).
func hasLength(v Value) bool {
	return v.kind == KindString || v.kind == KindMap || (v.kind == KindSeq && v.iter != iterUnsized)
}

// zipFilter is minijinja's `zip`: tuples up to the shortest input; an iterator unless every length is known.
// minijinja checks the inputs only up to the first whose length it does not know (undefined, none, an
// iterator): past it a value that is not iterable makes the result empty instead of an error.
func zipFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	all := append([]Value{v}, a.rest...)
	known := true
	for _, x := range all {
		if !iterableKind(x) {
			return Value{}, ec.fail(f.R, "invalid operation: zip filter argument must be iterable, got %s", x.typeName())
		}
		if !hasLength(x) {
			known = false
			break
		}
	}
	lists := make([][]Value, len(all))
	n := -1
	for i, x := range all {
		if !iterableKind(x) {
			n = 0
			break
		}
		items, err := ec.iterateLenient(f, x)
		if err != nil {
			return Value{}, err
		}
		lists[i] = items
		if n < 0 || len(items) < n {
			n = len(items)
		}
	}
	if err := ec.fitsItems(f.R, mulSize(n, len(lists)), containerBytes); err != nil {
		return Value{}, err
	}
	out := make([]Value, n)
	for i := range out {
		tuple := make([]Value, len(lists))
		for j, l := range lists {
			tuple[j] = l[i]
		}
		out[i] = SeqValue(tuple)
	}
	if known {
		return sizedIterValue(out), nil
	}
	return iterValue(out), nil
}

// chainFilter is minijinja's `chain`: maps merge into a map, sequences into a sequence, anything else
// chains into an iterator.
func chainFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	all := append([]Value{v}, a.rest...)
	allMaps, allSeqs := true, true
	for _, x := range all {
		allMaps = allMaps && x.kind == KindMap
		allSeqs = allSeqs && x.kind == KindSeq && x.iter == iterNone
	}
	if allMaps {
		m := NewMap()
		for _, x := range all {
			for _, k := range x.m.Keys {
				if _, seen := m.Get(k); !seen {
					m.SetKey(x.m.keyOf(k), x.m.get(k))
				}
			}
		}
		// a later map wins a lookup
		for _, k := range m.Keys {
			for _, x := range all {
				if val, ok := x.m.Get(k); ok {
					m.Set(k, val)
				}
			}
		}
		return MapValue(m), nil
	}
	var out []Value
	for _, x := range all {
		if !iterableKind(x) {
			// minijinja chains it as an invalid item: printing shows the error, a loop fails there
			out = append(out, invalidValue("invalid operation: "+x.typeName()+" is not iterable"))
			continue
		}
		items, err := ec.iterateLenient(f, x)
		if err != nil {
			return Value{}, err
		}
		if err := ec.fitsItems(f.R, len(out)+len(items), 0); err != nil {
			return Value{}, err
		}
		out = append(out, items...)
	}
	if allSeqs {
		return SeqValue(out), nil
	}
	return iterValue(out), nil
}

// iterableKind: minijinja's try_iter succeeds (undefined and none are empty).
func iterableKind(v Value) bool {
	switch v.kind {
	case KindUndefined, KindNone, KindString, KindSeq, KindMap:
		return true
	}
	return false
}

// iterateLenient iterates as minijinja's Value::try_iter: undefined and none are empty; other
// non-iterables yield nothing here (minijinja yields an error value, which prints as the error).
func (ec *evalCtx) iterateLenient(f *Filter, v Value) ([]Value, error) {
	switch v.kind {
	case KindUndefined, KindNone:
		return nil, nil
	case KindString, KindSeq, KindMap:
		return ec.seqOf(f, v)
	}
	return nil, nil
}
