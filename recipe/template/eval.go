// Renderer: evaluates a parsed template with minijinja's lenient or strict undefined behaviour and
// records where each piece of output came from.

package template

import (
	"context"
	"fmt"
	"strings"
)

// UndefinedBehavior selects how undefined values behave at render time.
type UndefinedBehavior uint8

const (
	// Lenient prints undefined as "", iterates it as empty, treats it as false; operations on it fail.
	Lenient UndefinedBehavior = iota
	// Strict fails on any use of an undefined value other than `is defined` and `default`.
	Strict
)

// Loader returns the parsed template for name, or (nil, nil) when it does not exist.
type Loader func(name string) (*Template, error)

// RenderOptions configure Render.
type RenderOptions struct {
	Undefined UndefinedBehavior
	Loader    Loader
	// MaxOutput bounds the rendered size (0: DefaultMaxOutput).
	MaxOutput int
	// MaxSteps bounds the evaluation steps (0: DefaultMaxSteps).
	MaxSteps int
	// MaxValueBytes caps every intermediate value (0: DefaultMaxValueBytes).
	MaxValueBytes int
	// Context stops the render when it is done (looked at every few thousand steps); nil: never.
	Context context.Context
}

// RuntimeError is an error raised while rendering, at the range of the failing expression.
type RuntimeError struct {
	Template string
	R        Range
	Msg      string
	// Err is ErrBudget for a render stopped by its budget, the context's error when it was cancelled.
	Err error
	// Cause is the error inside an included template that Msg (minijinja's "could not render include:
	// error in …") stands for.
	Cause *RuntimeError
	// Where, when set, is minijinja's location suffix for an error it places in another template than
	// the one R is in: a syntax error in a loaded file is ` (in bad.txt:2)`, while R stays on the tag
	// that loaded it.
	Where string
}

func (e *RuntimeError) Error() string { return e.Msg }

// Unwrap returns the cause of a stopped render (ErrBudget, context.Canceled, context.DeadlineExceeded).
func (e *RuntimeError) Unwrap() error { return e.Err }

// Segment maps output bytes [Out, Out+Len) to source bytes of template Tmpl; Exact segments copy
// the source byte for byte, others stand for the expression at Src.
type Segment struct {
	Out, Src, Len int
	Tmpl          string
	Exact         bool
}

// Output is a render result with its source map.
type Output struct {
	Text     string
	Segments []Segment
	// Loaded lists every template loaded through the loader, in load order; LoadedFrom[i] is the
	// statement that loaded Loaded[i].
	Loaded     []*Template
	LoadedFrom []LoadSite
	// Steps is the evaluation steps the render took (at most RenderOptions.MaxSteps).
	Steps int
}

type loadResult struct {
	t   *Template
	err error
}

// loopIterationSteps is what one iteration of a for loop costs (it builds the `loop` object).
const loopIterationSteps = 8

// maxSegments bounds the source map of one render (a loop can write millions of small pieces).
const maxSegments = 1 << 16

type evalCtx struct {
	opts    RenderOptions
	ctx     map[string]Value
	frames  []*frame
	out     *strings.Builder
	segs    []Segment
	tmpl    *Template
	blocks  map[string][]*Block // name -> override chain, most derived first
	blockAt map[*Block]*Template
	loaded  []*Template
	from    []LoadSite // where each of loaded was loaded
	depth   int        // nested template renders, blocks and super() calls
	b       budget
	loopUse map[*For]bool
	// inh is the inheritance state of the template being rendered; extended holds the names loaded by
	// `{% extends %}` (an include forgets the ones its template loaded), for minijinja's cycle error.
	inh      *inheritance
	extended map[string]bool
	// autoescape is on inside `{% autoescape true %}` (HTML escaping of printed values)
	autoescape bool
	// loadCache holds what the loader returned for each name.
	loadCache map[string]loadResult
	// outLimit bounds ec.out: the output cap, or the value cap while capturing a block into a value.
	outLimit int
	// block is the name of the block being rendered ("" outside blocks), for debug().
	block string
	// outStack is minijinja's capture stack: the outputs a capture or `{% extends %}` put aside.
	outStack []outFrame
}

