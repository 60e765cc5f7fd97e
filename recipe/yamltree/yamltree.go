// Package yamltree parses YAML (and JSON, as goose does) with goccy/go-yaml into a small tree whose
// nodes carry exact byte ranges, with scalars typed by the YAML 1.2 core schema as serde_yaml does.
package yamltree

import (
	"bytes"
	"errors"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
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
	// End, when set (> Offset), ends the offending text (a refused character); else the error is at Offset.
	End int
	Msg string
	// ContextMsg is libyaml's context of the problem ("while scanning a quoted scalar", "while parsing a
	// flow sequence", …), when it names one: the construct the problem is in, which starts at Context.
	ContextMsg string
	Context    int
	// Construct, when HasConstruct, is what the author must fix when libyaml notices the problem past it
	// (at Offset): an unterminated scalar's opening quote, an unclosed flow collection's bracket, the
	// line whose `:` is missing (construct.go). AtEnd: Offset is at the end of the text.
	Construct    int
	HasConstruct bool
	AtEnd        bool
	// goccy marks an error of goccy/go-yaml's own parser (not a limit of serde_yaml's): it stands only
	// where libyaml agrees (verdict.go).
	goccy bool
}

func (e *Error) Error() string { return e.Msg }

// Document is a parsed YAML text.
type Document struct {
	Root *Node // nil for an empty document
	// Extra is the range of a second document's start, when the text holds more than one.
	Extra *source.Range
	// Degraded marks a tree built from the libyaml port's nodes because goccy/go-yaml refused a text
	// libyaml accepts: its ranges start right but may end early or late (degraded.go).
	Degraded bool
	// Refused is goccy/go-yaml's error on a degraded tree's text (where it stopped, not goose's error).
	Refused *Error
	err     error
}

type builder struct {
	li      *source.LineIndex
	anchors map[string]*Node
	// aliasing: what each anchored node costs when an alias replays it (see limits.go)
	expansions map[*Node]expansion
	depth      int // open collections, counted as serde_yaml counts them
	deepest    int // deepest collection level reached (alias replays included)
	jumps      int // alias replays so far, counted as serde_yaml counts them
	aliases    []aliasUse
	events     int // the document's parser events (scalars, aliases, collection starts and ends)
	err        *Error
	// split mappings (split.go): goccy's parses, the splits by first key line, the line the current
	// parse's line 1 is, and where separately parsed texts start and end
	segs       *segments
	splits     map[int]split
	lineBase   int
	boundaries []int
	masked     map[int]maskedBlock // by header line
	confirmed  int                 // masked blocks goccy parsed as block scalars
}

