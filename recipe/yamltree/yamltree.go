// Package yamltree parses YAML (and JSON, as goose does) with goccy/go-yaml into a small tree whose
// nodes carry exact byte ranges, with scalars typed by the YAML 1.2 core schema as serde_yaml does.
package yamltree

import (
	"bytes"
	"errors"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// Kind is a node's shape.
type Kind uint8

const (
	Scalar Kind = iota
	Map
	Seq
)

// Type is a scalar's resolved type.
type Type uint8

const (
	Str Type = iota
	Int
	Float
	Bool
	Null
)

// Style is how a scalar was written.
type Style uint8

const (
	Plain Style = iota
	SingleQuoted
	DoubleQuoted
	Literal
	Folded
)

// Node is one YAML node.
type Node struct {
	Kind  Kind
	Type  Type  // scalars
	Style Style // scalars
	Flow  bool  // collections written in flow style
	Value string
	R     source.Range
	Pairs []*Pair // Map
	Items []*Node // Seq
	// Empty marks a value that was absent in the text (`key:` with nothing after it).
	Empty bool
}

// Pair is one mapping entry.
type Pair struct {
	Key   *Node
	Value *Node
}

// Get returns the value of key in a mapping (the first, if duplicated), or nil.
func (n *Node) Get(key string) *Node {
	if p := n.Pair(key); p != nil {
		return p.Value
	}
	return nil
}

// Pair returns the entry for key in a mapping, or nil.
func (n *Node) Pair(key string) *Pair {
	if n == nil || n.Kind != Map {
		return nil
	}
	for _, p := range n.Pairs {
		if p.Key.Value == key {
			return p
		}
	}
	return nil
}

// IsNull reports a null scalar.
func (n *Node) IsNull() bool { return n == nil || (n.Kind == Scalar && n.Type == Null) }

// Describe names the node the way serde's messages do ("map", "sequence", "integer `5`", ...).
func (n *Node) Describe() string {
	switch n.Kind {
	case Map:
		return "map"
	case Seq:
		return "sequence"
	}
	switch n.Type {
	case Int:
		return "integer `" + n.Value + "`"
	case Float:
		return "floating point `" + n.Value + "`"
	case Bool:
		return "boolean `" + n.Value + "`"
	case Null:
		return "unit value"
	}
	return "string " + quoteForMessage(n.Value)
}

func quoteForMessage(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// Error is a YAML syntax error at a byte offset.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Document is a parsed YAML text.
type Document struct {
	Root *Node // nil for an empty document
	// Extra is the range of a second document's start, when the text holds more than one.
	Extra *source.Range
	err   error
}

type builder struct {
	li        *source.LineIndex
	anchors   map[string]*Node
	depth     int
	masked    map[int]maskedBlock // by header line
	confirmed int                 // masked blocks goccy parsed as block scalars
}

// Cache keeps the last masked parse of one document, so an edit that only changes block-scalar text (the
// masked text stays the same) skips goccy entirely. Safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	masked []byte
	file   *ast.File
}

func (c *Cache) get(masked []byte) *ast.File {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file != nil && bytes.Equal(c.masked, masked) {
		return c.file
	}
	return nil
}

func (c *Cache) put(masked []byte, f *ast.File) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.masked, c.file = masked, f
	c.mu.Unlock()
}

// Parse parses text (which the line index covers).
func Parse(li *source.LineIndex) (*Document, error) { return ParseCached(li, nil) }

// ParseCached is Parse with a per-document cache (nil for none).
func ParseCached(li *source.LineIndex, cache *Cache) (*Document, error) {
	if masked, blocks := mask(li, minMaskBytes); masked != nil {
		if doc, ok := parse(li, masked, blocks, cache); ok {
			return doc, nil
		}
	}
	doc, _ := parse(li, nil, nil, nil)
	if doc.err != nil {
		return nil, doc.err
	}
	return doc, nil
}

// parse parses src (the original text, or a masked copy with the same lines) into a tree whose
// offsets refer to the original; ok is false when a masked parse must be redone on the original.
// goccy's AST is only read, so a cached one is rebuilt against the new text's line index.
func parse(li *source.LineIndex, masked []byte, blocks []maskedBlock, cache *Cache) (*Document, bool) {
	src := li.Text()
	if masked != nil {
		src = masked
	}
	f := cache.get(masked)
	var err error
	if f == nil {
		f, err = parser.ParseBytes(normalizeBreaks(src), 0, parser.AllowDuplicateMapKey())
		if err == nil && masked != nil {
			cache.put(masked, f)
		}
	}
	if err != nil {
		if masked != nil {
			return nil, false
		}
		return &Document{err: convertError(li, err)}, false
	}
	b := &builder{li: li, anchors: map[string]*Node{}}
	if masked != nil {
		b.masked = make(map[int]maskedBlock, len(blocks))
		for _, mb := range blocks {
			b.masked[mb.header] = mb
		}
	}
	doc := &Document{}
	for i, d := range f.Docs {
		if i == 0 {
			if d.Body != nil {
				doc.Root = b.node(d.Body)
			}
			continue
		}
		if d.Body != nil || d.Start != nil {
			tok := d.Start
			if tok == nil {
				tok = d.Body.GetToken()
			}
			off := b.offset(tok)
			doc.Extra = &source.Range{Start: off, End: b.clamp(off + max(1, len(tok.Value)))}
			break
		}
	}
	if masked != nil && b.confirmed != len(blocks) {
		return nil, false
	}
	return doc, true
}

