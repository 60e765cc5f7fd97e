// Builtin tests (`x is defined`, …) and global functions (range, dict, namespace, debug).

package template

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"sync"
)

type testFn func(ec *evalCtx, v Value, a *boundArgs) (bool, error)

func (ec *evalCtx) applyTest(t *Test, v Value) (bool, error) {
	args, kw, err := ec.evalArgs(t.Args, t.Kwargs) // minijinja evaluates the arguments before it looks the test up
	if err != nil {
		return false, err
	}
	fn, ok := testTable()[t.Name]
	if !ok {
		return false, ec.fail(t.NameRange, "unknown test: test %s is unknown", t.Name)
	}
	ok, err = ec.callTest(t.Name, fn, v, args, kw)
	if err != nil {
		if _, located := err.(*RuntimeError); !located {
			err = ec.fail(t.R, "%s", err.Error())
		}
	}
	return ok, err
}

// callTest binds the arguments to the test's signature and runs it.
func (ec *evalCtx) callTest(name string, fn testFn, v Value, args []Value, kw []kwValue) (bool, error) {
	b, err := ec.bindArgs(testSignatures()[name], append([]Value{v}, args...), kw)
	if err != nil {
		return false, err
	}
	return fn(ec, v, b)
}

func allRunes(s string, ok func(rune) bool) bool {
	for _, r := range s {
		if !ok(r) {
			return false
		}
	}
	return true
}

func buildTests() map[string]testFn {
	kind := func(ks ...Kind) testFn {
		return func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			for _, k := range ks {
				if v.kind == k {
					return true, nil
				}
			}
			return false, nil
		}
	}
	cmp := func(ok func(int) bool) testFn {
		return func(_ *evalCtx, v Value, a *boundArgs) (bool, error) {
			c, comparable := compare(v, a.vals[1])
			return comparable && ok(c), nil
		}
	}
	eq := func(_ *evalCtx, v Value, a *boundArgs) (bool, error) {
		return equal(v, a.vals[1]), nil
	}
	ne := func(_ *evalCtx, v Value, a *boundArgs) (bool, error) {
		return !equal(v, a.vals[1]), nil
	}
	parity := func(want int64) testFn {
		return func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			if v.wide != nil {
				return int64(v.wide.Bit(0)) == want, nil
			}
			n, ok := v.asI128()
			return ok && (n%2+2)%2 == want, nil
		}
	}
	lt, le := cmp(func(c int) bool { return c < 0 }), cmp(func(c int) bool { return c <= 0 })
	gt, ge := cmp(func(c int) bool { return c > 0 }), cmp(func(c int) bool { return c >= 0 })
	return map[string]testFn{
		"undefined": kind(KindUndefined),
		"defined": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			return v.kind != KindUndefined, nil
		},
		"none":    kind(KindNone),
		"safe":    func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) { return v.safe && v.kind != KindUndefined, nil },
		"escaped": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) { return v.safe && v.kind != KindUndefined, nil },
		"boolean": kind(KindBool),
		"odd":     parity(1),
		"even":    parity(0),
		"number":  kind(KindInt, KindFloat),
		"integer": kind(KindInt),
		"int":     kind(KindInt),
		"float":   kind(KindFloat),
		"string":  kind(KindString),
		"sequence": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			return v.kind == KindSeq && v.iter == iterNone, nil
		},
		"iterable": kind(KindSeq, KindMap, KindString, KindUndefined, KindNone), // minijinja: try_iter succeeds
		"mapping":  kind(KindMap),
		"divisibleby": func(_ *evalCtx, v Value, a *boundArgs) (bool, error) {
			// minijinja's coerce: integers and bools in i128, a float on either side in f64
			d := a.vals[1]
			if !v.isNumber() || !d.isNumber() {
				return false, nil
			}
			if v.kind == KindFloat || d.kind == KindFloat {
				x, _ := v.asFloat()
				y, _ := d.asFloat()
				return math.Mod(x, y) == 0, nil
			}
			if d.bigOf().Sign() == 0 {
				// minijinja panics here (an integer remainder by zero) and goose would crash: an honest error
				return false, errors.New("invalid operation: divisibleby 0 (goose's template engine crashes here)")
			}
			if v.wide != nil || d.wide != nil {
				return new(big.Int).Rem(v.bigOf(), d.bigOf()).Sign() == 0, nil
			}
			return v.asInt()%d.asInt() == 0, nil
		},
		"startingwith": func(_ *evalCtx, _ Value, a *boundArgs) (bool, error) {
			return strings.HasPrefix(a.str(0, ""), a.str(1, "")), nil
		},
		"endingwith": func(_ *evalCtx, _ Value, a *boundArgs) (bool, error) {
			return strings.HasSuffix(a.str(0, ""), a.str(1, "")), nil
		},
		// minijinja: every character is lower (upper) case (`'ab1' is lower` is false); the value must be
		// a string
		"lower": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			if v.kind != KindString {
				return false, errNotAString
			}
			return allRunes(v.s, isLowercase), nil
		},
		"upper": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			if v.kind != KindString {
				return false, errNotAString
			}
			return allRunes(v.s, isUppercase), nil
		},
		"sameas": sameAs,
		"eq":     eq, "equalto": eq, "==": eq,
		"ne": ne, "!=": ne,
		"lt": lt, "lessthan": lt, "<": lt,
		"le": le, "<=": le,
		"gt": gt, "greaterthan": gt, ">": gt,
		"ge": ge, ">=": ge,
		"in": func(ec *evalCtx, v Value, a *boundArgs) (bool, error) {
			if ec.strictUndefined(a.vals[1]) { // minijinja's assert_iterable
				return false, errors.New("undefined value")
			}
			found, _ := containsValue(a.vals[1], v)
			return found, nil
		},
		"true":  func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) { return v.kind == KindBool && v.b, nil },
		"false": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) { return v.kind == KindBool && !v.b, nil },
		// minijinja's `is filter` / `is test` take the name as a string argument: anything else (undefined
		// too) fails its conversion
		"filter": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			if v.kind != KindString {
				return false, errNotAString
			}
			return IsFilter(v.s), nil
		},
		"test": func(_ *evalCtx, v Value, _ *boundArgs) (bool, error) {
			if v.kind != KindString {
				return false, errNotAString
			}
			_, ok := testTable()[v.s]
			return ok, nil
		},
	}
}

