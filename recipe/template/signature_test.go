// The signature table against the builtins: every filter, test and global has its parameter list, and the
// binder's conversions say what minijinja's ArgType conversions say.

package template

import (
	"slices"
	"testing"
)

func TestSignatureTableCoversBuiltins(t *testing.T) {
	requireSignatures(t, "filter", filterTable(), filterSignatures(), true)
	requireSignatures(t, "test", testTable(), testSignatures(), true)
	requireSignatures(t, "global", globalTable(), globalSignatures(), false)
	// every filter and test takes the value first
	for name, s := range filterSignatures() {
		if len(s.params) == 0 {
			t.Errorf("filter %s: no value parameter", name)
		}
	}
}

func TestBindArgs(t *testing.T) {
	ec := &evalCtx{opts: RenderOptions{Undefined: Strict}}
	kw := []kwValue{{name: "b", v: IntValue(1)}, {name: "a", v: IntValue(2)}}
	for _, c := range []struct {
		name string
		s    signature
		vals []Value
		kw   []kwValue
		err  string
	}{
		{"missing", sig(pValue, pUsize), []Value{IntValue(1)}, nil, "missing argument"},
		{"too many", sig(pValue), []Value{IntValue(1), IntValue(2)}, nil, "too many arguments"},
		{"keywords are one more argument", sig(pValue), []Value{IntValue(1)}, kw, "too many arguments"},
		{"keywords to a string", sig(pValue, pOptStr), []Value{IntValue(1)}, kw, "invalid operation: cannot convert kwargs to string"},
		{"keywords to an integer", sig(pValue, pI32.optional()), []Value{IntValue(1)}, kw, "invalid operation: cannot convert map to i32"},
		{"negative usize", sig(pValue, pUsize), []Value{IntValue(1), IntValue(-1)}, nil, "invalid operation: cannot convert number to usize"},
		{"fractional usize", sig(pValue, pUsize), []Value{IntValue(1), FloatValue(2.5)}, nil, "invalid operation: cannot convert number to usize"},
		{"i32 range", sig(pValue, pI32), []Value{IntValue(1), IntValue(1 << 40)}, nil, "invalid operation: cannot convert number to i32"},
		{"string to bool", sig(pValue, pOptBool), []Value{IntValue(1), StringValue("x")}, nil, "invalid operation: cannot convert string to bool"},
		{"not a string", sig(pStrRef), []Value{IntValue(1)}, nil, "invalid operation: value is not a string"},
		{"strict undefined string", sig(pStr), []Value{Undefined()}, nil, "undefined value"},
		{"undefined isize", sig(pIsize), []Value{Undefined()}, nil, "invalid operation: cannot convert undefined to isize"},
	} {
		_, err := ec.bindArgs(c.s, c.vals, c.kw)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: got %v, want %q", c.name, err, c.err)
		}
	}
	// absent options, integral floats, bools as integers, the rest, and keywords split off first
	b, err := ec.bindArgs(sig(pValue, pUsize, pOptStr, pOptBool).withRest(),
		[]Value{IntValue(1), FloatValue(3), NoneValue(), Undefined(), IntValue(7), IntValue(8)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.integer(1, 0) != 3 || b.has[2] || b.has[3] || len(b.rest) != 2 || b.rest[1].i != 8 {
		t.Errorf("bound %+v", b)
	}
	b, err = ec.bindArgs(sig(pValue, pUsize.optional()).withKwargs(kwParam{"a", pOptBool}, kwParam{"b", pIsize}),
		[]Value{IntValue(1), BoolValue(true)}, kw)
	if err != nil {
		t.Fatal(err)
	}
	if b.integer(1, 0) != 1 {
		t.Errorf("true as usize: %+v", b.vals[1])
	}
	if _, _, err := b.kw.get(ec, "a"); err == nil || err.Error() != "invalid operation: cannot convert number to bool" {
		t.Errorf("keyword a: %v", err)
	}
	if err := b.kw.assertAllUsed(); err == nil || err.Error() != "too many arguments: unknown keyword argument 'a'" {
		t.Errorf("unused keywords (sorted, first): %v", err)
	}
	if v, _, err := b.kw.get(ec, "b"); err != nil || v.i != 1 {
		t.Errorf("keyword b: %v %v", v, err)
	}
	k := &kwargs{decl: []kwParam{{"attribute", pStrRef}}}
	if _, _, err := k.get(ec, "attribute"); err == nil || err.Error() != "missing argument: missing keyword argument 'attribute'" {
		t.Errorf("missing keyword: %v", err)
	}
	if !slices.Equal(FilterNames(), signatureNames(filterSignatures())) {
		t.Errorf("FilterNames and the signature table differ")
	}
}

func signatureNames(m map[string]signature) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// requireSignatures reports each builtin of a kind without a signature and, when exact, each signature of
// no builtin.
func requireSignatures[F any](t *testing.T, kind string, builtins map[string]F, sigs map[string]signature, exact bool) {
	t.Helper()
	for name := range builtins {
		if _, ok := sigs[name]; !ok {
			t.Errorf("%s %s has no signature", kind, name)
		}
	}
	if !exact {
		return
	}
	for name := range sigs {
		if _, ok := builtins[name]; !ok {
			t.Errorf("signature of an unknown %s %s", kind, name)
		}
	}
}