// parse parses src (the original text, or a masked copy with the same lines) into a tree whose
// offsets refer to the original; ok is false when a masked parse must be redone on the original.
func parse(li *source.LineIndex, masked []byte, blocks []maskedBlock, splits []split, cache *Cache) (*Document, bool) {
	src := li.Text()
	if masked != nil {
		src = masked
	}
	segs, err := parseSegments(src, splits)
	if err != nil {
		if masked != nil {
			return nil, false
		}
		return &Document{err: convertError(li, err)}, false
	}
	b := &builder{li: li, anchors: map[string]*Node{}}
	b.useSplits(segs)
	f := segs.main
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
	b.checkRepetition()
	if b.err != nil {
		return &Document{err: b.err}, true
	}
	if masked != nil {
		cache.keepTree(li, masked, doc, b)
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
	base := 0
	var shifted lineShifted
	if errors.As(err, &shifted) {
		base = shifted.base
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		off := 0
		if t := ye.GetToken(); t != nil && t.Position != nil {
			off = li.OffsetFromRuneCol(base+t.Position.Line-1, t.Position.Column-1)
		}
		return &Error{Offset: off, Msg: libyamlWording(ye.GetMessage()), goccy: true}
	}
	return &Error{Msg: err.Error(), goccy: true}
}

// libyamlWording words a goccy/go-yaml message as libyaml (goose's serde_yaml) words the same problem.
func libyamlWording(msg string) string {
	switch {
	case msg == "mapping value is not allowed in this context":
		return "mapping values are not allowed in this context"
	case strings.HasPrefix(msg, "found unknown escape character "):
		return "found unknown escape character"
	case strings.HasPrefix(msg, "found character ") && strings.HasSuffix(msg, " that cannot start any token"):
		return "found character that cannot start any token"
	}
	return msg
}

func (b *builder) offset(t *token.Token) int {
	if t == nil || t.Position == nil {
		return len(b.li.Text())
	}
	return b.li.OffsetFromRuneCol(b.lineBase+t.Position.Line-1, t.Position.Column-1)
}

func (b *builder) clamp(off int) int { return min(max(off, 0), len(b.li.Text())) }

// tokenEnd is where token t's text ends: the start of the next token, less whitespace between.
func (b *builder) tokenEnd(t *token.Token) int {
	text := b.li.Text()
	start := b.offset(t)
	end := b.boundaryAfter(start)
	for n := t.Next; n != nil; n = n.Next {
		if o := b.offset(n); o > start {
			end = min(end, o)
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
	end := b.boundaryAfter(headerOff)
	contentOff := b.offset(content)
	for n := content.Next; n != nil; n = n.Next {
		if o := b.offset(n); o >= contentOff {
			end = min(end, o)
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

func (b *builder) node(n ast.Node) *Node {
	if b.err != nil {
		return &Node{Kind: Scalar, Type: Null}
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		if !b.enter(b.collectionOffset(n)) {
			return &Node{Kind: Scalar, Type: Null}
		}
		defer b.leave()
		m := &Node{Kind: Map, Flow: n.IsFlowStyle}
		for _, mv := range n.Values {
			m.Pairs = append(m.Pairs, b.pair(mv))
		}
		if b.splits != nil && !n.IsFlowStyle && len(n.Values) > 0 && n.Values[0].Key != nil {
			if t := n.Values[0].Key.GetToken(); t != nil && t.Position != nil {
				b.splitMap(m, b.lineBase+t.Position.Line-1)
			}
		}
		b.span(m, n.Start, n.End)
		return m
	case *ast.MappingValueNode:
		if !b.enter(b.collectionOffset(n)) {
			return &Node{Kind: Scalar, Type: Null}
		}
		defer b.leave()
		m := &Node{Kind: Map, Pairs: []*Pair{b.pair(n)}}
		b.span(m, nil, nil)
		return m
	case *ast.SequenceNode:
		if !b.enter(b.collectionOffset(n)) {
			return &Node{Kind: Scalar, Type: Null}
		}
		defer b.leave()
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
		mark := b.startAnchor()
		v := b.node(n.Value)
		if n.Name != nil && v != nil {
			b.anchors[n.Name.GetToken().Value] = v
			b.endAnchor(v, mark)
		}
		return v
	case *ast.AliasNode:
		start := b.offset(n.Start)
		r := source.Range{Start: start, End: b.tokenEnd(n.Value.GetToken())}
		b.events++
		if n.Value != nil {
			if target, ok := b.anchors[n.Value.GetToken().Value]; ok {
				b.replay(target, start)
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
		b.events++
		s := &Node{Kind: Scalar, Type: Str, Style: Literal}
		if strings.HasPrefix(n.Start.Value, ">") {
			s.Style = Folded
		}
		if n.Value != nil {
			s.Value = n.Value.Value
		}
		if mb, ok := b.masked[b.lineBase+n.Start.Position.Line-1]; ok {
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
	if val == nil || (val.Kind == Scalar && val.Type == Null && val.Value == "" && (val.R.End <= colonEnd || onlyBlanks(b.li.Text(), colonEnd, val.R.End))) {
		val = &Node{Kind: Scalar, Type: Null, Empty: true, R: source.Range{Start: colonEnd, End: colonEnd}}
	}
	return &Pair{Key: key, Value: val}
}

// onlyBlanks reports whether text[from:to] holds nothing but spaces, tabs, line breaks and comments: goccy
// places an implicit null after them when the text ends there (at the end of a file or of a split part),
// and the value is the same empty one as before a following key.
func onlyBlanks(text []byte, from, to int) bool {
	if from < 0 || to > len(text) || from > to {
		return false
	}
	for i := from; i < to; i++ {
		switch text[i] {
		case ' ', '\t', '\n', '\r':
		case '#':
			for i < to && text[i] != '\n' {
				i++
			}
		default:
			return false
		}
	}
	return true
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
	b.events++
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
