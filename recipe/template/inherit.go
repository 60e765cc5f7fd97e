// Multi-template rendering as minijinja runs it: inheritance (extends, blocks, super()), include, import
// and loading through the loader.

package template

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// wrapFailure reports a failure inside an included template as minijinja does: its own
// message at r in the current template, the inner error kept as the cause. A stopped render (budget,
// cancellation) is passed on as it is.
func (ec *evalCtx) wrapFailure(r Range, err error, msg string) error {
	inner, ok := err.(*RuntimeError)
	if !ok || inner.Err != nil {
		return err
	}
	return &RuntimeError{Template: ec.tmpl.Name, R: r, Msg: msg, Cause: inner}
}

func (ec *evalCtx) renderTemplate(at Range, t *Template) error {
	defer func() { ec.depth-- }()
	if err := ec.enter(at); err != nil {
		return err
	}
	prev := ec.tmpl
	ec.tmpl = t
	defer func() { ec.tmpl = prev }()
	return ec.runBody(t.Body)
}

// runBody runs a template's body, or a block's (minijinja evaluates a block in a loop of its own, so an
// `{% extends %}` inside a block renders that parent where the block is). minijinja's inheritance: what
// comes before `{% extends %}` renders as usual; the tag loads the parent and its blocks, the rest of the
// body runs for its side effects only (output discarded, blocks not rendered), then the parent renders.
func (ec *evalCtx) runBody(body []Stmt) error {
	prevInh, depth := ec.inh, len(ec.outStack)
	ec.inh = &inheritance{}
	defer func() { ec.inh = prevInh }()
	err := ec.stmts(body)
	inh := ec.inh
	if inh.parent != nil && len(ec.outStack) > depth {
		// minijinja pops one capture here: the extends tag's, or the capture that tag left open
		ec.restoreOut(depth)
	}
	if err != nil || inh.parent == nil {
		return err
	}
	return ec.renderTemplate(inh.at, inh.parent)
}

// addBlocks puts t's blocks at the end of each block's override chain (t is the least derived so far).
func (ec *evalCtx) addBlocks(t *Template) {
	for name, b := range t.Blocks {
		ec.blocks[name] = append(ec.blocks[name], b)
		ec.blockAt[b] = t
	}
}

// firstExisting finds the template of `{% include name %}` (and of an import) as minijinja does: name is
// one template or a list of candidates, the first that exists is used; when none exists the error names
// them, or with ignoreMissing the result is nil.
func (ec *evalCtx) firstExisting(r Range, name Value, ignoreMissing bool) (*Template, error) {
	choices := []Value{name}
	switch name.kind {
	case KindSeq:
		choices = name.seq
	case KindMap:
		choices = choices[:0]
		for _, k := range name.m.Keys {
			choices = append(choices, name.m.keyOf(k))
		}
	}
	var tried []Value
	for _, c := range choices {
		if c.kind != KindString {
			return nil, ec.fail(r, "invalid operation: template name was not a string")
		}
		t, err := ec.load(r, c)
		if err != nil || t != nil {
			return t, err
		}
		tried = append(tried, c)
	}
	switch {
	case len(tried) == 0 || ignoreMissing:
		return nil, nil
	case len(tried) == 1:
		return nil, ec.fail(r, "template not found: tried to include non-existing template %q", tried[0].s)
	}
	return nil, ec.fail(r, "template not found: tried to include one of multiple templates, none of which existed %s", SeqValue(tried).reprString(maxPrintedBytes))
}

// importModule runs `{% import %}`/`{% from … import %}` as minijinja does: the template renders like an
// include (with the current variables, its output dropped) and its top-level variables become a map,
// bound as a whole or name by name (a missing name is undefined). Printed, the module is the text
// its template rendered.
func (ec *evalCtx) importModule(s *Import) error {
	name, err := ec.eval(s.Name)
	if err != nil {
		return err
	}
	t, err := ec.firstExisting(s.R, name, false)
	if err != nil {
		return err
	}
	savedBlocks, savedExtended := ec.blocks, ec.extended
	ec.blocks, ec.extended = map[string][]*Block{}, maps.Clone(savedExtended)
	ec.addBlocks(t)
	top := newFrame()
	ec.push(top)
	text, _, err := ec.captureFn(func() error { return ec.renderTemplate(s.R, t) })
	ec.pop()
	ec.blocks, ec.extended = savedBlocks, savedExtended
	if err != nil {
		return ec.wrapFailure(s.R, err, "could not render include: error in \""+t.Name+"\"")
	}
	module := NewMap()
	module.module = &text
	module.size = addSize(module.size, len(text))
	var names []string
	top.each(func(n string, _ Value) { names = append(names, n) })
	slices.Sort(names) // minijinja's module is a sorted map
	for _, n := range names {
		v, _ := top.get(n)
		module.Set(n, v)
	}
	f := ec.frames[len(ec.frames)-1]
	if s.From == nil {
		for _, n := range s.Names {
			f.set(n.Name, MapValue(module))
		}
		return nil
	}
	for i, n := range s.Names {
		f.set(n.Name, module.get(s.From[i]))
	}
	return nil
}

// include renders an included template as minijinja does: with its own blocks, forgetting the
// templates its own extends tags loaded once it is done.
func (ec *evalCtx) include(s *Include, t *Template) error {
	savedBlocks, savedExtended := ec.blocks, ec.extended
	ec.blocks = map[string][]*Block{}
	ec.extended = maps.Clone(savedExtended)
	ec.addBlocks(t)
	// the included template escapes as its own name says, whatever the includer's autoescape block
	savedEscape := ec.autoescape
	ec.autoescape = escapesByName(t.Name)
	err := ec.renderTemplate(s.R, t)
	ec.blocks, ec.extended, ec.autoescape = savedBlocks, savedExtended, savedEscape
	if err != nil {
		return ec.wrapFailure(s.R, err, "could not render include: error in \""+t.Name+"\"")
	}
	return nil
}