// outFrame is an output put aside by a capture (a set or filter block, an include, super()) or, with
// discard, by `{% extends %}` (minijinja's discarding capture).
type outFrame struct {
	out     *strings.Builder
	segs    []Segment
	limit   int
	discard bool
}

// pushOut puts the current output aside and starts an empty one.
func (ec *evalCtx) pushOut(discard bool) {
	ec.outStack = append(ec.outStack, outFrame{out: ec.out, segs: ec.segs, limit: ec.outLimit, discard: discard})
	ec.out = &strings.Builder{}
}

// restoreOut makes the frame at depth the current output again and drops it and every frame above it.
func (ec *evalCtx) restoreOut(depth int) (discard bool) {
	f := ec.outStack[depth]
	ec.outStack = ec.outStack[:depth]
	ec.out, ec.segs, ec.outLimit = f.out, f.segs, f.limit
	return f.discard
}

// Render renders t with the given context values.
func (t *Template) Render(ctx map[string]Value, opts RenderOptions) (*Output, error) {
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	var b strings.Builder
	b.Grow(min(len(t.Source), opts.MaxOutput)) // the output is mostly the source's text: one allocation, no regrowth
	ec := &evalCtx{opts: opts, ctx: ctx, out: &b, blocks: map[string][]*Block{}, blockAt: map[*Block]*Template{}, b: newBudget(&opts), tmpl: t}
	ec.outLimit = opts.MaxOutput
	ec.frames = []*frame{newFrame()}
	ec.addBlocks(t)
	err := ec.renderTemplate(Range{}, t)
	text := b.String()
	return &Output{Text: text, Segments: ec.segs, Loaded: ec.loaded, LoadedFrom: ec.from, Steps: min(ec.b.steps, ec.b.maxSteps)}, err
}

// strictUndefined reports an undefined value that strict mode refuses (not the silent undefined of an
// inline `if` without `else`, marked safe).
func (ec *evalCtx) strictUndefined(v Value) bool {
	return v.kind == KindUndefined && !v.safe && ec.opts.Undefined == Strict
}

func (ec *evalCtx) fail(r Range, format string, args ...any) error {
	return &RuntimeError{Template: ec.tmpl.Name, R: r, Msg: fmt.Sprintf(format, args...)}
}

// enter counts one level of nested rendering (template, block, super()) and fails past maxRenderDepth;
// the caller runs ec.depth-- when it returns.
func (ec *evalCtx) enter(r Range) error {
	ec.depth++
	if ec.depth > maxRenderDepth {
		return &RuntimeError{Template: ec.tmpl.Name, R: r, Msg: "invalid operation: recursion limit exceeded", Err: ErrBudget}
	}
	return nil
}

// autoescapeMode is minijinja's reading of an autoescape value: "html" and anything equal to true turn
// HTML escaping on, "none" and everything else that is not a string turn it off; other strings fail
// (goose builds minijinja without the json feature).
func (ec *evalCtx) autoescapeMode(s *AutoEscape, v Value) (bool, error) {
	switch {
	case v.kind == KindString && v.s == "html":
		return true, nil
	case v.kind == KindString && v.s == "none":
		return false, nil
	case v.kind == KindString:
		return false, ec.fail(s.R, "invalid operation: invalid value to autoescape tag")
	}
	return equal(v, BoolValue(true)), nil
}

func (ec *evalCtx) write(s string, src int, exact bool) error {
	if s == "" {
		return nil
	}
	if ec.out.Len()+len(s) > ec.outLimit {
		if ec.outLimit == ec.opts.MaxOutput {
			return ec.stopped(Range{Start: src, End: src}, "the output would exceed %s", byteSize(ec.opts.MaxOutput))
		}
		return ec.stopped(Range{Start: src, End: src}, "a value would exceed %s", byteSize(ec.outLimit))
	}
	if n := len(ec.segs); n >= maxSegments && ec.segs[n-1].Out+ec.segs[n-1].Len == ec.out.Len() {
		// past maxSegments the source map coarsens: the last segment grows to cover the rest
		ec.segs[n-1].Len += len(s)
		ec.segs[n-1].Exact = false
	} else {
		ec.segs = append(ec.segs, Segment{Out: ec.out.Len(), Src: src, Len: len(s), Tmpl: ec.tmpl.Name, Exact: exact})
	}
	ec.out.WriteString(s)
	return nil
}

