// Re-using a parse across an edit that stays inside the rendered text of one template-data node (typing
// in a prose line of a long instructions block): the new template is the old one with the ranges after
// the edit moved, which costs a fraction of lexing and parsing the whole text again.

package template

// Edit is one contiguous change from an old text to a new one: old bytes [Start, OldEnd) became new
// bytes [Start, NewEnd).
type Edit struct{ Start, OldEnd, NewEnd int }

// Diff is the edit that turns old into new: the longest common prefix, then the longest common suffix
// of what is left.
func Diff(old, new string) Edit {
	n := min(len(old), len(new))
	p := 0
	for p+diffChunk <= n && old[p:p+diffChunk] == new[p:p+diffChunk] { // whole chunks at memequal's speed
		p += diffChunk
	}
	for p < n && old[p] == new[p] {
		p++
	}
	s := 0
	for s+diffChunk <= n-p && old[len(old)-s-diffChunk:len(old)-s] == new[len(new)-s-diffChunk:len(new)-s] {
		s += diffChunk
	}
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return Edit{Start: p, OldEnd: len(old) - s, NewEnd: len(new) - s}
}

// diffChunk is how many bytes Diff compares at once before it compares byte by byte.
const diffChunk = 256

// Shift maps an offset of the old text that lies outside (Start, OldEnd) to the new text.
func (e Edit) Shift(off int) int {
	if off <= e.Start {
		return off
	}
	return off + e.NewEnd - e.OldEnd
}

func (e Edit) shiftRange(r Range) Range { return Range{Start: e.Shift(r.Start), End: e.Shift(r.End)} }

// Reuse is what Reparse found.
type Reuse struct {
	Template *Template
	Edit     Edit
	// OutputOnly: the edited text is written to the output once at most and never becomes a value
	// (every statement around it is an if or a with), so a render changes only in that text.
	OutputOnly bool
}

// Reparse returns what Parse(old.Name, src) would return, built from old (a template that parsed
// without error), when src differs from old.Source only strictly inside the rendered part (Out) of one
// template-data node and creates no tag opener there; ok is false otherwise (parse src instead). old is
// not modified: nodes wholly before the edit are shared, the others copied with their ranges moved.
func Reparse(old *Template, src string) (r Reuse, ok bool) {
	defer func() {
		if recover() != nil { // a node kind the shift does not know: parse instead
			r, ok = Reuse{}, false
		}
	}()
	if old == nil || old.Extends != nil || len(old.Blocks) > 0 {
		return Reuse{}, false
	}
	if old.Source == src {
		return Reuse{Template: old, OutputOnly: true}, true // the same text: the same (immutable) template
	}
	e := Diff(old.Source, src)
	text, outputOnly := editedText(old.Body, e, true)
	if text == nil || !(text.Out.Start < e.Start && e.OldEnd < text.Out.End) || opensTag(src[e.Start-1:e.NewEnd+1]) {
		return Reuse{}, false
	}
	t := &Template{Name: old.Name, Source: src, Blocks: map[string]*Block{}, TrailingNewline: old.TrailingNewline}
	t.Body = shiftStmts(old.Body, e)
	t.Tags = make([]Tag, len(old.Tags))
	for i, tag := range old.Tags {
		tag.R = e.shiftRange(tag.R)
		t.Tags[i] = tag
	}
	return Reuse{Template: t, Edit: e, OutputOnly: outputOnly}, true
}

// opensTag reports a `{{`, `{%` or `{#` in s.
func opensTag(s string) bool { return indexOpen(s, 0) >= 0 }

