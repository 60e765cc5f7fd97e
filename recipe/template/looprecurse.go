// Recursive loops: `{% for x in items recursive %}…{{ loop(x.children) }}…{% endfor %}` runs the loop's
// body again over new items, one level deeper, as minijinja does.

package template

// currentLoop is the loop object of the innermost loop in scope, nil outside loops (or in a loop whose body
// never reads `loop`, whose depth no loop inside it can then depend on).
func (ec *evalCtx) currentLoop() *loopInfo {
	for i := len(ec.frames) - 1; i >= 0; i-- {
		if v, ok := ec.frames[i].get("loop"); ok {
			if v.kind == KindMap && v.m.loop != nil {
				return v.m.loop
			}
			return nil
		}
	}
	return nil
}

// loopDepth is loop.depth0 of a loop that starts here: one more than the loop around it when that loop is
// recursive, else 0.
func (ec *evalCtx) loopDepth() int {
	if cur := ec.currentLoop(); cur != nil && cur.state.recursive != nil {
		return cur.state.depth + 1
	}
	return 0
}

// callsLoop reports a call of `loop(…)` while a loop is in scope: minijinja's loop recursion, not a
// function call.
func (ec *evalCtx) callsLoop(e *Call) (*loopInfo, bool) {
	n, ok := e.Callee.(*Name)
	if !ok || n.Name != "loop" {
		return nil, false
	}
	cur := ec.currentLoop()
	return cur, cur != nil
}

// recurseLoop runs `loop(items)`: the recursive loop's body over items (no filter, no else), one level
// deeper; the call's value is the text it rendered.
func (ec *evalCtx) recurseLoop(e *Call, cur *loopInfo) (Value, error) {
	args, kwargs, err := ec.evalArgs(e.Args, e.Kwargs)
	if err != nil {
		return Value{}, err
	}
	if len(kwargs) > 0 {
		args = append(args, kwargsMap(kwargs)) // keyword arguments are one more argument, a map
	}
	if len(args) != 1 {
		return Value{}, ec.fail(e.R, "invalid operation: loop() takes one argument")
	}
	s := cur.state.recursive
	if s == nil {
		return Value{}, ec.fail(e.R, "invalid operation: cannot recurse outside of recursive loop")
	}
	items, err := ec.iterate(e, args[0])
	if err != nil {
		return Value{}, ec.fail(e.R, "invalid operation: cannot recurse because of non-iterable value")
	}
	// the loop starts again where its iterable is (minijinja's PushLoop): a recursion too deep fails there
	if err := ec.enter(s.Iter.Span()); err != nil {
		return Value{}, err
	}
	defer func() { ec.depth-- }()
	text, discarded, err := ec.captureFn(func() error {
		if len(items) == 0 {
			return nil
		}
		return ec.loopBody(s, items, unsizedIteration(args[0]))
	})
	if discarded || err != nil {
		return Value{}, err
	}
	v := StringValue(text)
	v.safe = ec.autoescape // captured output, as minijinja's capture gives it
	return v, nil
}
