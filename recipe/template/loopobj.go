// The `loop` object of a for loop, computed on demand from the iteration's position.

package template

import (
	"errors"
	"fmt"
)

// loopKeys are the `loop` attributes in minijinja's order. goose builds minijinja without
// adjacent_loop_items, so there is no previtem or nextitem.
var loopKeys = []string{"index0", "index", "length", "revindex", "revindex0", "first", "last", "depth", "depth0"}

type loopInfo struct {
	items []Value
	i     int
	state *loopState // shared by every iteration of one loop
}

// loopState is what the iterations of one loop share.
type loopState struct {
	// last and called are what `loop.changed(…)` compares with: the arguments of the previous call.
	last   []Value
	called bool
	// depth counts the recursive loops around this one (loop.depth0).
	depth int
	// recursive is the `{% for … recursive %}` statement `loop(…)` runs again; nil for other loops.
	recursive *For
	// unsized: the loop walks an iterator of unknown length (loop.length is undefined, printed `?`).
	unsized bool
}

// newLoopObject is the `loop` map for iteration i over items; state is the loop's own (one per loop).
func newLoopObject(items []Value, i int, state *loopState) *Map {
	m := &Map{Keys: loopKeys[:len(loopKeys):len(loopKeys)], loop: &loopInfo{items: items, i: i, state: state}}
	m.size = containerBytes + len(loopKeys)*(itemBytes+8+scalarBytes)
	return m
}

// String is how minijinja prints a loop object: `<loop INDEX0/LENGTH>`.
func (l *loopInfo) String() string {
	if l.state.unsized {
		return fmt.Sprintf("<loop %d/?>", l.i)
	}
	return fmt.Sprintf("<loop %d/%d>", l.i, len(l.items))
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
	st := l.state
	same := st.called && len(st.last) == len(args)
	for i := 0; same && i < len(args); i++ {
		same = equal(st.last[i], args[i])
	}
	st.last, st.called = append([]Value(nil), args...), true
	return BoolValue(!same), nil
}

func (l *loopInfo) get(k string) (Value, bool) {
	n, i := len(l.items), l.i
	sized := !l.state.unsized
	switch k {
	case "index":
		return IntValue(int64(i + 1)), true
	case "index0":
		return IntValue(int64(i)), true
	case "revindex":
		if sized {
			return IntValue(int64(n - i)), true
		}
		return Undefined(), true
	case "revindex0":
		if sized {
			return IntValue(int64(n - i - 1)), true
		}
		return Undefined(), true
	case "first":
		return BoolValue(i == 0), true
	case "last":
		return BoolValue(sized && i == n-1), true
	case "length":
		if sized {
			return IntValue(int64(n)), true
		}
		return Undefined(), true
	case "depth":
		return IntValue(int64(l.state.depth + 1)), true
	case "depth0":
		return IntValue(int64(l.state.depth)), true
	}
	return Value{}, false
}

// get is Get without the found flag (undefined when missing).
func (m *Map) get(k string) Value {
	v, _ := m.Get(k)
	return v
}
