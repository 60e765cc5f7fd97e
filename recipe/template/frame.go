// Variable frames: a few names in a small slice (most frames hold one loop variable), a map past that.

package template

// frameMapAt is the number of names from which a frame switches to a map.
const frameMapAt = 8

type frame struct {
	names []string
	vals  []Value
	m     map[string]Value
}

func newFrame(kv ...any) *frame {
	f := &frame{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.set(kv[i].(string), kv[i+1].(Value))
	}
	return f
}

// reset empties f, keeping its storage.
func (f *frame) reset() {
	clear(f.vals) // drop references for the collector
	f.names, f.vals = f.names[:0], f.vals[:0]
	if f.m != nil {
		clear(f.m)
	}
}

func (f *frame) get(name string) (Value, bool) {
	if f.m != nil {
		v, ok := f.m[name]
		return v, ok
	}
	for i, n := range f.names {
		if n == name {
			return f.vals[i], true
		}
	}
	return Value{}, false
}

// each calls fn for every name in f.
func (f *frame) each(fn func(name string, v Value)) {
	for k, v := range f.m {
		fn(k, v)
	}
	for i, n := range f.names {
		fn(n, f.vals[i])
	}
}

func (f *frame) set(name string, v Value) {
	if f.m != nil {
		f.m[name] = v
		return
	}
	for i, n := range f.names {
		if n == name {
			f.vals[i] = v
			return
		}
	}
	if len(f.names) < frameMapAt {
		f.names = append(f.names, name)
		f.vals = append(f.vals, v)
		return
	}
	f.m = make(map[string]Value, 2*frameMapAt)
	for i, n := range f.names {
		f.m[n] = f.vals[i]
	}
	f.m[name] = v
	f.names, f.vals = nil, nil
}
