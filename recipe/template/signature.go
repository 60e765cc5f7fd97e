// Argument binding as minijinja 2.24's ArgType conversions do it: one place for arity, keyword arguments and
// the words of every failed conversion (value/argtypes.rs), driven by the signature table (signatures.go).

package template

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
)

// argKind is the Rust type of one parameter.
type argKind uint8

const (
	argValue  argKind = iota // &Value / Value: anything
	argStr                   // Cow<str> / String: any value as its text (strict undefined fails; kwargs fail)
	argStrRef                // &str / Arc<str>: a string only
	argInt                   // usize, i32, i64, isize: integers, bools, integral floats, within range
	argBool                  // bool: a bool only
)

// param is one parameter: its type and, for Option<T>, opt (undefined and none are absent).
type param struct {
	kind argKind
	opt  bool
	// rust names an integer type in messages ("cannot convert string to usize"); lo and hi bound it.
	rust   string
	lo, hi *big.Int
}

func intParam(rust string, lo, hi *big.Int) param {
	return param{kind: argInt, rust: rust, lo: lo, hi: hi}
}

var (
	pValue     = param{kind: argValue}
	pOptValue  = param{kind: argValue, opt: true}
	pStr       = param{kind: argStr}
	pOptStr    = param{kind: argStr, opt: true}
	pStrRef    = param{kind: argStrRef}
	pOptStrRef = param{kind: argStrRef, opt: true}
	pOptBool   = param{kind: argBool, opt: true}
	pUsize     = intParam("usize", big.NewInt(0), new(big.Int).SetUint64(math.MaxUint64))
	pI32       = intParam("i32", big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32))
	pI64       = intParam("i64", big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64))
	pIsize     = intParam("isize", big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64))
)

func (p param) optional() param { p.opt = true; return p }

// kwParam is one keyword argument a function reads from its Kwargs.
type kwParam struct {
	name string
	p    param
}

// signature is a builtin's parameter list as minijinja declares it. For filters and tests the first
// parameter is the value. rest is Rest<Value> (every remaining argument); kwargs non-nil is a trailing
// Kwargs parameter reading those keywords. Without one, keyword arguments are one more positional argument:
// a map that converts like any other value, except to a string ("cannot convert kwargs to string").
type signature struct {
	params []param
	rest   bool
	kwargs []kwParam
}

func sig(params ...param) signature { return signature{params: params} }

func (s signature) withRest() signature { s.rest = true; return s }

func (s signature) withKwargs(kw ...kwParam) signature {
	s.kwargs = append([]kwParam{}, kw...)
	return s
}

// boundArgs are a call's arguments after binding: vals[i] is parameter i converted (has[i] false when
// an Option is absent), rest the remaining arguments, kw the keyword arguments a Kwargs parameter takes.
type boundArgs struct {
	vals []Value
	has  []bool
	rest []Value
	kw   *kwargs
	// restKw marks rest's last item as the call's keyword arguments (kwList), still minijinja's Kwargs.
	restKw bool
	kwList []kwValue
}

// restSplit is minijinja's from_args::<(&[Value], Kwargs)> over Rest: the positional rest, and the keyword
// arguments when the last item is them.
func (b *boundArgs) restSplit() ([]Value, []kwValue) {
	if b.restKw {
		return b.rest[:len(b.rest)-1], b.kwList
	}
	return b.rest, nil
}

// value is parameter i, if given.
func (b *boundArgs) value(i int) (Value, bool) {
	if i < len(b.vals) && b.has[i] {
		return b.vals[i], true
	}
	return Value{}, false
}

// str is parameter i's text (a converted string parameter), else def.
func (b *boundArgs) str(i int, def string) string {
	if v, ok := b.value(i); ok {
		return v.s
	}
	return def
}

// integer is parameter i (a converted integer parameter), else def.
func (b *boundArgs) integer(i int, def int64) int64 {
	if v, ok := b.value(i); ok {
		return v.i
	}
	return def
}

// argSlot is one positional argument; kw marks the map minijinja passes for the keyword arguments.
type argSlot struct {
	v  Value
	kw bool
}

// bindArgs binds vals (the value first, for filters and tests) and the keyword arguments kw to s, as
// minijinja's FunctionArgs does: a trailing Kwargs takes the keyword map first, each parameter converts
// its argument in order, Rest takes what is left, and an argument nobody took is "too many arguments".
func (ec *evalCtx) bindArgs(s signature, vals []Value, kw []kwValue) (*boundArgs, error) {
	slots := make([]argSlot, len(vals), len(vals)+1)
	for i, v := range vals {
		slots[i] = argSlot{v: v}
	}
	if kw != nil {
		slots = append(slots, argSlot{v: kwargsMap(kw), kw: true})
	}
	b := &boundArgs{vals: make([]Value, len(s.params)), has: make([]bool, len(s.params))}
	if s.kwargs != nil {
		b.kw = &kwargs{decl: s.kwargs}
		if n := len(slots); n > 0 && slots[n-1].kw {
			b.kw.values = kw
			slots = slots[:n-1]
		}
	}
	for i, p := range s.params {
		var slot *argSlot
		if i < len(slots) {
			slot = &slots[i]
		}
		v, ok, err := ec.convertArg(p, slot, true)
		if err != nil {
			return nil, err
		}
		b.vals[i], b.has[i] = v, ok
	}
	n := len(s.params)
	if s.rest {
		for ; n < len(slots); n++ {
			b.rest = append(b.rest, slots[n].v)
			b.restKw, b.kwList = slots[n].kw, kw
		}
	}
	if n < len(slots) {
		return nil, errors.New("too many arguments")
	}
	return b, nil
}

