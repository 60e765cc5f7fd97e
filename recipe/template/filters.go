// Builtin filters, tests and global functions: exactly the names minijinja registers with `builtins`.

package template

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

type filterFn func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error)

// filterTable and testTable build the builtin filters and tests on first use, not at start-up (most
// commands never render); set in init because the tables refer to one another through their functions.
var (
	filterTable func() map[string]filterFn
	testTable   func() map[string]testFn
)

func init() {
	filterTable, testTable = sync.OnceValue(buildFilters), sync.OnceValue(buildTests)
}

// FilterNames lists the builtin filters, sorted (for completion).
func FilterNames() []string {
	names := make([]string, 0, len(filterTable()))
	for n := range filterTable() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestNames lists the builtin tests, sorted.
func TestNames() []string {
	names := make([]string, 0, len(testTable()))
	for n := range testTable() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// IsFilter reports whether name is a builtin filter.
func IsFilter(name string) bool { _, ok := filterTable()[name]; return ok }

// str converts a filter input to text; undefined fails only in strict mode.
func (ec *evalCtx) str(f *Filter, v Value) (string, error) {
	if ec.strictUndefined(v) {
		return "", ec.fail(f.R, "undefined value")
	}
	return ec.toString(f.R, v)
}

func (ec *evalCtx) seqOf(f *Filter, v Value) ([]Value, error) {
	return ec.iterate(f, v)
}

// htmlEscaper is minijinja's HTML escaping (the `escape` filter and autoescaped output).
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;", "/", "&#x2f;")

// safeString is a string marked safe: autoescaping and `escape` leave it as it is.
func safeString(s string) Value { return Value{kind: KindString, s: s, safe: true} }

func buildFilters() map[string]filterFn {
	// strFilter is a string transformation; keep says whether it takes minijinja's StringInput (the
	// result is safe when the input was a safe string) or a plain string (title)
	strFilter := func(fn func(string) string, keep bool) filterFn {
		return func(_ *evalCtx, _ *Filter, v Value, a *boundArgs) (Value, error) {
			if keep {
				return withSafety(v, fn(a.str(0, ""))), nil
			}
			return StringValue(fn(a.str(0, ""))), nil
		}
	}
	length := func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
		switch v.kind {
		case KindString:
			return IntValue(int64(utf8.RuneCountInString(v.s))), nil
		case KindSeq:
			if v.iter != iterUnsized {
				return IntValue(int64(len(v.seq))), nil
			}
		case KindMap:
			return IntValue(int64(len(v.m.Keys))), nil
		}
		return Value{}, ec.fail(f.R, "invalid operation: cannot calculate length of value of type %s", v.typeName())
	}
	def := func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
		// minijinja's default(value, args: Rest<Value>): at most two, the second's truth asked of the
		// undefined behaviour
		if len(a.rest) > 2 {
			return Value{}, errors.New("too many arguments")
		}
		d := StringValue("")
		if len(a.rest) > 0 {
			d = a.rest[0]
		}
		lax := false
		if len(a.rest) > 1 {
			if ec.strictUndefined(a.rest[1]) {
				return Value{}, errors.New("undefined value")
			}
			lax = a.rest[1].Truthy()
		}
		if v.kind == KindUndefined || (lax && !v.Truthy()) {
			return d, nil
		}
		return v, nil
	}
	escape := func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
		if v.safe {
			return v, nil // already escaped or marked safe
		}
		if v.kind == KindUndefined {
			return safeString(""), nil // minijinja escapes undefined to "" even when strict
		}
		s, err := ec.str(f, v)
		return safeString(htmlEscaper.Replace(s)), err
	}
	return map[string]filterFn{
		"safe": func(_ *evalCtx, _ *Filter, _ Value, a *boundArgs) (Value, error) {
			return safeString(a.str(0, "")), nil
		},
		"escape":     escape,
		"e":          escape,
		"lower":      strFilter(rustLower, true),
		"upper":      strFilter(rustUpper, true),
		"title":      strFilter(titleCase, false),
		"capitalize": strFilter(capitalize, true),
		"trim": func(_ *evalCtx, _ *Filter, v Value, a *boundArgs) (Value, error) {
			if chars, ok := a.value(1); ok {
				return withSafety(v, strings.Trim(a.str(0, ""), chars.s)), nil
			}
			return withSafety(v, strings.TrimFunc(a.str(0, ""), unicode.IsSpace)), nil
		},
		"replace": replaceFilter,
		"length":  length,
		"count":   length,
		"default": def,
		"d":       def,
		"items": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if v.kind != KindMap {
				return Value{}, ec.fail(f.R, "invalid operation: cannot convert value into pairs")
			}
			out := make([]Value, len(v.m.Keys))
			for i, k := range v.m.Keys {
				out[i] = SeqValue([]Value{v.m.keyOf(k), v.m.get(k)})
			}
			return sizedIterValue(out), nil
		},
		"dictsort": dictsortFilter,
		"reverse": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if v.kind == KindString {
				rs := []rune(v.s)
				for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
					rs[i], rs[j] = rs[j], rs[i]
				}
				return withSafety(v, string(rs)), nil
			}
			switch v.kind {
			case KindUndefined, KindNone:
				return v, nil // minijinja returns them unchanged
			case KindMap:
				// what minijinja gives for a map: its keys, in order (measured with mj-oracle); an
				// imported module's and a namespace's keys reverse (their enumerators are reversible)
				items, err := ec.seqOf(f, v)
				if v.m.module != nil || v.m.namespace {
					slices.Reverse(items)
				}
				return sizedIterValue(items), err
			case KindSeq:
			default:
				return Value{}, ec.fail(f.R, "invalid operation: cannot reverse values of type %s", v.typeName())
			}
			items, err := ec.seqOf(f, v)
			out := make([]Value, len(items))
			for i, it := range items {
				out[len(items)-1-i] = it
			}
			return sizedIterValue(out), err
		},
		"join":  joinFilter,
		"split": splitFilter,
		"lines": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			s, err := ec.stringInput(f, v)
			if err != nil {
				return Value{}, err
			}
			// Rust's str::lines: "\n" ends a line (a "\r" before it goes too), no empty last line
			if s == "" {
				return SeqValue(nil), err
			}
			s = strings.TrimSuffix(s, "\n")
			if err := ec.fitsItems(f.R, strings.Count(s, "\n")+1, 0); err != nil {
				return Value{}, err
			}
			parts := strings.Split(s, "\n")
			for i, p := range parts {
				parts[i] = strings.TrimSuffix(p, "\r")
			}
			return SeqValue(partsOf(v, parts)), err
		},
		"round": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if v.kind == KindInt {
				return v, nil // minijinja rounds only floats: an integer stays one
			}
			if v.kind != KindFloat {
				return Value{}, ec.fail(f.R, "invalid operation: cannot round value (%s)", v.typeName())
			}
			p := math.Pow(10, float64(a.integer(1, 0)))
			return FloatValue(math.Round(p*v.f) / p), nil
		},
		"abs": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			switch v.kind {
			case KindInt:
				if v.wide == nil && v.i != math.MinInt64 {
					if v.i < 0 {
						return IntValue(-v.i), nil
					}
					return v, nil
				}
				// minijinja's abs goes on in i128
				n := new(big.Int).Abs(v.bigOf())
				if !fitsI128(v.bigOf()) || !fitsI128(n) {
					if v.bigOf().Sign() > 0 {
						return v, nil // a 128-bit literal past i128 stays as it is
					}
					return Value{}, ec.fail(f.R, "invalid operation: overflow on abs")
				}
				return wideValue(n), nil
			case KindFloat:
				return FloatValue(math.Abs(v.f)), nil
			}
			return Value{}, ec.fail(f.R, "invalid operation: cannot get absolute value")
		},
		"int":   intFilter,
		"float": floatFilter,
		"attr": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			key, _ := a.value(1)
			return ec.getAttr(f.R, v, key)
		},
		"first": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if v.kind != KindString && v.kind != KindSeq && v.kind != KindMap {
				return Value{}, ec.fail(f.R, "invalid operation: cannot get first item from value")
			}
			items, err := ec.seqOf(f, v)
			if err != nil || len(items) == 0 {
				return Undefined(), err
			}
			return items[0], nil
		},
		"last": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if v.kind != KindString && v.kind != KindSeq {
				return Value{}, ec.fail(f.R, "invalid operation: cannot get last item from value")
			}
			items, err := ec.seqOf(f, v)
			if err != nil || len(items) == 0 {
				return Undefined(), err
			}
			if v.kind == KindString {
				return withSafety(v, items[len(items)-1].s), nil // the last character of a safe string is safe
			}
			return items[len(items)-1], nil
		},
		"min":  minMax(-1),
		"max":  minMax(1),
		"sort": sortFilter,
		"list": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			items, err := ec.listOf(f, v)
			return SeqValue(items), err
		},
		"string": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			s, err := ec.str(f, v)
			if err == nil && v.kind == KindString {
				return v, nil // a string stays as it is (safe or not)
			}
			return StringValue(s), err
		},
		"bool": func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
			if ec.strictUndefined(v) { // minijinja's is_true: strict undefined has no truth value
				return Value{}, ec.fail(f.R, "undefined value")
			}
			return BoolValue(v.Truthy()), nil
		},
		"batch":      batchFilter,
		"slice":      sliceFilter,
		"indent":     indentFilter,
		"select":     selectFilter(false, false),
		"reject":     selectFilter(true, false),
		"selectattr": selectFilter(false, true),
		"rejectattr": selectFilter(true, true),
		"map":        mapFilter,
		"groupby":    groupbyFilter,
		"unique":     uniqueFilter,
		"sum":        sumFilter,
		"zip":        zipFilter,
		"chain":      chainFilter,
		"format":     formatFilter,
		"pprint": func(_ *evalCtx, _ *Filter, v Value, a *boundArgs) (Value, error) {
			// minijinja's `{:#?}`: containers one item a line (checked against the cap by applyFilter)
			var b strings.Builder
			writeDebugValue(&b, v, 0)
			return StringValue(b.String()), nil
		},
	}
}

