// The tree cache: the last masked parse's tree, kept for the next version of the text. An edit inside
// one masked block scalar (typing in a prompt or the instructions) leaves the masked text as it was, so
// goccy's tree is too, and the new tree is the cached one with that scalar's value read again and the
// ranges after the edit moved, copied in a few slabs instead of thousands of small allocations (building
// the tree was a quarter of a keystroke in the heavy recipe's profile). An edit inside one entry is
// spliced in (splice.go). goccy's own parse is never kept: its tokens and nodes were a third of the
// language server's live heap with the heavy recipe open.

package yamltree

import (
	"bytes"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// treeCache is the tree of the last masked parse that succeeded. Trees are never modified once built
// (ParseCached's callers must not), so the cache and the trees built from it share nodes.
type treeCache struct {
	text   []byte // the text it was built from (never modified: ParseCached)
	lines  *source.LineIndex
	masked []byte
	doc    Document
}

// keepTree caches doc, the tree built from the text li holds with the masked text masked, when it can
// serve the next text: no anchors or aliases (an alias copies a node, whose value an edit could change).
func (c *Cache) keepTree(li *source.LineIndex, masked []byte, doc *Document, b *builder) {
	if c == nil || len(b.anchors) > 0 || len(b.aliases) > 0 || doc.Degraded || doc.Refused != nil {
		return
	}
	c.mu.Lock()
	c.tree = &treeCache{text: li.Text(), lines: li, masked: masked, doc: *doc}
	c.mu.Unlock()
}

// cachedTree returns the tree of text (whose masked text and blocks are given) from the tree cache, or
// nil when the edit since the cached text is not inside the content of one masked block scalar (up to
// the end of its last line's text: the scalar's range ends there, and moves with an edit that reaches
// it). Nodes that end before the edit are shared.
func (c *Cache) cachedTree(li *source.LineIndex, masked []byte, blocks []maskedBlock) *Document {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	m := c.tree
	c.mu.Unlock()
	if m == nil || !bytes.Equal(m.masked, masked) {
		return nil
	}
	text := li.Text()
	e := diffBytes(m.text, text)
	if e.start == e.oldEnd && e.start == e.newEnd {
		d := m.doc
		return &d
	}
	for i := range blocks {
		mb := &blocks[i]
		// the masked texts are equal, so both texts have the same lines up to the edit's end
		if li.LineStart(mb.first) <= e.start && e.newEnd <= contentEnd(li, mb.last) {
			eb := &editedBlock{li: li, block: *mb}
			doc := copyDoc(&m.doc, e, eb, &slab{})
			if !eb.found {
				return nil // the scalar's range does not hold the edit: parse instead
			}
			// the cache moves to this text: the next keystroke's edit is measured from here, and the
			// cache's nodes are this tree's (no second copy kept alive)
			c.mu.Lock()
			c.tree = &treeCache{text: text, lines: li, masked: masked, doc: *doc}
			c.mu.Unlock()
			return doc
		}
	}
	return nil
}

// treeEdit is one contiguous change: old bytes [start, oldEnd) became new bytes [start, newEnd).
type treeEdit struct{ start, oldEnd, newEnd int }

func (e treeEdit) shift(off int) int {
	if off <= e.start {
		return off
	}
	return off + e.newEnd - e.oldEnd
}

// endsBefore reports that a range ending at off (exclusive) lies wholly before the edit: text inserted
// at a range's end extends it (typing at the end of a block scalar's last line).
func (e treeEdit) endsBefore(off int) bool {
	return off < e.start || off == e.start && e.oldEnd > e.start
}

// shiftEnd maps the end of a range of the old text to the new text.
func (e treeEdit) shiftEnd(off int) int {
	if e.endsBefore(off) {
		return off
	}
	return off + e.newEnd - e.oldEnd
}

// contentEnd is the end of line l's text without its trailing blanks (which the masked text keeps, so
// an edit that leaves the masked text as it was ends before them).
func contentEnd(li *source.LineIndex, l int) int {
	text, start, end := li.Text(), li.LineStart(l), li.LineEnd(l)
	for end > start && (text[end-1] == ' ' || text[end-1] == '\t') {
		end--
	}
	return end
}

// diffBytes is the edit from old to new: the longest common prefix, then the longest common suffix.
func diffBytes(old, new []byte) treeEdit {
	n := min(len(old), len(new))
	p := 0
	const chunk = 256
	for p+chunk <= n && bytes.Equal(old[p:p+chunk], new[p:p+chunk]) {
		p += chunk
	}
	for p < n && old[p] == new[p] {
		p++
	}
	s := 0
	for s+chunk <= n-p && bytes.Equal(old[len(old)-s-chunk:len(old)-s], new[len(new)-s-chunk:len(new)-s]) {
		s += chunk
	}
	for s < n-p && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	return treeEdit{start: p, oldEnd: len(old) - s, newEnd: len(new) - s}
}

// editedBlock is the block scalar whose content an edit changed, read again from the new text.
type editedBlock struct {
	li    *source.LineIndex
	block maskedBlock
	// found: the scalar was met, and its range holds the edit
	found bool
}

// slab hands out the nodes, pairs and child lists of one tree copy from a few allocations.
type slab struct {
	nodes    []Node
	pairs    []Pair
	pairPtrs []*Pair
	itemPtrs []*Node
}

const slabChunk = 512

func (s *slab) node() *Node {
	if len(s.nodes) == 0 {
		s.nodes = make([]Node, slabChunk)
	}
	n := &s.nodes[0]
	s.nodes = s.nodes[1:]
	return n
}

func (s *slab) pair() *Pair {
	if len(s.pairs) == 0 {
		s.pairs = make([]Pair, slabChunk)
	}
	p := &s.pairs[0]
	s.pairs = s.pairs[1:]
	return p
}

func (s *slab) pairList(k int) []*Pair {
	if k > slabChunk/4 {
		return make([]*Pair, k)
	}
	if len(s.pairPtrs) < k {
		s.pairPtrs = make([]*Pair, slabChunk)
	}
	l := s.pairPtrs[:k:k]
	s.pairPtrs = s.pairPtrs[k:]
	return l
}

func (s *slab) itemList(k int) []*Node {
	if k > slabChunk/4 {
		return make([]*Node, k)
	}
	if len(s.itemPtrs) < k {
		s.itemPtrs = make([]*Node, slabChunk)
	}
	l := s.itemPtrs[:k:k]
	s.itemPtrs = s.itemPtrs[k:]
	return l
}

// copyDoc is d after the edit e (inside the block scalar eb).
func copyDoc(d *Document, e treeEdit, eb *editedBlock, s *slab) *Document {
	out := &Document{Root: copyNode(d.Root, e, eb, s), Degraded: d.Degraded, Refused: d.Refused, err: d.err}
	if d.Extra != nil {
		out.Extra = &source.Range{Start: e.shift(d.Extra.Start), End: e.shiftEnd(d.Extra.End)}
	}
	return out
}

// copyNode is n with its ranges moved by e and the edited block scalar's value read again: n itself
// when it ends before the edit.
func copyNode(n *Node, e treeEdit, eb *editedBlock, s *slab) *Node {
	if n == nil || e.endsBefore(n.R.End) {
		return n
	}
	c := s.node()
	*c = *n
	c.R = source.Range{Start: e.shift(n.R.Start), End: e.shiftEnd(n.R.End)}
	if (n.Style == Literal || n.Style == Folded) && n.R.Start <= e.start && eb.li.Line(n.R.Start) == eb.block.header {
		c.Value = blockValue(eb.li, eb.block)
		eb.found = e.oldEnd <= n.R.End
	}
	if n.Pairs != nil {
		ptrs := s.pairList(len(n.Pairs))
		for i, p := range n.Pairs {
			if (p.Key == nil || e.endsBefore(p.Key.R.End)) && (p.Value == nil || e.endsBefore(p.Value.R.End)) {
				ptrs[i] = p
				continue
			}
			cp := s.pair()
			cp.Key, cp.Value = copyNode(p.Key, e, eb, s), copyNode(p.Value, e, eb, s)
			ptrs[i] = cp
		}
		c.Pairs = ptrs
	}
	if n.Items != nil {
		ptrs := s.itemList(len(n.Items))
		for i, it := range n.Items {
			ptrs[i] = copyNode(it, e, eb, s)
		}
		c.Items = ptrs
	}
	return c
}
