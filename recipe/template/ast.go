// Package template implements goose's template dialect (minijinja with loader + multi_template, no
// macros, no loop controls): lexing and parsing with byte ranges, undeclared-variable analysis and
// rendering in lenient or strict mode.
package template

import "github.com/goose-ls/goose-ls/recipe/source"

// Range is a byte range into the template text.
type Range = source.Range

// Stmt is a template statement.
type Stmt interface{ Span() Range }

// Expr is a template expression.
type Expr interface{ Span() Range }

type (
	// Text is literal template data; Out is the part that renders after whitespace control.
	Text struct {
		R   Range
		Out Range
	}
	// Emit is `{{ expr }}`.
	Emit struct {
		R    Range
		Expr Expr
	}
	// Raw is `{% raw %}…{% endraw %}`; Body is the literal content.
	Raw struct {
		R    Range
		Body Range
	}
	// If is `{% if %}` with its branches (elif becomes a nested If in Else).
	If struct {
		R          Range
		Cond       Expr
		Then, Else []Stmt
	}
	// For is `{% for target in iter [if filter] [recursive] %}`.
	For struct {
		R          Range
		Target     Expr
		Iter       Expr
		Filter     Expr
		Recursive  bool
		Body, Else []Stmt
	}
	// Set is `{% set target = value %}`.
	Set struct {
		R      Range
		Target Expr
		Value  Expr
	}
	// SetBlock is `{% set target [| filter] %}…{% endset %}`.
	SetBlock struct {
		R      Range
		Target Expr
		Filter Expr // a Filter chain applied to a Name "" placeholder, or nil
		Body   []Stmt
	}
	// With is `{% with a = x, b = y %}…{% endwith %}`.
	With struct {
		R       Range
		Targets []Expr
		Values  []Expr
		Body    []Stmt
	}
	// Block is `{% block name %}…{% endblock %}`.
	Block struct {
		R         Range
		Name      string
		NameRange Range
		Body      []Stmt
	}
	// Extends is `{% extends expr %}`.
	Extends struct {
		R    Range
		Name Expr
	}
	// Include is `{% include expr [ignore missing] %}`.
	Include struct {
		R             Range
		Name          Expr
		IgnoreMissing bool
	}
	// Import is `{% import expr as name %}` or `{% from expr import a as b %}`; Names are the bound names,
	// From the imported names (nil for `import … as`).
	Import struct {
		R     Range
		Name  Expr
		Names []*Name
		From  []string
	}
	// FilterBlock is `{% filter f %}…{% endfilter %}`.
	FilterBlock struct {
		R      Range
		Filter Expr
		Body   []Stmt
	}
	// AutoEscape is `{% autoescape expr %}…{% endautoescape %}`.
	AutoEscape struct {
		R    Range
		Expr Expr
		Body []Stmt
	}
	// Do is `{% do call(…) %}`: the call runs, its value is dropped.
	Do struct {
		R    Range
		Call *Call
	}
)

func (s *Text) Span() Range        { return s.R }
func (s *Emit) Span() Range        { return s.R }
func (s *Raw) Span() Range         { return s.R }
func (s *If) Span() Range          { return s.R }
func (s *For) Span() Range         { return s.R }
func (s *Set) Span() Range         { return s.R }
func (s *SetBlock) Span() Range    { return s.R }
func (s *With) Span() Range        { return s.R }
func (s *Block) Span() Range       { return s.R }
func (s *Extends) Span() Range     { return s.R }
func (s *Include) Span() Range     { return s.R }
func (s *Import) Span() Range      { return s.R }
func (s *FilterBlock) Span() Range { return s.R }
func (s *AutoEscape) Span() Range  { return s.R }
func (s *Do) Span() Range          { return s.R }

type (
	// Name is a variable reference.
	Name struct {
		R    Range
		Name string
	}
	// Const is a literal.
	Const struct {
		R     Range
		Value Value
	}
	// List is `[a, b]`.
	List struct {
		R     Range
		Items []Expr
	}
	// Tuple is `(a, b)` or a bare `a, b` target.
	Tuple struct {
		R     Range
		Items []Expr
	}
	// Dict is `{k: v}`.
	Dict struct {
		R            Range
		Keys, Values []Expr
	}
	// GetAttr is `expr.name`.
	GetAttr struct {
		R         Range
		Expr      Expr
		Name      string
		NameRange Range
	}
	// GetItem is `expr[index]`.
	GetItem struct {
		R     Range
		Expr  Expr
		Index Expr
	}
	// Slice is `expr[start:stop:step]`.
	Slice struct {
		R                 Range
		Expr              Expr
		Start, Stop, Step Expr
	}
	// Call is `callee(args)`.
	Call struct {
		R      Range
		Callee Expr
		Args   []Expr
		Kwargs []Kwarg
	}
	// Filter is `expr | name(args)`; Expr is nil inside a filter block or set block.
	Filter struct {
		R         Range
		Expr      Expr
		Name      string
		NameRange Range
		Args      []Expr
		Kwargs    []Kwarg
	}
	// Test is `expr is [not] name(args)`.
	Test struct {
		R         Range
		Expr      Expr
		Name      string
		NameRange Range
		Negated   bool
		Args      []Expr
		Kwargs    []Kwarg
	}
	// Unary is `not x` or `-x` (minijinja has no unary plus).
	Unary struct {
		R    Range
		Op   string
		Expr Expr
	}
	// Binary is an arithmetic, comparison, logical, concat or `in` operation.
	Binary struct {
		R           Range
		Op          string
		Left, Right Expr
		// Chained marks `a < b != c`: minijinja compares Python-style, `a < b and b != c` with b
		// evaluated once and the rest skipped after a false comparison (Left is the chain so far).
		Chained bool
	}
	// CondExpr is `a if cond else b`; False may be nil.
	CondExpr struct {
		R                 Range
		Cond, True, False Expr
	}
)

// Kwarg is a keyword argument.
type Kwarg struct {
	Name  string
	Value Expr
}

func (e *Name) Span() Range     { return e.R }
func (e *Const) Span() Range    { return e.R }
func (e *List) Span() Range     { return e.R }
func (e *Tuple) Span() Range    { return e.R }
func (e *Dict) Span() Range     { return e.R }
func (e *GetAttr) Span() Range  { return e.R }
func (e *GetItem) Span() Range  { return e.R }
func (e *Slice) Span() Range    { return e.R }
func (e *Call) Span() Range     { return e.R }
func (e *Filter) Span() Range   { return e.R }
func (e *Test) Span() Range     { return e.R }
func (e *Unary) Span() Range    { return e.R }
func (e *Binary) Span() Range   { return e.R }
func (e *CondExpr) Span() Range { return e.R }

// TagKind classifies a delimiter span for semantic highlighting.
type TagKind uint8

const (
	TagVariable TagKind = iota // {{ }}
	TagBlock                   // {% %}
	TagComment                 // {# #}
)

// Tag is the range of one `{{ }}`, `{% %}` or `{# #}` in the source, with the statement keyword if any.
type Tag struct {
	Kind    TagKind
	R       Range
	Keyword string
}

// Template is a parsed template.
type Template struct {
	Name    string
	Source  string
	Body    []Stmt
	Extends *Extends
	Blocks  map[string]*Block
	Tags    []Tag
	// TrailingNewline reports that the source ends with a newline minijinja strips before lexing (the
	// template's statements end before it).
	TrailingNewline bool
}