// editedText finds the Text node whose range holds the old side of e, and whether only ifs and withs
// enclose it (outputOnly as passed in while they do); nil when the edit reaches outside one Text.
func editedText(body []Stmt, e Edit, outputOnly bool) (*Text, bool) {
	for _, s := range body {
		r := s.Span()
		if r.End <= e.Start {
			continue
		}
		if r.Start > e.Start || e.OldEnd > r.End {
			return nil, false
		}
		switch s := s.(type) {
		case *Text:
			return s, outputOnly
		case *If:
			if t, o := editedText(s.Then, e, outputOnly); t != nil {
				return t, o
			}
			return editedText(s.Else, e, outputOnly)
		case *With:
			return editedText(s.Body, e, outputOnly)
		case *For:
			if t, o := editedText(s.Body, e, false); t != nil {
				return t, o
			}
			return editedText(s.Else, e, false)
		case *SetBlock:
			return editedText(s.Body, e, false)
		case *FilterBlock:
			return editedText(s.Body, e, false)
		case *AutoEscape:
			return editedText(s.Body, e, false)
		}
		return nil, false
	}
	return nil, false
}

// Shifted is a moved by e (a is not modified).
func (a *Analysis) Shifted(e Edit) *Analysis {
	return &Analysis{Uses: shiftUses(a.Uses, e), Uncounted: shiftUses(a.Uncounted, e),
		Filters: shiftFilterUses(a.Filters, e), Tests: shiftFilterUses(a.Tests, e)}
}

func shiftUses(us []VarUse, e Edit) []VarUse {
	if us == nil {
		return nil
	}
	out := make([]VarUse, len(us))
	for i, u := range us {
		u.R, u.RootR = e.shiftRange(u.R), e.shiftRange(u.RootR)
		out[i] = u
	}
	return out
}

func shiftFilterUses(us []FilterUse, e Edit) []FilterUse {
	if us == nil {
		return nil
	}
	out := make([]FilterUse, len(us))
	for i, u := range us {
		u.R = e.shiftRange(u.R)
		out[i] = u
	}
	return out
}

func shiftStmts(list []Stmt, e Edit) []Stmt {
	if list == nil {
		return nil
	}
	out := make([]Stmt, len(list))
	for i, s := range list {
		out[i] = shiftStmt(s, e)
	}
	return out
}

// shiftStmt is s with its ranges moved by e: s itself when it ends before the edit.
func shiftStmt(s Stmt, e Edit) Stmt {
	if s.Span().End <= e.Start {
		return s
	}
	switch s := s.(type) {
	case *Text:
		return &Text{R: e.shiftRange(s.R), Out: e.shiftRange(s.Out)}
	case *Emit:
		return &Emit{R: e.shiftRange(s.R), Expr: shiftExpr(s.Expr, e)}
	case *Raw:
		return &Raw{R: e.shiftRange(s.R), Body: e.shiftRange(s.Body)}
	case *If:
		return &If{R: e.shiftRange(s.R), Cond: shiftExpr(s.Cond, e), Then: shiftStmts(s.Then, e), Else: shiftStmts(s.Else, e)}
	case *For:
		return &For{R: e.shiftRange(s.R), Target: shiftExpr(s.Target, e), Iter: shiftExpr(s.Iter, e), Filter: shiftExpr(s.Filter, e),
			Recursive: s.Recursive, Body: shiftStmts(s.Body, e), Else: shiftStmts(s.Else, e)}
	case *Set:
		return &Set{R: e.shiftRange(s.R), Target: shiftExpr(s.Target, e), Value: shiftExpr(s.Value, e)}
	case *SetBlock:
		return &SetBlock{R: e.shiftRange(s.R), Target: shiftExpr(s.Target, e), Filter: shiftExpr(s.Filter, e), Body: shiftStmts(s.Body, e)}
	case *With:
		return &With{R: e.shiftRange(s.R), Targets: shiftExprs(s.Targets, e), Values: shiftExprs(s.Values, e), Body: shiftStmts(s.Body, e)}
	case *Include:
		return &Include{R: e.shiftRange(s.R), Name: shiftExpr(s.Name, e), IgnoreMissing: s.IgnoreMissing}
	case *Import:
		var names []*Name
		if s.Names != nil {
			names = make([]*Name, len(s.Names))
			for i, n := range s.Names {
				names[i] = shiftExpr(n, e).(*Name)
			}
		}
		return &Import{R: e.shiftRange(s.R), Name: shiftExpr(s.Name, e), Names: names, From: s.From}
	case *FilterBlock:
		return &FilterBlock{R: e.shiftRange(s.R), Filter: shiftExpr(s.Filter, e), Body: shiftStmts(s.Body, e)}
	case *AutoEscape:
		return &AutoEscape{R: e.shiftRange(s.R), Expr: shiftExpr(s.Expr, e), Body: shiftStmts(s.Body, e)}
	case *Do:
		return &Do{R: e.shiftRange(s.R), Call: shiftExpr(s.Call, e).(*Call)}
	}
	// Block and Extends: Reparse refuses templates that have them
	panic("template: shiftStmt: unexpected statement")
}