// escapesByName is minijinja's default auto-escape choice for a template name (goose sets no other):
// HTML for an html, htm or xml extension, a trailing .j2 ignored (a name without a dot is its own
// extension); goose's build has no json feature, so nothing else escapes.
func escapesByName(name string) bool {
	name = strings.TrimSuffix(name, ".j2")
	switch name[strings.LastIndexByte(name, '.')+1:] {
	case "html", "htm", "xml":
		return true
	}
	return false
}

// inheritance is the `{% extends %}` state of one template render.
type inheritance struct {
	parent *Template // the template the tag loaded; nil before the tag
	at     Range     // the tag
}

// extend runs an `{% extends %}` tag: it loads the parent and its blocks and discards output from here on.
func (ec *evalCtx) extend(s *Extends) error {
	if ec.inh.parent != nil {
		return ec.fail(s.R, "invalid operation: tried to extend a second time in a template")
	}
	name, err := ec.eval(s.Name)
	if err != nil {
		return err
	}
	if name.kind == KindString && ec.extended[name.s] {
		return ec.fail(s.R, "invalid operation: cycle in template inheritance. %q was referenced more than once", name.s)
	}
	parent, err := ec.loadExisting(s.R, name)
	if err != nil {
		return err
	}
	if ec.extended == nil {
		ec.extended = map[string]bool{}
	}
	ec.extended[parent.Name] = true
	ec.addBlocks(parent)
	ec.inh.parent, ec.inh.at = parent, s.R
	ec.pushOut(true)
	return nil
}

// LoadSite is the statement (`extends`, `include`, `import`, `from`) that first loaded a template: the
// name of the template it is in and its range there.
type LoadSite struct {
	Template string
	R        Range
}

// RootSite follows the chain of loads that brought Loaded[i] into a render of root back to root's own
// statement (an include inside an included file leads to the include in root).
func (o *Output) RootSite(root string, i int) (Range, bool) {
	site := o.LoadedFrom[i]
	for seen := 0; site.Template != root && seen < len(o.Loaded); seen++ {
		j := slices.IndexFunc(o.Loaded, func(t *Template) bool { return t.Name == site.Template })
		if j < 0 {
			return Range{}, false
		}
		site = o.LoadedFrom[j]
	}
	return site.R, site.Template == root
}

// load returns the template name names, nil when the loader has no such template.
func (ec *evalCtx) load(r Range, name Value) (*Template, error) {
	if name.kind != KindString {
		return nil, ec.fail(r, "invalid operation: template name was not a string")
	}
	if ec.opts.Loader == nil {
		return nil, nil
	}
	res, seen := ec.loadCache[name.s]
	if !seen {
		// an include in a loop reads and parses its file once
		res.t, res.err = ec.opts.Loader(name.s)
		if ec.loadCache == nil {
			ec.loadCache = map[string]loadResult{}
		}
		ec.loadCache[name.s] = res
		if t := res.t; t != nil && res.err == nil {
			ec.loaded = append(ec.loaded, t)
			ec.from = append(ec.from, LoadSite{Template: ec.tmpl.Name, R: r})
			if err := ec.work(r, len(t.Source)/64); err != nil {
				return nil, err
			}
		}
	}
	if res.err != nil {
		err := ec.fail(r, "%s", res.err.Error())
		var se *SyntaxError
		if errors.As(res.err, &se) && se.Line > 0 {
			// goose names the file and minijinja's line in it
			err.(*RuntimeError).Where = fmt.Sprintf(" (in %s:%d)", name.s, se.Line)
		}
		return nil, err
	}
	return res.t, nil // nil: not found
}

// loadExisting is load failing with minijinja's "does not exist" when the template is not found.
func (ec *evalCtx) loadExisting(r Range, name Value) (*Template, error) {
	t, err := ec.load(r, name)
	if err == nil && t == nil {
		return nil, ec.fail(r, "template not found: template %q does not exist", name.s)
	}
	return t, err
}

func (ec *evalCtx) renderBlock(at Range, name string, level int) error {
	defer func() { ec.depth-- }()
	if err := ec.enter(at); err != nil {
		return err
	}
	chain := ec.blocks[name]
	if level >= len(chain) {
		return nil
	}
	b := chain[level]
	prev, prevBlock := ec.tmpl, ec.block
	ec.tmpl, ec.block = ec.blockAt[b], name
	defer func() { ec.tmpl, ec.block = prev, prevBlock }()
	ec.push(newFrame("super", Value{kind: KindFunc, fn: func(ec *evalCtx, _ []Value, _ []kwValue) (Value, error) {
		if level+1 >= len(ec.blocks[name]) {
			return Value{}, errors.New("invalid operation: no parent block exists")
		}
		text, _, err := ec.captureFn(func() error { return ec.renderBlock(at, name, level+1) })
		if inner, ok := err.(*RuntimeError); ok && inner.Err == nil {
			// a plain error: the call reports it at the `super()` call
			return Value{}, errors.New("could not render block: error in super block")
		} else if err != nil {
			return Value{}, err
		}
		return StringValue(text), nil
	}}))
	defer ec.pop()
	return ec.runBody(b.Body)
}