// convertArg converts one argument (nil: not given) to p's type with minijinja's words; withState is
// false where minijinja converts without the state (an Option's inner value, keyword arguments), so a
// string parameter does not refuse a strict undefined there.
func (ec *evalCtx) convertArg(p param, slot *argSlot, withState bool) (Value, bool, error) {
	if slot == nil {
		if p.opt {
			return Value{}, false, nil
		}
		return Value{}, false, errors.New("missing argument")
	}
	v := slot.v
	if p.opt {
		if !slot.kw && (v.kind == KindUndefined || v.kind == KindNone) {
			return Value{}, false, nil
		}
		withState = false
	}
	switch p.kind {
	case argValue:
		return v, true, nil
	case argStr:
		if slot.kw {
			return Value{}, false, errors.New("invalid operation: cannot convert kwargs to string")
		}
		if withState && ec.strictUndefined(v) {
			return Value{}, false, errors.New("undefined value")
		}
		s, err := ec.toString(Range{}, v)
		if err != nil {
			return Value{}, false, err
		}
		// the text keeps the value's safety, for the filters that take minijinja's StringInput
		return withSafety(v, s), true, nil
	case argStrRef:
		if v.kind != KindString || slot.kw {
			return Value{}, false, errors.New("invalid operation: value is not a string")
		}
		return v, true, nil
	case argBool:
		if v.kind != KindBool || slot.kw {
			return Value{}, false, fmt.Errorf("invalid operation: cannot convert %s to bool", slotKind(slot))
		}
		return v, true, nil
	case argInt:
		n, ok := intOf(v)
		if slot.kw || !ok || n.Cmp(p.lo) < 0 || n.Cmp(p.hi) > 0 {
			return Value{}, false, fmt.Errorf("invalid operation: cannot convert %s to %s", slotKind(slot), p.rust)
		}
		return wideValue(n), true, nil
	}
	return Value{}, false, fmt.Errorf("invalid operation: unsupported parameter")
}

// slotKind is minijinja's kind of an argument (the keyword map is a map).
func slotKind(s *argSlot) string {
	if s.kw {
		return "map"
	}
	return s.v.typeName()
}

// intOf is minijinja's integer conversion before the range check: integers, bools, and floats that
// survive Rust's saturating `as i64` round trip.
func intOf(v Value) (*big.Int, bool) {
	switch v.kind {
	case KindInt, KindBool:
		return v.bigOf(), true
	case KindFloat:
		if n, ok := v.asI128(); ok {
			return big.NewInt(n), true
		}
	}
	return nil, false
}

// kwargs is minijinja's Kwargs: the keyword arguments of a call, read by name (each read marks the
// name used) and checked at the end for names nobody read.
type kwargs struct {
	decl   []kwParam
	values []kwValue
	used   map[string]bool
}

// get reads keyword name with its declared type; a non-optional one that is missing fails with
// minijinja's "missing keyword argument".
func (k *kwargs) get(ec *evalCtx, name string) (Value, bool, error) {
	var p *param
	for i := range k.decl {
		if k.decl[i].name == name {
			p = &k.decl[i].p
		}
	}
	if p == nil {
		panic("template: keyword argument " + name + " is not in the signature")
	}
	var slot *argSlot
	for _, kv := range k.values {
		if kv.name == name {
			slot = &argSlot{v: kv.v}
		}
	}
	v, ok, err := ec.convertArg(*p, slot, false)
	if err != nil {
		if slot == nil {
			return Value{}, false, fmt.Errorf("missing argument: missing keyword argument '%s'", name)
		}
		return Value{}, false, err
	}
	if k.used == nil {
		k.used = map[string]bool{}
	}
	k.used[name] = true
	return v, ok, nil
}

// has reports whether keyword name was passed.
func (k *kwargs) has(name string) bool {
	for _, kv := range k.values {
		if kv.name == name {
			return true
		}
	}
	return false
}

// assertAllUsed fails on the first keyword (in minijinja's sorted order) that no read took.
func (k *kwargs) assertAllUsed() error {
	names := make([]string, 0, len(k.values))
	for _, kv := range k.values {
		if strings.HasPrefix(kv.name, typedKeyPrefix) {
			// minijinja's keys in order: any key that is not a string sorts before every string
			return errors.New("invalid operation: non string keys passed to kwargs")
		}
		if !k.used[kv.name] {
			names = append(names, kv.name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return fmt.Errorf("too many arguments: unknown keyword argument '%s'", names[0])
}
