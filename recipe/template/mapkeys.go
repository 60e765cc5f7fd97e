// Map keys that are not strings (`{1: x}`, `{none: y}`): minijinja keeps the key's value, prints it as
// such and sorts it by value; goose-ls stores it under an encoded string that no string key can equal.

package template

import (
	"math"
	"sort"
	"strings"
)

// typedKeyPrefix starts the stored form of a non-string key (a NUL cannot be typed in a template key
// without an escape, and such a key is only ever compared, never printed).
const typedKeyPrefix = "\x00"

// mapKey is how a key value is stored: a string as itself, anything else encoded by kind and repr
// (an integral float is its integer, as minijinja's keys compare).
func mapKey(k Value) string {
	switch k.kind {
	case KindString:
		return k.s
	case KindFloat:
		if k.f == math.Trunc(k.f) && math.Abs(k.f) < 1<<53 {
			k = IntValue(int64(k.f))
		}
	}
	return typedKeyPrefix + k.reprString(1024)
}

// keyOf is the key value stored under k.
func (m *Map) keyOf(k string) Value {
	if strings.HasPrefix(k, typedKeyPrefix) {
		if v, ok := m.keyVals[k]; ok {
			return v
		}
	}
	return StringValue(k)
}

// SetKey sets the entry of a key value of any kind.
func (m *Map) SetKey(key, v Value) {
	k := mapKey(key)
	if key.kind != KindString {
		if m.keyVals == nil {
			m.keyVals = map[string]Value{}
		}
		m.keyVals[k] = key
	}
	m.Set(k, v)
}

// lessKey orders keys as minijinja's sorted maps do: by value (undefined, none, bool, number, string).
func (m *Map) lessKey(a, b string) bool {
	if len(m.keyVals) == 0 {
		return a < b
	}
	c, _ := compare(m.keyOf(a), m.keyOf(b))
	return c < 0
}

// sortKeys orders the entries by key: goose's minijinja is built without `preserve_order`, so its
// maps (literals, `dict`, `namespace`) are BTreeMaps that print and iterate in key order.
func (m *Map) sortKeys() {
	if m.loop != nil || sort.SliceIsSorted(m.Keys, func(i, j int) bool { return m.lessKey(m.Keys[i], m.Keys[j]) }) {
		return
	}
	order := make([]int, len(m.Keys))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return m.lessKey(m.Keys[order[a]], m.Keys[order[b]]) })
	keys := make([]string, len(order))
	vals := make([]Value, len(order))
	for i, j := range order {
		keys[i], vals[i] = m.Keys[j], m.vals[j]
	}
	m.Keys, m.vals = keys, vals
	if m.index != nil {
		for i, k := range keys {
			m.index[k] = i
		}
	}
}