// normalizeBreaks turns \r\n and lone \r into \n: goccy counts \r\n after a comment as two lines,
// which shifts every later position. The line count stays that of the line index, which maps positions.
func normalizeBreaks(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			out = append(out, '\n')
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func convertError(li *source.LineIndex, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		off := 0
		if t := ye.GetToken(); t != nil && t.Position != nil {
			off = li.OffsetFromRuneCol(t.Position.Line-1, t.Position.Column-1)
		}
		return &Error{Offset: off, Msg: ye.GetMessage()}
	}
	return &Error{Msg: err.Error()}
}

func (b *builder) offset(t *token.Token) int {
	if t == nil || t.Position == nil {
		return len(b.li.Text())
	}
	return b.li.OffsetFromRuneCol(t.Position.Line-1, t.Position.Column-1)
}

func (b *builder) clamp(off int) int { return min(max(off, 0), len(b.li.Text())) }

// tokenEnd is where token t's text ends: the start of the next token, less whitespace between.
func (b *builder) tokenEnd(t *token.Token) int {
	text := b.li.Text()
	end := len(text)
	start := b.offset(t)
	for n := t.Next; n != nil; n = n.Next {
		if o := b.offset(n); o > start {
			end = o
			break
		}
	}
	for end > start && isSpaceByte(text[end-1]) {
		end--
	}
	// a comment glued to the next token is not part of this one
	if i := bytes.Index(text[start:end], []byte(" #")); i >= 0 && t.Type != token.DoubleQuoteType && t.Type != token.SingleQuoteType {
		end = start + i
	}
	return end
}