func minMax(sign int) filterFn {
	return func(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
		items, err := ec.listOf(f, v)
		if err != nil || len(items) == 0 {
			return Undefined(), err
		}
		best := items[0]
		for _, it := range items[1:] {
			if c, ok := compare(it, best); ok && c*sign > 0 {
				best = it
			}
		}
		return best, nil
	}
}

func (ec *evalCtx) applyFilter(f *Filter, v Value) (Value, error) {
	args, kw, err := ec.evalArgs(f.Args, f.Kwargs) // evaluated before the filter is looked up, as minijinja does
	if err != nil {
		return Value{}, err
	}
	fn, ok := filterTable()[f.Name]
	if !ok {
		return Value{}, ec.fail(f.NameRange, "unknown filter: filter %s is unknown", f.Name)
	}
	if err := ec.work(f.R, v.byteSize()/16); err != nil {
		return Value{}, err
	}
	out, err := ec.callFilter(f, f.Name, fn, v, args, kw)
	if err != nil {
		return Value{}, err
	}
	return ec.fitsValue(f.R, out)
}

// callFilter binds the arguments to the filter's signature and runs it; an error without a place is
// placed at the filter.
func (ec *evalCtx) callFilter(f *Filter, name string, fn filterFn, v Value, args []Value, kw []kwValue) (Value, error) {
	b, err := ec.bindArgs(filterSignatures()[name], append([]Value{v}, args...), kw)
	if err == nil {
		var out Value
		if out, err = fn(ec, f, v, b); err == nil {
			return out, nil
		}
	}
	if _, located := err.(*RuntimeError); !located {
		err = ec.fail(f.R, "%s", err.Error())
	}
	return Value{}, err
}

// applyFilterChain applies a bare filter chain (from `{% filter %}` or `{% set x | f %}`) to v.
func (ec *evalCtx) applyFilterChain(chain Expr, v Value) (Value, error) {
	f, ok := chain.(*Filter)
	if !ok {
		return v, nil
	}
	if f.Expr != nil {
		var err error
		if v, err = ec.applyFilterChain(f.Expr, v); err != nil {
			return Value{}, err
		}
	}
	return ec.applyFilter(f, v)
}
