// The degraded tree: where goccy/go-yaml refuses a text that libyaml (goose) accepts, the tree is built
// from the libyaml port's nodes instead of reporting a false error. Starts come from libyaml's marks;
// ends are found in the text (a scalar's own extent, a collection's last child), so they are close but
// not goccy-exact, and serde_yaml's alias repetition limit is not counted on it.

package yamltree

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// degradedTree converts the document node the verdict composed.
func degradedTree(li *source.LineIndex, doc *yaml.Node) *Document {
	out := &Document{Degraded: true}
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return out
	}
	d := &degrader{li: li, text: li.Text(), seen: map[*yaml.Node]*Node{}}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Value == "" && root.Style&yaml.TaggedStyle == 0 {
		return out // an empty document
	}
	out.Root = d.node(root)
	return out
}

type degrader struct {
	li   *source.LineIndex
	text []byte
	seen map[*yaml.Node]*Node // anchored nodes already built, for aliases
}

// start is the byte offset of a node's mark (libyaml's line and column, both from 1, in characters).
func (d *degrader) start(n *yaml.Node) int {
	if n.Line <= 0 {
		return 0
	}
	return d.li.OffsetFromRuneCol(n.Line-1, max(n.Column-1, 0))
}

func (d *degrader) node(n *yaml.Node) *Node {
	var out *Node
	switch n.Kind {
	case yaml.AliasNode:
		start := d.start(n)
		r := source.Range{Start: start, End: d.wordEnd(start)}
		if target, ok := d.seen[n.Alias]; ok && target != nil {
			cp := *target
			cp.R = r
			return &cp
		}
		return &Node{Kind: Scalar, Type: Null, R: r}
	case yaml.MappingNode:
		out = &Node{Kind: Map, Flow: n.Style&yaml.FlowStyle != 0}
		for i := 0; i+1 < len(n.Content); i += 2 {
			out.Pairs = append(out.Pairs, &Pair{Key: d.node(n.Content[i]), Value: d.node(n.Content[i+1])})
		}
		d.collectionRange(out, n)
	case yaml.SequenceNode:
		out = &Node{Kind: Seq, Flow: n.Style&yaml.FlowStyle != 0}
		for _, c := range n.Content {
			out.Items = append(out.Items, d.node(c))
		}
		d.collectionRange(out, n)
	default:
		out = d.scalar(n)
	}
	if n.Anchor != "" {
		d.seen[n] = out
	}
	return out
}

func (d *degrader) scalar(n *yaml.Node) *Node {
	start := d.start(n)
	s := &Node{Kind: Scalar, Value: n.Value, R: source.Range{Start: start}}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		s.Style, s.Type = DoubleQuoted, Str
		s.R.End = d.quotedEnd(start, '"')
	case n.Style&yaml.SingleQuotedStyle != 0:
		s.Style, s.Type = SingleQuoted, Str
		s.R.End = d.quotedEnd(start, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		s.Style, s.Type = Literal, Str
		if n.Style&yaml.FoldedStyle != 0 {
			s.Style = Folded
		}
		s.R.End = d.blockScalarEnd(start)
	default:
		s.Type = Resolve(n.Value)
		if n.Value == "" && n.Style&yaml.TaggedStyle == 0 {
			s.Empty, s.R.End = true, start // `key:` with nothing after it
			return s
		}
		s.R.End = d.plainEnd(start, n.Value)
	}
	if n.Style&yaml.TaggedStyle != 0 && n.Tag == "!!str" {
		s.Type = Str
	}
	return s
}

// plainEnd: the value as written when it is (one line), else the rest of the line before a comment.
func (d *degrader) plainEnd(start int, value string) int {
	if bytes.HasPrefix(d.text[start:], []byte(value)) {
		return start + len(value)
	}
	return d.lineContentEnd(start)
}

// lineContentEnd is the end of start's line less a comment and trailing blanks (at least start+1).
func (d *degrader) lineContentEnd(start int) int {
	end := d.li.LineEnd(d.li.Line(start))
	if i := bytes.Index(d.text[start:end], []byte(" #")); i >= 0 {
		end = start + i
	}
	for end > start && isSpaceByte(d.text[end-1]) {
		end--
	}
	return min(max(end, start+1), len(d.text))
}

// wordEnd is where the non-blank run at start ends (an alias name).
func (d *degrader) wordEnd(start int) int {
	end := start
	for end < len(d.text) && !isSpaceByte(d.text[end]) && d.text[end] != ',' && d.text[end] != ']' && d.text[end] != '}' {
		end++
	}
	return max(end, min(start+1, len(d.text)))
}

// quotedEnd is just after the quote closing the scalar that opens at start (escapes skipped).
func (d *degrader) quotedEnd(start int, q byte) int {
	for i := start + 1; i < len(d.text); i++ {
		switch c := d.text[i]; {
		case q == '"' && c == '\\':
			i++
		case c == q && q == '\'' && i+1 < len(d.text) && d.text[i+1] == '\'':
			i++
		case c == q:
			return i + 1
		}
	}
	return len(d.text)
}

// blockScalarEnd is the end of a block scalar's last content line: the lines after the header that are
// blank or indented deeper than the header's line.
func (d *degrader) blockScalarEnd(header int) int {
	hl := d.li.Line(header)
	parent := indentOf(d.text[d.li.LineStart(hl):d.li.LineEnd(hl)])
	end := d.lineContentEnd(header)
	for l := hl + 1; l < d.li.LineCount(); l++ {
		line := d.text[d.li.LineStart(l):d.li.LineEnd(l)]
		ind := indentOf(line)
		if ind == len(bytes.TrimRight(line, "\r\n")) {
			continue // blank
		}
		if ind <= parent {
			break
		}
		end = d.li.LineEnd(l)
		for end > header && isSpaceByte(d.text[end-1]) {
			end--
		}
	}
	return end
}

// collectionRange: a flow collection from its bracket to the matching closing one, a block one over its
// children.
func (d *degrader) collectionRange(out *Node, n *yaml.Node) {
	start := d.start(n)
	last := start
	switch {
	case len(out.Pairs) > 0:
		p := out.Pairs[len(out.Pairs)-1]
		last = max(p.Key.R.End, p.Value.R.End)
	case len(out.Items) > 0:
		last = out.Items[len(out.Items)-1].R.End
	}
	end := last
	if out.Flow {
		closer := byte(']')
		if out.Kind == Map {
			closer = '}'
		}
		if i := bytes.IndexByte(d.text[max(last, start):], closer); i >= 0 {
			end = max(last, start) + i + 1
		}
	}
	out.R = source.Range{Start: start, End: min(max(end, start), len(d.text))}
}