var errNotAString = errors.New("invalid operation: value is not a string")

type globalFn = func(*evalCtx, []Value, []kwValue) (Value, error)

// globals are minijinja's builtin functions. goose's variable check still reports them as missing
// parameters (undeclared_variables does not special-case globals).
// globalTable builds the builtin functions on first use.
var globalTable = sync.OnceValue(func() map[string]globalFn {
	return map[string]globalFn{
		"range": func(ec *evalCtx, args []Value, kw []kwValue) (Value, error) {
			// minijinja's range(lower: isize, upper: Option<isize>, step: Option<isize>): an undefined or
			// none upper bound or step is absent
			b, err := ec.bindArgs(globalSignatures()["range"], args, kw)
			if err != nil {
				return Value{}, err
			}
			var n [3]int64
			var given [3]bool
			for i := range n {
				var v Value
				v, given[i] = b.value(i)
				n[i] = v.i
			}
			lo, hi, step := int64(0), n[0], int64(1)
			if given[1] {
				lo, hi = n[0], n[1]
			}
			if given[2] {
				step = n[2]
			}
			if step == 0 {
				return Value{}, fmt.Errorf("invalid operation: cannot create range with step of 0")
			}
			// the element count, computed without overflow: minijinja refuses more than 100,000
			var span uint64
			if step > 0 && hi > lo {
				span = uint64(hi) - uint64(lo)
			} else if step < 0 && lo > hi {
				span = uint64(lo) - uint64(hi)
			}
			stride := uint64(step)
			if step < 0 {
				stride = uint64(-(step + 1)) + 1
			}
			count := (span + stride - 1) / stride
			if count > 100000 {
				return Value{}, fmt.Errorf("invalid operation: range has too many elements")
			}
			out := make([]Value, count)
			for i := range out {
				out[i] = IntValue(lo + int64(i)*step)
			}
			return sizedIterValue(out), nil
		},
		"dict": func(_ *evalCtx, args []Value, kw []kwValue) (Value, error) {
			// minijinja's dict(value, **kwargs): one optional map (none or undefined is empty), then the keywords
			m := NewMap()
			switch {
			case len(args) > 1:
				return Value{}, fmt.Errorf("too many arguments")
			case len(args) == 0 || args[0].kind == KindUndefined || args[0].kind == KindNone:
			case args[0].kind == KindMap:
				for _, k := range args[0].m.Keys {
					m.SetKey(args[0].m.keyOf(k), args[0].m.get(k))
				}
			default:
				return Value{}, fmt.Errorf("invalid operation")
			}
			for _, k := range kw {
				k.setIn(m)
			}
			m.sortKeys()
			return MapValue(m), nil
		},
		"namespace": namespaceGlobal,
		"debug": func(ec *evalCtx, args []Value, kw []kwValue) (Value, error) {
			// minijinja's debug(): the state without arguments, else `{:#?}` of the one argument or of the list
			// of them (keyword arguments are one more argument, a map)
			if kw != nil { // keyword arguments, even none left after `**{}`
				args = append(args[:len(args):len(args)], kwargsMap(kw))
			}
			var b strings.Builder
			switch len(args) {
			case 0:
				return StringValue(ec.debugState()), nil
			case 1:
				writeDebugValue(&b, args[0], 0)
			default:
				writeDebugValue(&b, SeqValue(args), 0)
			}
			return StringValue(b.String()), nil
		},
	}
})

