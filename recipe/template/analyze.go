// Undeclared-variable analysis with minijinja's `undeclared_variables(true)` scoping, keeping every use.

package template

import "strings"

// VarUse is one read of a variable the template does not assign.
type VarUse struct {
	// Name is what minijinja reports: the dotted path for a pure attribute chain (`user.name`),
	// else the root name.
	Name  string
	Root  string
	R     Range // the whole reported expression
	RootR Range // the root identifier
}

// FilterUse is one filter application (for completion, hover and semantic tokens).
type FilterUse struct {
	Name string
	R    Range
}

// Analysis is what the static walk finds.
type Analysis struct {
	Uses []VarUse
	// Uncounted are variable reads minijinja's walk does not visit (template names, slice bases, filter-
	// and set-block filters, autoescape values): goose does not count them, the editor still renames them.
	Uncounted []VarUse
	Filters   []FilterUse
	Tests     []FilterUse
}

// Names returns the distinct reported names in first-use order.
func (a *Analysis) Names() []string {
	seen := map[string]bool{}
	var out []string
	for _, u := range a.Uses {
		if !seen[u.Name] {
			seen[u.Name] = true
			out = append(out, u.Name)
		}
	}
	return out
}

type analyzer struct {
	scopes []map[string]bool
	out    *Analysis
	// quiet > 0 while walking an expression minijinja's walk does not visit
	quiet int
}

// Analyze walks t and reports every read of an unassigned variable.
func Analyze(t *Template) *Analysis {
	a := &analyzer{scopes: []map[string]bool{{"self": true}}, out: &Analysis{}}
	a.stmts(t.Body)
	return a.out
}

func (a *analyzer) assigned(name string) bool {
	for i := len(a.scopes) - 1; i >= 0; i-- {
		if a.scopes[i][name] {
			return true
		}
	}
	return false
}

func (a *analyzer) push(names ...string) {
	s := make(map[string]bool, len(names))
	for _, n := range names {
		s[n] = true
	}
	a.scopes = append(a.scopes, s)
}

func (a *analyzer) pop() { a.scopes = a.scopes[:len(a.scopes)-1] }

func (a *analyzer) assign(target Expr) {
	switch t := target.(type) {
	case *Name:
		a.scopes[len(a.scopes)-1][t.Name] = true
	case *Tuple:
		for _, it := range t.Items {
			a.assign(it)
		}
	}
	// `set ns.x = …` assigns nothing and reads nothing to minijinja
}

// quietly walks e for its filters and tests only: minijinja's variable walk does not visit it.
func (a *analyzer) quietly(e Expr) {
	a.quiet++
	a.expr(e)
	a.quiet--
}

func (a *analyzer) body(list []Stmt, names ...string) {
	a.push(names...)
	a.stmts(list)
	a.pop()
}

func (a *analyzer) stmts(list []Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *analyzer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Emit:
		a.expr(s.Expr)
	case *If:
		a.expr(s.Cond)
		a.body(s.Then)
		a.body(s.Else)
	// the order and the expressions visited are minijinja's (compiler/meta.rs): a target is assigned
	// before its value is read, and template names, filter-block and set-block filters and autoescape
	// values are not visited (walked quietly: their filters and tests still count for the editor)
	case *For:
		a.push("loop")
		a.expr(s.Iter)
		a.assign(s.Target)
		if s.Filter != nil {
			a.expr(s.Filter)
		}
		a.stmts(s.Body)
		a.pop()
		a.body(s.Else)
	case *Set:
		a.assign(s.Target)
		a.expr(s.Value)
	case *SetBlock:
		a.assign(s.Target)
		a.quietly(s.Filter)
		a.body(s.Body)
	case *With:
		a.push()
		for i, t := range s.Targets {
			a.assign(t)
			a.expr(s.Values[i])
		}
		a.stmts(s.Body)
		a.pop()
	case *Block:
		a.body(s.Body, "super")
	case *Extends:
		a.quietly(s.Name)
	case *Include:
		a.quietly(s.Name)
	case *Import:
		a.quietly(s.Name)
		for _, n := range s.Names {
			a.assign(n)
		}
	case *FilterBlock:
		a.quietly(s.Filter)
		a.body(s.Body)
	case *AutoEscape:
		a.quietly(s.Expr)
		a.body(s.Body)
	case *Do:
		a.expr(s.Call)
	}
}

// attrPath returns the dotted path and root of a pure attribute chain ending in a Name.
func attrPath(e Expr) (path string, root *Name, ok bool) {
	var parts []string
	for {
		switch x := e.(type) {
		case *GetAttr:
			parts = append(parts, x.Name)
			e = x.Expr
			continue
		case *Name:
			var b strings.Builder
			b.WriteString(x.Name)
			for i := len(parts) - 1; i >= 0; i-- {
				b.WriteByte('.')
				b.WriteString(parts[i])
			}
			return b.String(), x, true
		}
		return "", nil, false
	}
}

// record keeps a variable read: a counted use, or an uncounted one inside an expression walked quietly.
func (a *analyzer) record(u VarUse) {
	if a.quiet == 0 {
		a.out.Uses = append(a.out.Uses, u)
	} else {
		a.out.Uncounted = append(a.out.Uncounted, u)
	}
}

func (a *analyzer) expr(e Expr) {
	switch e := e.(type) {
	case nil:
	case *Name:
		if !a.assigned(e.Name) {
			a.record(VarUse{Name: e.Name, Root: e.Name, R: e.R, RootR: e.R})
		}
	case *GetAttr:
		if path, root, ok := attrPath(e); ok {
			if !a.assigned(root.Name) {
				a.record(VarUse{Name: path, Root: root.Name, R: e.R, RootR: root.R})
			}
			return
		}
		// not a pure path: only the base of the attribute chain reads variables (walking it level by
		// level would re-scan the chain at each level, quadratic in its length)
		base := e.Expr
		for {
			g, ok := base.(*GetAttr)
			if !ok {
				break
			}
			base = g.Expr
		}
		a.expr(base)
	case *GetItem:
		a.expr(e.Expr)
		a.expr(e.Index)
	case *Slice:
		a.quietly(e.Expr) // minijinja's walk visits the bounds only
		a.expr(e.Start)
		a.expr(e.Stop)
		a.expr(e.Step)
	case *Call:
		a.expr(e.Callee)
		a.exprs(e.Args)
		for _, k := range e.Kwargs {
			a.expr(k.Value)
		}
	case *Filter:
		a.expr(e.Expr)
		a.out.Filters = append(a.out.Filters, FilterUse{Name: e.Name, R: e.NameRange})
		a.exprs(e.Args)
		for _, k := range e.Kwargs {
			a.expr(k.Value)
		}
	case *Test:
		a.expr(e.Expr)
		a.out.Tests = append(a.out.Tests, FilterUse{Name: e.Name, R: e.NameRange})
		a.exprs(e.Args)
		for _, k := range e.Kwargs {
			a.expr(k.Value)
		}
	case *Unary:
		a.expr(e.Expr)
	case *Binary:
		a.expr(e.Left)
		a.expr(e.Right)
	case *CondExpr:
		a.expr(e.True) // source order: `true if cond else false`
		a.expr(e.Cond)
		a.expr(e.False)
	case *List:
		a.exprs(e.Items)
	case *Tuple:
		a.exprs(e.Items)
	case *Dict:
		a.exprs(e.Keys)
		a.exprs(e.Values)
	}
}

func (a *analyzer) exprs(list []Expr) {
	for _, e := range list {
		a.expr(e)
	}
}
