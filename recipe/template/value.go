// Runtime values: undefined, none, bool, int, float, string, sequence, map (ordered), callable.

package template

import (
	"math"
	"math/big"
	"slices"
	"sort"
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
	// KindInvalid is minijinja's invalid value: an item whose making failed (its s is the error),
	// such as what `chain` yields for a value that is not iterable. It prints as
	// `<invalid value: …>`; a for loop or an unpacking that reaches it fails with its error.
	KindInvalid
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
	// iter marks a sequence minijinja holds as an iterator object (kind "iterator": `range`, `reverse`,
	// `items`, `zip`, `+`); iterUnsized ones (`split`, `chain` of mixed values) print as `<iterator>`
	// and have no length.
	iter iterKind
	// concat is the depth of a chain of `+` of sequences this value ends (minijinja's MergeSeq depth).
	concat uint8
	// n is a sequence's byte size (see byteSize), computed when it is built.
	n int
	// wide is an integer past 64 bits (minijinja's i128 and 128-bit literals; wideint.go); i then
	// holds the nearest int64.
	wide *big.Int
}

// Map is an insertion-ordered string-keyed map.
type Map struct {
	Keys []string
	vals []Value // vals[i] is the value of Keys[i]
	// index finds a key's position once the map has more than mapIndexAt keys (small maps scan).
	index map[string]int
	size  int
	// loop, when set, computes the values of a for loop's `loop` object on demand (building ten
	// entries per iteration was most of a loop's cost); values is filled only if the map is written.
	loop *loopInfo
	// keyVals holds the value of each key that is not a string, by its stored form (mapkeys.go).
	keyVals map[string]Value
	// module, when set, marks the map of an imported template's variables (minijinja's module
	// object): it prints, alone or inside a container, as the text that template rendered.
	module *string
	// namespace marks a namespace() object: unlike a map literal's, its keys reverse under `reverse`.
	namespace bool
}

// mapIndexAt is the number of keys past which a map keeps an index.
const mapIndexAt = 8

// NewMap returns an empty map.
func NewMap() *Map { return &Map{size: containerBytes} }

// Get returns the value at k.
func (m *Map) Get(k string) (Value, bool) {
	if m.loop != nil {
		return m.loop.get(k)
	}
	if i := m.find(k); i >= 0 {
		return m.vals[i], true
	}
	return Value{}, false
}

func (m *Map) find(k string) int {
	if m.index != nil {
		if i, ok := m.index[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range m.Keys {
		if key == k {
			return i
		}
	}
	return -1
}

// Set stores k = v, keeping the first insertion order.
func (m *Map) Set(k string, v Value) {
	if m.loop != nil {
		m.materialize()
	}
	if i := m.find(k); i >= 0 {
		m.size -= itemBytes + len(k) + m.vals[i].byteSize()
		m.vals[i] = v
	} else {
		m.Keys = append(m.Keys, k)
		m.vals = append(m.vals, v)
		if m.index != nil {
			m.index[k] = len(m.Keys) - 1
		} else if len(m.Keys) > mapIndexAt {
			m.index = make(map[string]int, 2*len(m.Keys))
			for i, key := range m.Keys {
				m.index[key] = i
			}
		}
	}
	m.size = addSize(m.size, itemBytes+len(k)+v.byteSize())
}

// materialize turns a lazy loop object into an ordinary map.
func (m *Map) materialize() {
	info := m.loop
	m.loop = nil
	m.Keys = append([]string{}, m.Keys...)
	m.vals = make([]Value, len(m.Keys))
	for i, k := range m.Keys {
		m.vals[i], _ = info.get(k)
	}
}

const (
	containerBytes = 16 // what an empty list or map counts for
	itemBytes      = 2  // what each element adds to its container besides its own size (its ", ")
	scalarBytes    = 8  // numbers, booleans, none, functions
)

// byteSize is the logical size of a value: a string's length, a container's elements (shared parts counted
// each time they appear, so it bounds what printing the value produces).
func (v Value) byteSize() int {
	switch v.kind {
	case KindString:
		return len(v.s)
	case KindSeq:
		return v.n
	case KindMap:
		return v.m.size
	}
	return scalarBytes
}

// seqBytes is the byte size of a sequence holding items.
func seqBytes(items []Value) int {
	n := containerBytes
	for _, it := range items {
		n = addSize(n, itemBytes+it.byteSize())
	}
	return n
}

type kwValue struct {
	name string
	v    Value
	// key is the key value when a `**m` map gave a key that is not a string (name is its stored form)
	key Value
}

// setIn stores the keyword argument in m under its key.
func (k kwValue) setIn(m *Map) {
	if strings.HasPrefix(k.name, typedKeyPrefix) {
		m.SetKey(k.key, k.v)
		return
	}
	m.Set(k.name, k.v)
}

func Undefined() Value             { return Value{} }
func NoneValue() Value             { return Value{kind: KindNone} }
func BoolValue(b bool) Value       { return Value{kind: KindBool, b: b} }
func IntValue(i int64) Value       { return Value{kind: KindInt, i: i} }
func FloatValue(f float64) Value   { return Value{kind: KindFloat, f: f} }
func StringValue(s string) Value   { return Value{kind: KindString, s: s} }
func SeqValue(items []Value) Value { return Value{kind: KindSeq, seq: items, n: seqBytes(items)} }
func MapValue(m *Map) Value        { return Value{kind: KindMap, m: m} }

// iterKind tells a plain sequence from minijinja's iterator objects.
type iterKind uint8

const (
	iterNone    iterKind = iota // a sequence
	iterSized                   // an iterator of known length: prints as a list
	iterUnsized                 // an iterator of unknown length: prints as `<iterator>`, no length
)

// invalidValue is minijinja's invalid value carrying the error msg.
func invalidValue(msg string) Value { return Value{kind: KindInvalid, s: msg} }

// valid is minijinja's check of a looked-up value: an invalid one becomes its error.
func (ec *evalCtx) valid(r Range, v Value, err error) (Value, error) {
	if err == nil && v.kind == KindInvalid {
		return Value{}, ec.fail(r, "%s", v.s)
	}
	return v, err
}

// iterValue is a sequence minijinja would hold as an iterator of unknown length.
func iterValue(items []Value) Value {
	v := SeqValue(items)
	v.iter = iterUnsized
	return v
}

// sizedIterValue is a sequence minijinja would hold as an iterator of known length.
func sizedIterValue(items []Value) Value {
	v := SeqValue(items)
	v.iter = iterSized
	return v
}

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
		if v.iter != iterNone {
			return "iterator"
		}
		return "sequence"
	case KindMap:
		return "map"
	case KindInvalid:
		return "invalid value"
	}
	return "plain object" // minijinja's kind for a function value

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
		return len(v.seq) > 0 || v.iter == iterUnsized // an iterator of unknown length is true
	case KindMap:
		return len(v.m.Keys) > 0
	case KindFunc:
		return true
	}
	return false
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
		if v.wide != nil {
			f, _ := new(big.Float).SetInt(v.wide).Float64()
			return f, true
		}
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