// blockEnd is where a block scalar whose header is at headerOff ends: the end of its last content line
// in the original text. goccy places the content token at the end of the content, so the end is found
// from the next token back, skipping blank lines and less-indented comment lines.
func (b *builder) blockEnd(headerOff int, content *token.Token) int {
	text := b.li.Text()
	end := len(text)
	contentOff := b.offset(content)
	for n := content.Next; n != nil; n = n.Next {
		if o := b.offset(n); o >= contentOff {
			end = o
			break
		}
	}
	headerLine := b.li.Line(headerOff)
	contentIndent := -1
	for l := headerLine + 1; l < b.li.LineCount(); l++ {
		line := text[b.li.LineStart(l):b.li.LineEnd(l)]
		if ind := indentOf(line); ind < len(line) {
			contentIndent = ind
			break
		}
	}
	for {
		for end > headerOff && isSpaceByte(text[end-1]) {
			end--
		}
		l := b.li.Line(end - 1)
		if end <= headerOff || l <= headerLine {
			break
		}
		line := text[b.li.LineStart(l):b.li.LineEnd(l)]
		if ind := indentOf(line); ind < contentIndent && ind < len(line) {
			end = b.li.LineStart(l) // a less-indented line (a comment) is not content
			continue
		}
		break
	}
	return min(max(end, headerOff+1), len(text))
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

const maxDepth = 500

func (b *builder) node(n ast.Node) *Node {
	b.depth++
	defer func() { b.depth-- }()
	if b.depth > maxDepth {
		off := b.offset(n.GetToken())
		return &Node{Kind: Scalar, Type: Null, R: source.Range{Start: off, End: off}}
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		m := &Node{Kind: Map, Flow: n.IsFlowStyle}
		for _, mv := range n.Values {
			m.Pairs = append(m.Pairs, b.pair(mv))
		}
		b.span(m, n.Start, n.End)
		return m
	case *ast.MappingValueNode:
		m := &Node{Kind: Map, Pairs: []*Pair{b.pair(n)}}
		b.span(m, nil, nil)
		return m
	case *ast.SequenceNode:
		s := &Node{Kind: Seq, Flow: n.IsFlowStyle}
		for _, v := range n.Values {
			if v == nil {
				continue
			}
			s.Items = append(s.Items, b.node(v))
		}
		b.span(s, n.Start, n.End)
		return s
	case *ast.AnchorNode:
		v := b.node(n.Value)
		if n.Name != nil {
			b.anchors[n.Name.GetToken().Value] = v
		}
		return v
	case *ast.AliasNode:
		start := b.offset(n.Start)
		r := source.Range{Start: start, End: b.tokenEnd(n.Value.GetToken())}
		if n.Value != nil {
			if target, ok := b.anchors[n.Value.GetToken().Value]; ok {
				cp := *target
				cp.R = r
				return &cp
			}
		}
		return &Node{Kind: Scalar, Type: Null, R: r}
	case *ast.TagNode:
		v := b.node(n.Value)
		v.R.Start = b.offset(n.Start)
		if tag := n.Start.Value; tag == "!!str" && v.Kind == Scalar {
			v.Type = Str
		}
		return v
	case *ast.LiteralNode:
		s := &Node{Kind: Scalar, Type: Str, Style: Literal}
		if strings.HasPrefix(n.Start.Value, ">") {
			s.Style = Folded
		}
		if n.Value != nil {
			s.Value = n.Value.Value
		}
		if mb, ok := b.masked[n.Start.Position.Line-1]; ok {
			s.Value = blockValue(b.li, mb)
			b.confirmed++
			delete(b.masked, mb.header)
		}
		s.R.Start = b.offset(n.Start)
		last := n.Start
		if n.Value != nil {
			last = n.Value.GetToken()
		}
		s.R.End = b.blockEnd(s.R.Start, last)
		return s
	case *ast.MappingKeyNode:
		return b.node(n.Value)
	case *ast.CommentGroupNode:
		return nil
	}
	return b.scalar(n)
}

func (b *builder) pair(mv *ast.MappingValueNode) *Pair {
	key := b.node(mv.Key)
	if key == nil {
		key = &Node{Kind: Scalar, Type: Null}
	}
	var val *Node
	if mv.Value != nil {
		val = b.node(mv.Value)
	}
	colonEnd := b.clamp(b.offset(mv.Start) + 1)
	if val == nil || (val.Kind == Scalar && val.Type == Null && val.R.End <= colonEnd && val.Value == "") {
		val = &Node{Kind: Scalar, Type: Null, Empty: true, R: source.Range{Start: colonEnd, End: colonEnd}}
	}
	return &Pair{Key: key, Value: val}
}

// span sets a collection's range from its delimiters (flow) or its children (block).
func (b *builder) span(n *Node, start, end *token.Token) {
	if n.Flow && start != nil {
		n.R.Start = b.offset(start)
		if end != nil {
			n.R.End = b.clamp(b.offset(end) + 1)
			return
		}
	}
	first, last := -1, -1
	switch n.Kind {
	case Map:
		if len(n.Pairs) > 0 {
			first, last = n.Pairs[0].Key.R.Start, n.Pairs[len(n.Pairs)-1].Value.R.End
			if e := n.Pairs[len(n.Pairs)-1].Key.R.End; e > last {
				last = e
			}
		}
	case Seq:
		if len(n.Items) > 0 {
			first, last = n.Items[0].R.Start, n.Items[len(n.Items)-1].R.End
		}
		if start != nil && !n.Flow {
			first = b.offset(start)
		}
	}
	if first < 0 && start != nil {
		first = b.offset(start)
		last = b.clamp(first + 1)
	}
	if first < 0 {
		first, last = 0, 0
	}
	if n.R.Start == 0 && n.R.End == 0 {
		n.R = source.Range{Start: first, End: last}
	}
}

func (b *builder) scalar(n ast.Node) *Node {
	t := n.GetToken()
	s := &Node{Kind: Scalar, Value: t.Value}
	s.R.Start = b.offset(t)
	s.R.End = b.tokenEnd(t)
	switch t.Type {
	case token.SingleQuoteType:
		s.Style, s.Type = SingleQuoted, Str
		return s
	case token.DoubleQuoteType:
		s.Style, s.Type = DoubleQuoted, Str
		return s
	}
	if _, ok := n.(*ast.NullNode); ok && s.R.Start >= s.R.End {
		s.Type = Null
		s.Value = ""
		return s
	}
	s.Type = Resolve(t.Value)
	return s
}

// Resolve types a plain scalar by the YAML 1.2 core schema, as serde_yaml does.
func Resolve(v string) Type {
	switch v {
	case "", "~", "null", "Null", "NULL":
		return Null
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return Bool
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return Float
	}
	if c := v[0]; (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' {
		return Str
	}
	if isInt(v) {
		return Int
	}
	if isFloat(v) {
		return Float
	}
	return Str
}

func digits(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isHex(c byte) bool { return isDec(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// isInt matches [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+.
func isInt(v string) bool {
	if len(v) > 2 && v[0] == '0' && v[1] == 'o' {
		return digits(v[2:], isOct)
	}
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' {
		return digits(v[2:], isHex)
	}
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	return digits(v, isDec)
}

// isFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func isFloat(v string) bool {
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	mant, exp := v, ""
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		mant, exp = v[:i], v[i+1:]
		if exp != "" && (exp[0] == '-' || exp[0] == '+') {
			exp = exp[1:]
		}
		if !digits(exp, isDec) {
			return false
		}
	}
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if !hasDot {
		return digits(intPart, isDec)
	}
	if intPart == "" {
		return digits(frac, isDec)
	}
	return digits(intPart, isDec) && (frac == "" || digits(frac, isDec))
}
