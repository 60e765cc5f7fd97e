// Re-parsing only the entry an edit changed: when the edit since the tree cache's text lies inside one
// entry of a block collection (a mapping key with its value, a sequence item), only that entry's lines
// are parsed again, by goccy for the tree and by libyaml for the verdict, and the cached tree takes the
// new nodes, with the nodes after the edit moved. A plain key renamed on its line needs no parse at all.
// Edits that change a recipe's structure (a key renamed, an enum value mistyped, an item added) then
// cost what their entry costs instead of what the whole text does.
//
// An entry can be parsed alone when it starts a line at its collection's column, that column is deeper
// than the enclosing entry's, and every non-blank line of the entry is at least that deep: libyaml and
// goccy then meet the entry's lines in the same state as in the whole text (a new entry expected at that
// column), and the line after the entry, no deeper than the column, closes whatever the entry opened.
// The entry's own parse must succeed; an entry that fails, or reaches past its lines, is left to the
// whole text's parse, which words the error as goose does.

package yamltree

import (
	"bytes"
	"regexp"

	"github.com/goccy/go-yaml/parser"
	yaml3 "go.yaml.in/yaml/v3"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// step is one block collection on the way from the root to the edited entry, and the index of its
// entry that holds the edit.
type step struct {
	n     *Node
	child int
}

// splicedTree returns the tree of the text li holds (masked with blocks) from the tree cache's tree
// when the edit since the cached text stays inside one entry that can be parsed alone (or one plain
// key); nil otherwise. The tree and verdict caches then move to the new text. entryRefused reports that
// the edited entry, parsed alone, is not valid YAML: the whole text most likely is not either.
func (c *Cache) splicedTree(li *source.LineIndex, masked []byte, blocks []maskedBlock, sh shape) (doc *Document, entryRefused bool) {
	if c == nil || sh.secondDoc >= 0 || sh.afterEnd >= 0 {
		return nil, false
	}
	c.mu.Lock()
	m := c.tree
	// the cached text must be one libyaml accepts: the entry's verdict then stands for the whole text's
	valid := m != nil && c.verdict.err == nil && !c.verdict.more && bytes.Equal(c.verdictMasked, m.masked)
	c.mu.Unlock()
	if !valid || m.doc.Root == nil || m.doc.Extra != nil {
		return nil, false
	}
	text := li.Text()
	if bytes.IndexByte(text, '\r') >= 0 || hasUnicodeBreak(text) {
		return nil, false
	}
	e := diffBytes(m.text, text)
	if e.start == e.oldEnd && e.start == e.newEnd {
		return nil, false
	}
	sp := &splicer{old: m.lines, li: li, e: e, delta: e.newEnd - e.oldEnd}
	if !sp.findPath(m.doc.Root) {
		return nil, false
	}
	switch {
	case sp.keyEdit():
	case sp.entry >= 0:
		ok, refused := sp.parseEntry(masked, m.masked, blocks, sh.splits)
		if !ok {
			return nil, refused
		}
		sp.path = sp.path[:sp.entry+1]
	default:
		return nil, false
	}
	doc = sp.splice()
	c.mu.Lock()
	c.tree = &treeCache{text: text, lines: li, masked: masked, doc: *doc}
	c.verdictMasked, c.verdict = masked, verdict{}
	c.mu.Unlock()
	return doc, false
}

// splicer holds one splice: the texts' line indexes, the edit, the path to the edited entry and the
// nodes that replace it.
type splicer struct {
	old, li *source.LineIndex
	e       treeEdit
	delta   int
	path    []step
	// entry is the deepest step whose entry can be parsed alone (-1: none); entryStart and entryEnd are
	// its lines' range in the old text
	entry                int
	entryStart, entryEnd int
	// what replaces the last step's entry: pairs (a mapping's) or items (a sequence's); seqStart is the
	// new first dash when a sequence's first item is replaced
	pairs    []*Pair
	items    []*Node
	seqStart int
	s        slab
}

// findPath walks from root down the block collections whose entry holds the edit.
func (sp *splicer) findPath(root *Node) bool {
	sp.entry = -1
	parentCol := -1
	for n := root; n != nil && !n.Flow && (n.Kind == Map || n.Kind == Seq) && len(n.Pairs)+len(n.Items) > 0; {
		col := sp.column(n)
		if col <= parentCol || !sp.spanned(n) {
			break // an indentless sequence: its entries are not told apart by indentation
		}
		j, start, end, whole := sp.entryAround(n, col)
		if j < 0 {
			break
		}
		sp.path = append(sp.path, step{n: n, child: j})
		if whole {
			sp.entry, sp.entryStart, sp.entryEnd = len(sp.path)-1, start, end
		}
		parentCol = col
		if n.Kind == Map {
			n = n.Pairs[j].Value
		} else {
			n = n.Items[j]
		}
	}
	return len(sp.path) > 0
}

// column is the column of a block collection's entries (its first key or its first dash).
func (sp *splicer) column(n *Node) int {
	return n.R.Start - sp.old.LineStart(sp.old.Line(n.R.Start))
}

// spanned reports that n's range is the one span() gives it from its entries (a tag or a node from an
// alias would break that, and the splice recomputes ranges that way).
func (sp *splicer) spanned(n *Node) bool {
	if n.Kind == Map {
		return n.R.Start == n.Pairs[0].Key.R.Start && n.R.End == mapEnd(n.Pairs)
	}
	return n.R.End == n.Items[len(n.Items)-1].R.End
}

func mapEnd(pairs []*Pair) int {
	last := pairs[len(pairs)-1]
	return max(last.Value.R.End, last.Key.R.End)
}

// entryBegin is where entry j of n begins (its key, or its item's content) and whether it starts its
// line at the collection's column (a sequence item: after a dash there).
func (sp *splicer) entryBegin(n *Node, j, col int) (int, bool) {
	text := sp.old.Text()
	var at int
	if n.Kind == Map {
		at = n.Pairs[j].Key.R.Start
	} else {
		at = n.Items[j].R.Start
	}
	ls := sp.old.LineStart(sp.old.Line(at))
	if indentOf(text[ls:sp.old.LineEnd(sp.old.Line(at))]) != col {
		return at, false
	}
	if n.Kind == Map {
		return at, at == ls+col
	}
	d := ls + col
	return at, text[d] == '-' && d+1 < len(text) && (text[d+1] == ' ' || text[d+1] == '\n')
}

// entryAround finds the entry of n whose lines hold the edit: its index (-1: none), its lines' range in
// the old text, and whether those lines are the entry's alone (it can be parsed alone).
func (sp *splicer) entryAround(n *Node, col int) (j, start, end int, whole bool) {
	count := len(n.Pairs) + len(n.Items)
	j = -1
	for k := 0; k < count; k++ {
		at, _ := sp.entryBegin(n, k, col)
		if sp.old.LineStart(sp.old.Line(at)) > sp.e.start {
			break
		}
		j = k
	}
	if j < 0 {
		return -1, 0, 0, false
	}
	at, ownLine := sp.entryBegin(n, j, col)
	start = sp.old.LineStart(sp.old.Line(at))
	nextOwn := true
	if j+1 < count {
		var next int
		next, nextOwn = sp.entryBegin(n, j+1, col)
		end = sp.old.LineStart(sp.old.Line(next))
	} else {
		end = sp.old.LineStart(sp.old.Line(max(n.R.End-1, start)) + 1)
	}
	// the edit must leave the entry's last line break alone (joining the next line changes that line)
	if sp.e.oldEnd >= end && !(end == len(sp.old.Text()) && sp.e.oldEnd == end) {
		return -1, 0, 0, false
	}
	return j, start, end, ownLine && nextOwn
}

// plainKeyRE is a key the splice renames in place: a word that reads as a string and stays one token.
var plainKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,99}$`)

// keyEdit recognises an edit inside one plain key of a block mapping on the path that leaves it a plain
// key followed by its colon: the pair takes the renamed key and keeps its value (moved). libyaml reads
// the same tokens with another key, so the cached verdict stands.
func (sp *splicer) keyEdit() bool {
	for i, st := range sp.path {
		if st.n.Kind != Map {
			continue
		}
		p := st.n.Pairs[st.child]
		k := p.Key
		if k.R.Start > sp.e.start || sp.e.oldEnd > k.R.End || k.Kind != Scalar || k.Style != Plain || k.Type != Str {
			continue
		}
		text := sp.li.Text()
		end := k.R.End + sp.delta
		name := string(text[k.R.Start:end])
		if !plainKeyRE.MatchString(k.Value) || !plainKeyRE.MatchString(name) || Resolve(name) != Str ||
			end+1 > len(text) || text[end] != ':' || end+1 < len(text) && text[end+1] != ' ' && text[end+1] != '\n' {
			return false
		}
		nk := sp.s.node()
		*nk = *k
		nk.Value, nk.R.End = name, end
		sp.path = sp.path[:i+1]
		sp.pairs = []*Pair{{Key: nk, Value: sp.moved(p.Value)}}
		return true
	}
	return false
}

// parseEntry parses the edited entry's lines of the new text alone (masked as the whole text is) and
// keeps its nodes for the splice; ok is false when the entry cannot stand in for the whole text's parse,
// refused when that is because libyaml refuses the entry.
func (sp *splicer) parseEntry(masked, oldMasked []byte, blocks []maskedBlock, splits []split) (ok, refused bool) {
	st := sp.path[sp.entry]
	n := st.n
	col := sp.column(n)
	text := sp.li.Text()
	newEnd := sp.entryEnd + sp.delta
	l0, l1 := sp.li.Line(sp.entryStart), sp.li.Line(newEnd)
	if newEnd == len(text) {
		l1 = sp.li.LineCount()
	}
	for l := l0; l < l1; l++ {
		line := text[sp.li.LineStart(l):sp.li.LineEnd(l)]
		ind := indentOf(line)
		if ind < len(line) && line[ind] == '\t' {
			return false, false
		}
		if ind == len(line) {
			continue
		}
		if ind < col || l == l0 && ind != col {
			return false, false
		}
		// a line at the column starts an entry (or is a comment between entries): an explicit `?` entry
		// or a stray indicator there is left to the whole text
		if ind == col && !opensEntry(n.Kind, line[ind:]) && (l == l0 || line[ind] != '#') {
			return false, false
		}
	}
	// the masked texts must agree outside the entry: the same blocks were masked there
	mli, oldMli := source.NewLineIndex(masked), source.NewLineIndex(oldMasked)
	if mli.LineCount() != sp.li.LineCount() || oldMli.LineCount() != sp.old.LineCount() {
		return false, false
	}
	ms, me := mli.LineStart(l0), mli.LineStart(l1)
	oldMe := oldMli.LineStart(sp.old.Line(sp.entryEnd))
	if sp.entryEnd == len(sp.old.Text()) {
		oldMe = len(oldMasked)
	}
	if ms != oldMli.LineStart(l0) || !bytes.Equal(masked[:ms], oldMasked[:ms]) || !bytes.Equal(masked[me:], oldMasked[oldMe:]) {
		return false, false
	}
	part := masked[ms:me]
	if bytes.IndexByte(part, '&') >= 0 || bytes.IndexByte(part, '*') >= 0 || bytes.IndexByte(part, '\t') >= 0 ||
		bytes.IndexByte(oldMasked[ms:oldMe], '\t') >= 0 {
		// anchors and aliases reach across entries; after a tab, goccy places tokens at columns of its
		// own, in the entry and after it, which a move by the edit's length does not reproduce
		return false, false
	}
	if v := libyamlVerdict(source.NewLineIndex(part)); v.err != nil || v.more || !blockCollection(v.node, n.Kind) {
		return false, v.err != nil
	}
	for _, sp := range splits {
		if sp.first < l1 && sp.end > l0 {
			return false, false // a mapping goccy parses in runs (split.go): left to the whole text's parse
		}
	}
	// goccy ends a text's last node differently (a plain scalar's range, an empty value): unless the
	// entry runs to the end of the text, it is followed, as in the whole text, by a line that starts
	// another entry at its column, whose nodes are dropped
	src, follower := part, newEnd < len(text)
	if follower {
		src = append(append(append(make([]byte, 0, len(part)+col+len(followerEntry)+2), part...), bytes.Repeat([]byte{' '}, col)...), followerLine(n.Kind)...)
	}
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil || len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return false, false
	}
	b := &builder{li: sp.li, anchors: map[string]*Node{}, lineBase: l0, boundaries: []int{newEnd}, depth: sp.entry,
		masked: map[int]maskedBlock{}, segs: &segments{main: f}}
	for _, mb := range blocks {
		if mb.header >= l0 && mb.header < l1 {
			b.masked[mb.header] = mb
		}
	}
	want := len(b.masked)
	r := b.node(f.Docs[0].Body)
	if b.err != nil || b.confirmed != want || len(b.anchors) > 0 || len(b.aliases) > 0 || r == nil || r.Kind != n.Kind || r.Flow ||
		r.R.Start != sp.li.LineStart(l0)+col {
		return false, false
	}
	pairs, items := r.Pairs, r.Items
	if follower {
		switch {
		case len(pairs) > 1 && pairs[len(pairs)-1].Key.Value == followerEntry:
			pairs = pairs[:len(pairs)-1]
		case len(items) > 1 && items[len(items)-1].Value == followerEntry:
			items = items[:len(items)-1]
		default:
			return false, false
		}
	}
	sp.pairs, sp.items, sp.seqStart = pairs, items, r.R.Start
	return true, false
}

// followerEntry is the entry that follows an entry parsed alone (see parseEntry).
const followerEntry = "goose_ls_next_entry"

func followerLine(k Kind) string {
	if k == Seq {
		return "- " + followerEntry + "\n"
	}
	return followerEntry + ": x\n"
}

// blockCollection reports that libyaml composed doc as one block collection of kind k.
func blockCollection(doc *yaml3.Node, k Kind) bool {
	if doc == nil || doc.Kind != yaml3.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Style&yaml3.FlowStyle != 0 {
		return false
	}
	if k == Map {
		return doc.Content[0].Kind == yaml3.MappingNode
	}
	return doc.Content[0].Kind == yaml3.SequenceNode
}

// opensEntry reports that a line's text (from its first non-blank) starts an entry of a collection of
// kind k: a dash and a blank for a sequence, a key for a mapping.
func opensEntry(k Kind, rest []byte) bool {
	if k == Seq {
		return rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ')
	}
	switch rest[0] {
	case '-', '?', ':', '#', '%', '&', '*', '!', '|', '>', '[', '{', ']', '}', ',', '@', '`':
		return false
	}
	return true
}