// namespaceGlobal is minijinja's namespace(defaults): one optional map (keyword arguments are that map);
// its string keys are copied, none or undefined is an empty namespace.
func namespaceGlobal(_ *evalCtx, args []Value, kw []kwValue) (Value, error) {
	if len(kw) > 0 {
		args = append(args[:len(args):len(args)], kwargsMap(kw))
	}
	m := NewMap()
	switch {
	case len(args) > 1:
		return Value{}, fmt.Errorf("too many arguments")
	case len(args) == 0 || args[0].kind == KindUndefined || args[0].kind == KindNone:
	case args[0].kind == KindMap:
		d := args[0].m
		for _, k := range d.Keys {
			if key := d.keyOf(k); key.kind == KindString {
				m.Set(key.s, d.get(k))
			}
		}
	default:
		return Value{}, fmt.Errorf("invalid operation: expected object or keyword arguments, got %s", args[0].typeName())
	}
	m.sortKeys()
	m.namespace = true
	return MapValue(m), nil
}

// kwargsMap is the map minijinja passes for a call's keyword arguments (sorted by name, as its maps are).
func kwargsMap(kw []kwValue) Value {
	m := NewMap()
	for _, k := range kw {
		k.setIn(m)
	}
	m.sortKeys()
	return MapValue(m)
}

// sameAs is minijinja's is_sameas: containers are the same only as the same object (goose-ls: the same
// backing storage), other values when kind, integer-ness and value agree.
func sameAs(_ *evalCtx, v Value, a *boundArgs) (bool, error) {
	o := a.vals[1]
	vObj, oObj := v.kind == KindSeq || v.kind == KindMap, o.kind == KindSeq || o.kind == KindMap
	switch {
	case vObj && oObj:
		if v.kind != o.kind {
			return false, nil
		}
		if v.kind == KindMap {
			return v.m == o.m, nil
		}
		return len(v.seq) > 0 && len(v.seq) == len(o.seq) && &v.seq[0] == &o.seq[0], nil
	case vObj || oObj:
		return false, nil
	}
	if v.typeName() != o.typeName() || (v.kind == KindInt) != (o.kind == KindInt) {
		return false, nil
	}
	return equal(v, o), nil
}
