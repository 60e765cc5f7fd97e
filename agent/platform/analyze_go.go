// Go source analysis for the analyze tool with the standard library's go/parser: functions (with their
// parameters and receiver type), types (with up to five field names), imports and calls, as goose's
// tree-sitter queries for Go collect them.

package platform

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// fileAnalysis is what the analyze views are made of.
type fileAnalysis struct {
	path      string // absolute
	language  string
	loc       int
	functions []symbol
	classes   []symbol
	imports   []importCount
	calls     []call
}

type symbol struct {
	name   string
	line   int
	parent string // receiver type of a method
	detail string // parameters, or a type's fields
}

type importCount struct {
	module string
	count  int
}

type call struct {
	caller, callee string
	line           int
}

// analyzeGo parses one Go file; false for text go/parser cannot read at all.
func analyzeGo(path string, src []byte) (*fileAnalysis, bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, path, src, parser.SkipObjectResolution) // a partial tree on syntax errors
	if f == nil {
		return nil, false
	}
	a := &fileAnalysis{path: path, language: "go", loc: countLines(string(src))}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	text := func(n ast.Node) string {
		start, end := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
		if start < 0 || end > len(src) || start > end {
			return ""
		}
		return string(src[start:end])
	}
	for _, imp := range f.Imports {
		module, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			module = imp.Path.Value
		}
		a.addImport(module)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			sym := symbol{name: d.Name.Name, line: line(d.Name.Pos()), detail: signature(text(d.Type.Params))}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				sym.parent = receiverType(d.Recv.List[0].Type)
			}
			a.functions = append(a.functions, sym)
			if d.Body != nil {
				a.collectCalls(d.Body, d.Name.Name, line)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					a.classes = append(a.classes, symbol{name: s.Name.Name, line: line(s.Name.Pos()), detail: fieldNames(s.Type)})
				case *ast.ValueSpec:
					for _, v := range s.Values {
						a.collectCalls(v, "<module>", line)
					}
				}
			}
		}
	}
	return a, true
}

func (a *fileAnalysis) addImport(module string) {
	for i := range a.imports {
		if a.imports[i].module == module {
			a.imports[i].count++
			return
		}
	}
	a.imports = append(a.imports, importCount{module: module, count: 1})
}

// collectCalls records each call's bare callee name (an identifier or a selector's field).
func (a *fileAnalysis) collectCalls(n ast.Node, caller string, line func(token.Pos) int) {
	ast.Inspect(n, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fn := c.Fun.(type) {
		case *ast.Ident:
			a.calls = append(a.calls, call{caller: caller, callee: fn.Name, line: line(fn.Pos())})
		case *ast.SelectorExpr:
			a.calls = append(a.calls, call{caller: caller, callee: fn.Sel.Name, line: line(fn.Sel.Pos())})
		}
		return true
	})
}

// signature is the parameter list as written, or "(N args)" past 60 bytes; "" for "()".
func signature(params string) string {
	if params == "()" || params == "" {
		return ""
	}
	if len(params) > 60 {
		return "(" + strconv.Itoa(strings.Count(params, ",")+1) + " args)"
	}
	return params
}

func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// fieldNames is "{a,b}" for a struct of up to five field declarations (the first name of each, or the
// embedded type), "{Nf}" for more, "" otherwise.
func fieldNames(e ast.Expr) string {
	st, ok := e.(*ast.StructType)
	if !ok || st.Fields == nil || len(st.Fields.List) == 0 {
		return ""
	}
	var names []string
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			names = append(names, f.Names[0].Name)
		} else if n := receiverType(f.Type); n != "" {
			names = append(names, n)
		} else if sel, ok := f.Type.(*ast.SelectorExpr); ok {
			names = append(names, sel.Sel.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > 5 {
		return "{" + strconv.Itoa(len(names)) + "f}"
	}
	return "{" + strings.Join(names, ",") + "}"
}

// countLines is Rust's str::lines().count().
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