func shiftExprs(list []Expr, e Edit) []Expr {
	if list == nil {
		return nil
	}
	out := make([]Expr, len(list))
	for i, x := range list {
		out[i] = shiftExpr(x, e)
	}
	return out
}

func shiftKwargs(list []Kwarg, e Edit) []Kwarg {
	if list == nil {
		return nil
	}
	out := make([]Kwarg, len(list))
	for i, k := range list {
		out[i] = Kwarg{Name: k.Name, Value: shiftExpr(k.Value, e)}
	}
	return out
}

// shiftExpr is x with its ranges moved by e: x itself when it is nil or ends before the edit.
func shiftExpr(x Expr, e Edit) Expr {
	if x == nil || x.Span().End <= e.Start {
		return x
	}
	switch x := x.(type) {
	case *Name:
		return &Name{R: e.shiftRange(x.R), Name: x.Name}
	case *Const:
		return &Const{R: e.shiftRange(x.R), Value: x.Value}
	case *List:
		return &List{R: e.shiftRange(x.R), Items: shiftExprs(x.Items, e)}
	case *Tuple:
		return &Tuple{R: e.shiftRange(x.R), Items: shiftExprs(x.Items, e)}
	case *Dict:
		return &Dict{R: e.shiftRange(x.R), Keys: shiftExprs(x.Keys, e), Values: shiftExprs(x.Values, e)}
	case *GetAttr:
		return &GetAttr{R: e.shiftRange(x.R), Expr: shiftExpr(x.Expr, e), Name: x.Name, NameRange: e.shiftRange(x.NameRange)}
	case *GetItem:
		return &GetItem{R: e.shiftRange(x.R), Expr: shiftExpr(x.Expr, e), Index: shiftExpr(x.Index, e)}
	case *Slice:
		return &Slice{R: e.shiftRange(x.R), Expr: shiftExpr(x.Expr, e), Start: shiftExpr(x.Start, e), Stop: shiftExpr(x.Stop, e), Step: shiftExpr(x.Step, e)}
	case *Call:
		return &Call{R: e.shiftRange(x.R), Callee: shiftExpr(x.Callee, e), Args: shiftExprs(x.Args, e), Kwargs: shiftKwargs(x.Kwargs, e)}
	case *Filter:
		return &Filter{R: e.shiftRange(x.R), Expr: shiftExpr(x.Expr, e), Name: x.Name, NameRange: e.shiftRange(x.NameRange),
			Args: shiftExprs(x.Args, e), Kwargs: shiftKwargs(x.Kwargs, e)}
	case *Test:
		return &Test{R: e.shiftRange(x.R), Expr: shiftExpr(x.Expr, e), Name: x.Name, NameRange: e.shiftRange(x.NameRange),
			Negated: x.Negated, Args: shiftExprs(x.Args, e)}
	case *Unary:
		return &Unary{R: e.shiftRange(x.R), Op: x.Op, Expr: shiftExpr(x.Expr, e)}
	case *Binary:
		return &Binary{R: e.shiftRange(x.R), Op: x.Op, Left: shiftExpr(x.Left, e), Right: shiftExpr(x.Right, e), Chained: x.Chained}
	case *CondExpr:
		return &CondExpr{R: e.shiftRange(x.R), Cond: shiftExpr(x.Cond, e), True: shiftExpr(x.True, e), False: shiftExpr(x.False, e)}
	}
	panic("template: shiftExpr: unexpected expression")
}