func (ec *evalCtx) stmts(list []Stmt) error {
	for _, s := range list {
		if err := ec.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (ec *evalCtx) push(f *frame) { ec.frames = append(ec.frames, f) }
func (ec *evalCtx) pop()          { ec.frames = ec.frames[:len(ec.frames)-1] }

func (ec *evalCtx) stmt(s Stmt) error {
	if err := ec.step(s.Span()); err != nil {
		return err
	}
	src := ec.tmpl.Source
	switch s := s.(type) {
	case *Text:
		return ec.write(src[s.Out.Start:s.Out.End], s.Out.Start, true)
	case *Raw:
		return ec.write(src[s.Body.Start:s.Body.End], s.Body.Start, true)
	case *Emit:
		v, err := ec.eval(s.Expr)
		if err != nil {
			return err
		}
		if ec.strictUndefined(v) {
			return ec.fail(s.Expr.Span(), "undefined value")
		}
		text, err := ec.toString(s.Expr.Span(), v)
		if err != nil {
			return err
		}
		if ec.autoescape && !v.safe {
			text = htmlEscaper.Replace(text)
		}
		return ec.write(text, s.R.Start, false)
	case *If:
		ok, err := ec.truthy(s.Cond)
		if err != nil {
			return err
		}
		if ok {
			return ec.stmts(s.Then)
		}
		return ec.stmts(s.Else)
	case *For:
		return ec.forLoop(s)
	case *Set:
		v, err := ec.eval(s.Value)
		if err != nil {
			return err
		}
		return ec.assign(s.Target, v)
	case *SetBlock:
		v, err := ec.capture(s.Body)
		if err != nil {
			return err
		}
		if s.Filter != nil {
			if v, err = ec.applyFilterChain(s.Filter, v); err != nil {
				return err
			}
		}
		return ec.assign(s.Target, v)
	case *With:
		f := newFrame()
		for i, t := range s.Targets {
			v, err := ec.eval(s.Values[i])
			if err != nil {
				return err
			}
			if n, ok := t.(*Name); ok {
				f.set(n.Name, v)
			}
		}
		ec.push(f)
		defer ec.pop()
		return ec.stmts(s.Body)
	case *Block:
		if ec.inh != nil && ec.inh.parent != nil {
			return nil // after `{% extends %}` blocks render in the parent
		}
		return ec.renderBlock(s.R, s.Name, 0)
	case *Extends:
		return ec.extend(s)
	case *Include:
		name, err := ec.eval(s.Name)
		if err != nil {
			return err
		}
		t, err := ec.firstExisting(s.R, name, s.IgnoreMissing)
		if err != nil || t == nil {
			return err
		}
		return ec.include(s, t)
	case *Import:
		return ec.importModule(s)
	case *FilterBlock:
		captured, err := ec.capture(s.Body)
		if err != nil {
			return err
		}
		v, err := ec.applyFilterChain(s.Filter, captured)
		if err != nil {
			return err
		}
		if ec.strictUndefined(v) {
			return ec.fail(s.R, "undefined value") // the block's result is printed
		}
		text, err := ec.toString(s.R, v)
		if err != nil {
			return err
		}
		if ec.autoescape && !v.safe { // the block's result is printed as `{{ }}` prints
			text = htmlEscaper.Replace(text)
		}
		return ec.write(text, s.R.Start, false)
	case *Do:
		_, err := ec.eval(s.Call)
		return err
	case *AutoEscape:
		v, err := ec.eval(s.Expr)
		if err != nil {
			return err
		}
		on, err := ec.autoescapeMode(s, v)
		if err != nil {
			return err
		}
		saved := ec.autoescape
		ec.autoescape = on
		defer func() { ec.autoescape = saved }()
		return ec.stmts(s.Body)
	}
	return nil
}

// capture renders body into a value; an `{% extends %}` inside makes it undefined, as in minijinja (see
// captureFn).
func (ec *evalCtx) capture(body []Stmt) (Value, error) {
	text, discarded, err := ec.captureFn(func() error { return ec.stmts(body) })
	if discarded {
		return Value{}, err
	}
	v := StringValue(text)
	v.safe = ec.autoescape // minijinja captures escaped output as safe text
	return v, err
}

// captureFn runs fn with its output captured. Like minijinja's, the end of a capture pops the top of the
// capture stack: after an `{% extends %}` inside fn that is the extends tag's discarding capture
// (discarded is true, the text is not the capture's), and the output goes on into this capture's
// buffer, which nothing reads, until the template's end pops it.
func (ec *evalCtx) captureFn(fn func() error) (text string, discarded bool, err error) {
	depth := len(ec.outStack)
	limit := min(ec.outLimit, ec.b.maxBytes)
	ec.pushOut(false)
	ec.outLimit = limit
	err = fn()
	text = ec.out.String()
	if err != nil {
		ec.restoreOut(depth) // the render stops: back to where the capture started
		return text, false, err
	}
	return text, ec.restoreOut(len(ec.outStack) - 1), nil
}

func (ec *evalCtx) assign(target Expr, v Value) error {
	switch t := target.(type) {
	case *Name:
		ec.frames[len(ec.frames)-1].set(t.Name, v)
	case *Tuple:
		if v.kind != KindSeq && v.kind != KindMap {
			return ec.fail(t.R, "cannot unpack: value is not iterable") // minijinja unpacks sequences and maps only
		}
		items, err := ec.iterate(t, v)
		if err != nil {
			return err
		}
		if len(items) != len(t.Items) {
			return ec.fail(t.R, "cannot unpack: sequence of wrong length (expected %d, got %d)", len(t.Items), len(items))
		}
		for i, it := range t.Items {
			if err := ec.assign(it, items[i]); err != nil {
				return err
			}
		}
	case *GetAttr:
		obj, err := ec.eval(t.Expr)
		if err != nil {
			return err
		}
		if obj.kind != KindMap {
			return ec.fail(t.R, "invalid operation: can only assign to namespaces, not %s", obj.typeName())
		}
		if err := ec.fits(t.R, addSize(obj.byteSize(), v.byteSize())); err != nil {
			return err
		}
		obj.m.Set(t.Name, v)
		obj.m.sortKeys()
	}
	return nil
}

func (ec *evalCtx) truthy(e Expr) (bool, error) {
	v, err := ec.eval(e)
	if err != nil {
		return false, err
	}
	if ec.strictUndefined(v) {
		return false, ec.fail(e.Span(), "undefined value")
	}
	return v.Truthy(), nil
}

// bound reports whether name is a variable of the render (set to a value, undefined included): calling
// it is then minijinja's "value of type undefined is not callable", not an unknown function.
func (ec *evalCtx) bound(name string) bool {
	for _, f := range ec.frames {
		if _, ok := f.get(name); ok {
			return name != "super"
		}
	}
	_, ok := ec.ctx[name]
	return ok
}

// superFunc is the innermost block's `super` (undefined outside blocks).
func (ec *evalCtx) superFunc() Value {
	for i := len(ec.frames) - 1; i >= 0; i-- {
		if v, ok := ec.frames[i].get("super"); ok && v.kind == KindFunc {
			return v
		}
	}
	return Undefined()
}

func (ec *evalCtx) lookup(name string) Value {
	for i := len(ec.frames) - 1; i >= 0; i-- {
		if v, ok := ec.frames[i].get(name); ok {
			if name == "super" && v.kind == KindFunc {
				break // only `super()` reaches the parent block: the name alone is an undefined variable
			}
			return v
		}
	}
	if v, ok := ec.ctx[name]; ok {
		return v
	}
	if fn, ok := globalTable()[name]; ok {
		return Value{kind: KindFunc, fn: fn}
	}
	return Undefined()
}
