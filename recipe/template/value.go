// Runtime values: undefined, none, bool, int, float, string, sequence, map (ordered), callable.

package template

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is a value's type.
type Kind uint8

const (
	KindUndefined Kind = iota
	KindNone
	KindBool
	KindInt
	KindFloat
	KindString
	KindSeq
	KindMap
	KindFunc
)

// Value is a template runtime value.
type Value struct {
	kind Kind
	b    bool
	i    int64
	f    float64
	s    string
	seq  []Value
	m    *Map
	fn   func(*evalCtx, []Value, []kwValue) (Value, error)
	safe bool
}

// Map is an insertion-ordered string-keyed map.
type Map struct {
	Keys   []string
	Values map[string]Value
}

// NewMap returns an empty map.
func NewMap() *Map { return &Map{Values: map[string]Value{}} }

// Set stores k = v, keeping the first insertion order.
func (m *Map) Set(k string, v Value) {
	if _, ok := m.Values[k]; !ok {
		m.Keys = append(m.Keys, k)
	}
	m.Values[k] = v
}

type kwValue struct {
	name string
	v    Value
}

func Undefined() Value             { return Value{} }
func NoneValue() Value             { return Value{kind: KindNone} }
func BoolValue(b bool) Value       { return Value{kind: KindBool, b: b} }
func IntValue(i int64) Value       { return Value{kind: KindInt, i: i} }
func FloatValue(f float64) Value   { return Value{kind: KindFloat, f: f} }
func StringValue(s string) Value   { return Value{kind: KindString, s: s} }
func SeqValue(items []Value) Value { return Value{kind: KindSeq, seq: items} }
func MapValue(m *Map) Value        { return Value{kind: KindMap, m: m} }

// Kind returns the value's kind.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// typeName is the name minijinja uses in error messages.
func (v Value) typeName() string {
	switch v.kind {
	case KindUndefined:
		return "undefined"
	case KindNone:
		return "none"
	case KindBool:
		return "bool"
	case KindInt, KindFloat:
		return "number"
	case KindString:
		return "string"
	case KindSeq:
		return "sequence"
	case KindMap:
		return "map"
	}
	return "function"
}

// Truthy is Jinja truthiness.
func (v Value) Truthy() bool {
	switch v.kind {
	case KindBool:
		return v.b
	case KindInt:
		return v.i != 0
	case KindFloat:
		return v.f != 0
	case KindString:
		return v.s != ""
	case KindSeq:
		return len(v.seq) > 0
	case KindMap:
		return len(v.m.Keys) > 0
	case KindFunc:
		return true
	}
	return false
}

// String renders the value as template output does.
func (v Value) String() string {
	switch v.kind {
	case KindUndefined:
		return ""
	case KindNone:
		return "none"
	case KindBool:
		if v.b {
			return "true"
		}
		return "false"
	case KindInt:
		return strconv.FormatInt(v.i, 10)
	case KindFloat:
		return formatFloat(v.f)
	case KindString:
		return v.s
	case KindSeq, KindMap:
		var b strings.Builder
		v.repr(&b)
		return b.String()
	}
	return "<function>"
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "inf"
	}
	if math.IsInf(f, -1) {
		return "-inf"
	}
	if math.IsNaN(f) {
		return "NaN"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func (v Value) repr(b *strings.Builder) {
	switch v.kind {
	case KindString:
		b.WriteString(strconv.Quote(v.s))
	case KindSeq:
		b.WriteByte('[')
		for i, it := range v.seq {
			if i > 0 {
				b.WriteString(", ")
			}
			it.repr(b)
		}
		b.WriteByte(']')
	case KindMap:
		b.WriteByte('{')
		for i, k := range v.m.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(": ")
			v.m.Values[k].repr(b)
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.String())
	}
}

// FromGo converts strings, numbers, bools, slices and maps into template values.
func FromGo(x any) Value {
	switch t := x.(type) {
	case nil:
		return NoneValue()
	case Value:
		return t
	case string:
		return StringValue(t)
	case bool:
		return BoolValue(t)
	case int:
		return IntValue(int64(t))
	case int64:
		return IntValue(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1e15 {
			return IntValue(int64(t))
		}
		return FloatValue(t)
	case []any:
		items := make([]Value, len(t))
		for i, it := range t {
			items[i] = FromGo(it)
		}
		return SeqValue(items)
	case []string:
		items := make([]Value, len(t))
		for i, it := range t {
			items[i] = StringValue(it)
		}
		return SeqValue(items)
	case map[string]any:
		return sortedMap(t, FromGo)
	case map[string]string:
		return sortedMap(t, StringValue)
	}
	return Undefined()
}

// sortedMap converts a Go map into a map value with keys in sorted order.
func sortedMap[V any](t map[string]V, conv func(V) Value) Value {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	m := NewMap()
	for _, k := range keys {
		m.Set(k, conv(t[k]))
	}
	return MapValue(m)
}

func (v Value) asFloat() (float64, bool) {
	switch v.kind {
	case KindInt:
		return float64(v.i), true
	case KindFloat:
		return v.f, true
	case KindBool:
		if v.b {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func (v Value) isNumber() bool { return v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool }

// equal is Jinja equality.
func equal(a, b Value) bool {
	if a.isNumber() && b.isNumber() {
		if a.kind == KindInt && b.kind == KindInt {
			return a.i == b.i
		}
		x, _ := a.asFloat()
		y, _ := b.asFloat()
		return x == y
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindUndefined, KindNone:
		return true
	case KindString:
		return a.s == b.s
	case KindSeq:
		if len(a.seq) != len(b.seq) {
			return false
		}
		for i := range a.seq {
			if !equal(a.seq[i], b.seq[i]) {
				return false
			}
		}
		return true
	case KindMap:
		if len(a.m.Keys) != len(b.m.Keys) {
			return false
		}
		for _, k := range a.m.Keys {
			bv, ok := b.m.Values[k]
			if !ok || !equal(a.m.Values[k], bv) {
				return false
			}
		}
		return true
	}
	return false
}

// compare orders two values; ok is false when they cannot be ordered.
func compare(a, b Value) (int, bool) {
	if a.isNumber() && b.isNumber() {
		x, _ := a.asFloat()
		y, _ := b.asFloat()
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	if a.kind == KindString && b.kind == KindString {
		return strings.Compare(a.s, b.s), true
	}
	if a.kind == KindSeq && b.kind == KindSeq {
		for i := 0; i < len(a.seq) && i < len(b.seq); i++ {
			if c, ok := compare(a.seq[i], b.seq[i]); !ok || c != 0 {
				return c, ok
			}
		}
		return len(a.seq) - len(b.seq), true
	}
	return 0, false
}
