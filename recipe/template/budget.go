// Evaluation budget: a step limit, a byte cap on every intermediate value, a render-recursion limit and
// cancellation through a context, so a hostile template ends with a clean error instead of eating the machine.

package template

import (
	"context"
	"errors"
	"fmt"
)

const (
	// DefaultMaxSteps is the number of evaluation steps (statements, expressions and units of builtin
	// work) a render may take.
	DefaultMaxSteps = 2_000_000
	// DefaultMaxValueBytes caps the size of every intermediate value (strings, lists, maps).
	DefaultMaxValueBytes = 1 << 20
	// DefaultMaxOutput caps the rendered text (twice the largest file checked, recipe.DefaultMaxSize).
	DefaultMaxOutput = 16 << 20
	// maxRenderDepth bounds nested template renders, blocks and super() calls (include/extends cycles,
	// a block reached again through super()).
	maxRenderDepth = 100
	// maxValueDepth bounds how deeply values nest when printed or compared (a namespace can hold itself).
	maxValueDepth = 256
	// cancelCheckEvery is how many steps pass between two looks at the context.
	cancelCheckEvery = 4096
)

// ErrBudget marks the errors raised because a render exceeded its budget (steps, value size, depth).
var ErrBudget = errors.New("template evaluation stopped")

type budget struct {
	ctx      context.Context
	steps    int
	maxSteps int
	maxBytes int
	// built counts the bytes of the values built so far (every one passes fits), so many values that
	// each fit cannot together exhaust memory.
	built, maxBuilt int
}

// valueStructBytes is what one element of a sequence occupies in memory besides its content.
const valueStructBytes = 96

func newBudget(opts *RenderOptions) budget {
	b := budget{ctx: opts.Context, maxSteps: opts.MaxSteps, maxBytes: opts.MaxValueBytes}
	if b.maxSteps <= 0 {
		b.maxSteps = DefaultMaxSteps
	}
	if b.maxBytes <= 0 {
		b.maxBytes = DefaultMaxValueBytes
	}
	b.maxBuilt = 64 * b.maxBytes
	return b
}

// stopped is the error for a budget exceeded at r.
func (ec *evalCtx) stopped(r Range, format string, args ...any) error {
	return &RuntimeError{Template: ec.tmpl.Name, R: r, Msg: "template evaluation stopped: " + fmt.Sprintf(format, args...), Err: ErrBudget}
}

// step charges one evaluation step to r's node and looks at the context now and then.
func (ec *evalCtx) step(r Range) error { return ec.work(r, 1) }

// work charges n steps (builtin work proportional to the size of what it walks).
func (ec *evalCtx) work(r Range, n int) error {
	before := ec.b.steps
	ec.b.steps += max(n, 1)
	if ec.b.steps > ec.b.maxSteps {
		return ec.stopped(r, "more than %d steps", ec.b.maxSteps)
	}
	if ec.b.ctx != nil && before/cancelCheckEvery != ec.b.steps/cancelCheckEvery {
		if err := ec.b.ctx.Err(); err != nil {
			return &RuntimeError{Template: ec.tmpl.Name, R: r, Msg: "template evaluation stopped: " + err.Error(), Err: err}
		}
	}
	return nil
}

// fits fails when a value of n bytes would exceed the cap (n < 0 means an overflowing computation), and
// counts it against the bytes a render may build in all.
func (ec *evalCtx) fits(r Range, n int) error {
	if n < 0 || n > ec.b.maxBytes {
		return ec.stopped(r, "a value would exceed %s", byteSize(ec.b.maxBytes))
	}
	ec.b.built += n
	if ec.b.built > ec.b.maxBuilt {
		return ec.stopped(r, "more than %s of values built", byteSize(ec.b.maxBuilt))
	}
	return ec.work(r, n/64)
}

// fitsItems checks a sequence of n elements of about per bytes each before it is built.
func (ec *evalCtx) fitsItems(r Range, n, per int) error {
	if err := ec.fits(r, addSize(containerBytes, mulSize(n, per+itemBytes))); err != nil {
		return err
	}
	ec.b.built += mulSize(n, valueStructBytes)
	return nil
}

// fitsValue checks a computed value against the cap.
func (ec *evalCtx) fitsValue(r Range, v Value) (Value, error) {
	if err := ec.fits(r, v.byteSize()); err != nil {
		return Value{}, err
	}
	if v.kind == KindSeq {
		ec.b.built += mulSize(len(v.seq), valueStructBytes)
	}
	return v, nil
}

// toString prints v for output or concatenation, within the value cap.
func (ec *evalCtx) toString(r Range, v Value) (string, error) {
	if v.kind != KindSeq && v.kind != KindMap {
		return v.String(), nil
	}
	s := v.reprString(ec.b.maxBytes)
	if err := ec.fits(r, len(s)); err != nil {
		return "", err
	}
	return s, nil
}

// mulSize is a*b, or -1 when it overflows (negative inputs are treated as 0).
func mulSize(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > (1<<62)/b {
		return -1
	}
	return a * b
}

// addSize is a+b saturating at a large value instead of overflowing.
func addSize(a, b int) int {
	if a < 0 || b < 0 || a > 1<<61 || b > 1<<61 {
		return 1 << 62
	}
	return a + b
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