// maxCompareNodes bounds the elements one equality or ordering test visits.
const maxCompareNodes = 1 << 20

// equal is Jinja equality.
func equal(a, b Value) bool {
	work := maxCompareNodes
	return equalBounded(a, b, 0, &work)
}

// equalBounded is equal visiting at most *work elements and maxValueDepth levels (then: not equal).
func equalBounded(a, b Value, depth int, work *int) bool {
	if *work--; *work < 0 || depth > maxValueDepth {
		return false
	}
	if a.isNumber() && b.isNumber() {
		return equalNumbers(a, b)
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
			if !equalBounded(a.seq[i], b.seq[i], depth+1, work) {
				return false
			}
		}
		return true
	case KindMap:
		if a.m == b.m {
			return true
		}
		if len(a.m.Keys) != len(b.m.Keys) {
			return false
		}
		for _, k := range a.m.Keys {
			av, _ := a.m.Get(k)
			bv, ok := b.m.Get(k)
			if !ok || !equalBounded(av, bv, depth+1, work) {
				return false
			}
		}
		return true
	}
	return false
}

// compare orders two values; ok is false when they cannot be ordered.
func compare(a, b Value) (int, bool) {
	work := maxCompareNodes
	return compareBounded(a, b, 0, &work)
}

func compareBounded(a, b Value, depth int, work *int) (int, bool) {
	if *work--; *work < 0 || depth > maxValueDepth {
		return 0, false
	}
	if kindRank(a.kind) == int(KindInt) && kindRank(b.kind) == int(KindInt) { // bools order as bools
		return compareNumbers(a, b), true
	}
	if a.kind == KindString && b.kind == KindString {
		return strings.Compare(a.s, b.s), true
	}
	if a.kind == KindSeq && b.kind == KindSeq && (a.iter == iterNone) == (b.iter == iterNone) {
		for i := 0; i < len(a.seq) && i < len(b.seq); i++ {
			if c, ok := compareBounded(a.seq[i], b.seq[i], depth+1, work); !ok || c != 0 {
				return c, ok
			}
		}
		return len(a.seq) - len(b.seq), true
	}
	if a.kind == KindMap && b.kind == KindMap {
		return compareMaps(a.m, b.m, depth, work)
	}
	if ra, rb := a.kindRank(), b.kindRank(); ra != rb || a.kind == KindFunc {
		// minijinja orders values of different kinds by kind: undefined, none, bool, number, string,
		// sequence, map, iterator, function
		return ra - rb, true
	}
	switch a.kind {
	case KindBool:
		return boolRank(a.b) - boolRank(b.b), true
	}
	return 0, true // undefined or none on both sides
}

// kindRank is a kind's place in minijinja's order of values of different kinds.
func kindRank(k Kind) int {
	if k == KindFloat {
		return int(KindInt)
	}
	return int(k)
}

// kindRank is v's place in minijinja's order of value kinds (ValueKind): an iterator comes after maps.
func (v Value) kindRank() int {
	switch {
	case v.kind == KindSeq && v.iter != iterNone:
		return int(KindMap) + 1
	case v.kind > KindMap:
		return int(v.kind) + 1
	}
	return kindRank(v.kind)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareMaps orders maps as minijinja's sorted maps: entry by entry in key order (key, then value),
// then by size.
func compareMaps(a, b *Map, depth int, work *int) (int, bool) {
	ka, kb := slices.Sorted(slices.Values(a.Keys)), slices.Sorted(slices.Values(b.Keys))
	for i := 0; i < len(ka) && i < len(kb); i++ {
		if c := strings.Compare(ka[i], kb[i]); c != 0 {
			return c, true
		}
		if c, ok := compareBounded(a.get(ka[i]), b.get(kb[i]), depth+1, work); !ok || c != 0 {
			return c, ok
		}
	}
	return len(ka) - len(kb), true
}
