// For loops: iterating values as minijinja does, the loop body per item, and the `loop` object when the body reads it.

package template

import (
	"strings"
	"unicode/utf8"
)

// iterate turns v into a list of items (map keys, string characters).
func (ec *evalCtx) iterate(e Expr, v Value) ([]Value, error) {
	switch v.kind {
	case KindSeq:
		return v.seq, nil
	case KindMap:
		items := make([]Value, len(v.m.Keys))
		for i, k := range v.m.Keys {
			items[i] = v.m.keyOf(k)
		}
		return items, nil
	case KindString:
		if err := ec.fitsItems(e.Span(), utf8.RuneCountInString(v.s), 1); err != nil {
			return nil, err
		}
		var items []Value
		for _, r := range v.s {
			items = append(items, StringValue(string(r)))
		}
		return items, nil
	case KindUndefined:
		if ec.strictUndefined(v) {
			return nil, ec.fail(e.Span(), "undefined value")
		}
		return nil, nil
	case KindNone:
		return nil, nil // minijinja iterates none as empty
	}
	return nil, ec.fail(e.Span(), "invalid operation: %s is not iterable", v.typeName())
}

func (ec *evalCtx) forLoop(s *For) error {
	iv, err := ec.eval(s.Iter)
	if err != nil {
		return err
	}
	items, err := ec.iterate(s.Iter, iv)
	if err != nil {
		return err
	}
	if s.Filter != nil {
		var kept []Value
		scratch := newFrame()
		for _, it := range items {
			if it.kind == KindInvalid {
				return ec.fail(s.Iter.Span(), "%s", it.s)
			}
			scratch.reset()
			ec.push(scratch)
			if err := ec.assign(s.Target, it); err != nil {
				ec.pop()
				return err
			}
			ok, err := ec.truthy(s.Filter)
			ec.pop()
			if err != nil {
				return err
			}
			if ok {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if len(items) == 0 {
		return ec.stmts(s.Else)
	}
	return ec.loopBody(s, items, unsizedIteration(iv) && s.Filter == nil)
}

// unsizedIteration: minijinja iterates v without knowing its length (a string's characters, an iterator of
// unknown length), so loop.length is undefined.
func unsizedIteration(v Value) bool { return v.kind == KindString || v.iter == iterUnsized }

// loopBody runs the body of s once per item (a for loop past its filter, or a recursion through `loop(…)`).
// unsized: the items came from an iterator of unknown length (loop.length is then undefined).
func (ec *evalCtx) loopBody(s *For, items []Value, unsized bool) error {
	needLoop := ec.needsLoopObject(s)
	iterFrame := newFrame() // re-used: nothing keeps a frame past its iteration
	state := &loopState{depth: ec.loopDepth(), unsized: unsized}
	if s.Recursive {
		state.recursive = s
	}
	for i, it := range items {
		if err := ec.work(s.R, loopIterationSteps); err != nil {
			return err
		}
		if it.kind == KindInvalid {
			// minijinja validates each item as the loop reaches it
			return ec.fail(s.Iter.Span(), "%s", it.s)
		}
		if !needLoop {
			iterFrame.reset()
			ec.push(iterFrame)
			err := ec.assign(s.Target, it)
			if err == nil {
				err = ec.stmts(s.Body)
			}
			ec.pop()
			if err != nil {
				return err
			}
			continue
		}
		iterFrame.reset()
		iterFrame.set("loop", MapValue(newLoopObject(items, i, state)))
		ec.push(iterFrame)
		if err := ec.assign(s.Target, it); err != nil {
			ec.pop()
			return err
		}
		err := ec.stmts(s.Body)
		ec.pop()
		if err != nil {
			return err
		}
	}
	return nil
}

// needsLoopObject reports whether the body of s may read `loop` (building it is most of an iteration's
// cost): a conservative look at the statement's text, remembered per statement.
func (ec *evalCtx) needsLoopObject(s *For) bool {
	if need, ok := ec.loopUse[s]; ok {
		return need
	}
	text := ec.tmpl.Source[s.R.Start:s.R.End]
	need := strings.Contains(text, "loop") || strings.Contains(text, "include") || strings.Contains(text, "block") ||
		strings.Contains(text, "debug") // debug() prints the loop object
	if ec.loopUse == nil {
		ec.loopUse = map[*For]bool{}
	}
	ec.loopUse[s] = need
	return need
}