// splice builds the new tree: along the path, each collection copied with its path entry replaced, the
// entries before the edit shared and those after it moved.
func (sp *splicer) splice() *Document {
	return &Document{Root: sp.spliced(0)}
}

func (sp *splicer) spliced(i int) *Node {
	st := sp.path[i]
	n := st.n
	c := sp.s.node()
	*c = *n
	last := i == len(sp.path)-1
	if n.Kind == Map {
		pairs := make([]*Pair, 0, len(n.Pairs)+len(sp.pairs))
		pairs = append(pairs, n.Pairs[:st.child]...)
		if last {
			pairs = append(pairs, sp.pairs...)
		} else {
			p := sp.s.pair()
			p.Key, p.Value = n.Pairs[st.child].Key, sp.spliced(i+1)
			pairs = append(pairs, p)
		}
		for _, p := range n.Pairs[st.child+1:] {
			pairs = append(pairs, sp.movedPair(p))
		}
		c.Pairs = pairs
		c.R = source.Range{Start: pairs[0].Key.R.Start, End: mapEnd(pairs)}
		return c
	}
	items := make([]*Node, 0, len(n.Items)+len(sp.items))
	items = append(items, n.Items[:st.child]...)
	if last {
		items = append(items, sp.items...)
		if st.child == 0 {
			c.R.Start = sp.seqStart
		}
	} else {
		items = append(items, sp.spliced(i+1))
	}
	for _, it := range n.Items[st.child+1:] {
		items = append(items, sp.moved(it))
	}
	c.Items = items
	c.R.End = items[len(items)-1].R.End
	return c
}

// moved is n (wholly after the edit) with every range moved by the edit's length change.
func (sp *splicer) moved(n *Node) *Node {
	if n == nil || sp.delta == 0 {
		return n
	}
	c := sp.s.node()
	*c = *n
	c.R = source.Range{Start: n.R.Start + sp.delta, End: n.R.End + sp.delta}
	if n.Pairs != nil {
		ps := sp.s.pairList(len(n.Pairs))
		for i, p := range n.Pairs {
			ps[i] = sp.movedPair(p)
		}
		c.Pairs = ps
	}
	if n.Items != nil {
		its := sp.s.itemList(len(n.Items))
		for i, it := range n.Items {
			its[i] = sp.moved(it)
		}
		c.Items = its
	}
	return c
}

func (sp *splicer) movedPair(p *Pair) *Pair {
	if sp.delta == 0 {
		return p
	}
	c := sp.s.pair()
	c.Key, c.Value = sp.moved(p.Key), sp.moved(p.Value)
	return c
}
