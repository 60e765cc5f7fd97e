// The `loop` object of a for loop, computed on demand from the iteration's position.

package template

import "errors"

// loopKeys are the `loop` attributes in minijinja's order (previtem/nextitem only where they exist).
var loopKeys = []string{"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "previtem", "nextitem"}

// loopKeysFirst are the keys of the first of several iterations (no previtem).
var loopKeysFirst = append(append([]string{}, loopKeys[:8]...), "nextitem")

type loopInfo struct {
	items   []Value
	i       int
	changed *loopChanged // shared by every iteration of one loop
}

// loopChanged is what `loop.changed(…)` compares with: the arguments of the loop's previous call.
type loopChanged struct {
	last   []Value
	called bool
}

// newLoopObject is the `loop` map for iteration i over items; state is the loop's own (one per loop).
func newLoopObject(items []Value, i int, state *loopChanged) *Map {
	keys := loopKeys[:8]
	switch {
	case i > 0 && i+1 < len(items):
		keys = loopKeys
	case i > 0:
		keys = loopKeys[:9]
	case i+1 < len(items):
		keys = loopKeysFirst
	}
	m := &Map{Keys: keys[:len(keys):len(keys)], loop: &loopInfo{items: items, i: i, changed: state}}
	m.size = containerBytes + 8*(itemBytes+8+scalarBytes)
	if i > 0 {
		m.size += items[i-1].byteSize()
	}
	if i+1 < len(items) {
		m.size += items[i+1].byteSize()
	}
	return m
}

// cycle is `loop.cycle(a, b, …)`: the argument at the iteration's index modulo their count (keyword
// arguments count as one more, a map, as minijinja passes them).
func (l *loopInfo) cycle(_ *evalCtx, args []Value, kwargs []kwValue) (Value, error) {
	if len(kwargs) > 0 {
		m := NewMap()
		for _, kw := range kwargs {
			m.Set(kw.name, kw.v)
		}
		args = append(args[:len(args):len(args)], MapValue(m))
	}
	if len(args) == 0 {
		return Value{}, errors.New("invalid operation: loop.cycle needs at least one value")
	}
	return args[l.i%len(args)], nil
}

// changedCall is `loop.changed(a, …)`: true when the arguments differ from those of the loop's previous
// call (every call counts, in any iteration; the first is always true), as minijinja's.
func (l *loopInfo) changedCall(_ *evalCtx, args []Value, _ []kwValue) (Value, error) {
	st := l.changed
	same := st.called && len(st.last) == len(args)
	for i := 0; same && i < len(args); i++ {
		same = equal(st.last[i], args[i])
	}
	st.last, st.called = append([]Value(nil), args...), true
	return BoolValue(!same), nil
}

func (l *loopInfo) get(k string) (Value, bool) {
	n, i := len(l.items), l.i
	switch k {
	case "index":
		return IntValue(int64(i + 1)), true
	case "index0":
		return IntValue(int64(i)), true
	case "revindex":
		return IntValue(int64(n - i)), true
	case "revindex0":
		return IntValue(int64(n - i - 1)), true
	case "first":
		return BoolValue(i == 0), true
	case "last":
		return BoolValue(i == n-1), true
	case "length":
		return IntValue(int64(n)), true
	case "depth":
		return IntValue(1), true
	case "previtem":
		if i > 0 {
			return l.items[i-1], true
		}
	case "nextitem":
		if i+1 < n {
			return l.items[i+1], true
		}
	}
	return Value{}, false
}

// get is Get without the found flag (undefined when missing).
func (m *Map) get(k string) Value {
	v, _ := m.Get(k)
	return v
}
