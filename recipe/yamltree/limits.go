// serde_yaml's limits on the tree: at most 128 nested collections (alias replays included) and at most
// 100 alias replays per parser event of the document, checked while the tree is built, in linear time:
// an alias shares its anchor's node and adds the anchor's recorded height and replay count.

package yamltree

import "github.com/goccy/go-yaml/ast"

// repetitionPerEvent is serde_yaml's bound: a document fails once its alias replays (nested replays
// included) exceed 100 times its number of events (de.rs, `jump`).
const repetitionPerEvent = 100

// expansion is what replaying an anchored node costs: the collection levels it adds and the alias
// replays it performs itself.
type expansion struct {
	height int
	jumps  int
}

// aliasUse is one alias in document order, with the replay count once it has been replayed.
type aliasUse struct {
	offset int
	jumps  int
}

// anchorMark is the builder's state when an anchored node starts.
type anchorMark struct {
	deepest, jumps int
}

// enter opens a collection at off; false when it is one level too deep (then b.err is set).
func (b *builder) enter(off func() int) bool {
	b.depth++
	b.events += 2 // start and end
	if b.depth > maxDepth {
		b.depth--
		b.fail(off(), msgRecursionLimit)
		return false
	}
	b.deepest = max(b.deepest, b.depth)
	return true
}

func (b *builder) leave() { b.depth-- }

func (b *builder) fail(off int, msg string) {
	if b.err == nil {
		b.err = &Error{Offset: off, Msg: msg}
	}
}

func (b *builder) startAnchor() anchorMark {
	m := anchorMark{deepest: b.deepest, jumps: b.jumps}
	b.deepest = b.depth
	return m
}

// endAnchor records what replaying v costs and restores the deepest level seen around it.
func (b *builder) endAnchor(v *Node, m anchorMark) {
	if b.expansions == nil {
		b.expansions = map[*Node]expansion{}
	}
	b.expansions[v] = expansion{height: b.deepest - b.depth, jumps: b.jumps - m.jumps}
	b.deepest = max(b.deepest, m.deepest)
}

// replay accounts for an alias at off replaying target: one jump plus the target's own, and the
// target's height on top of the current depth.
func (b *builder) replay(target *Node, off int) {
	e := b.expansions[target]
	b.jumps = satAdd(b.jumps, satAdd(1, e.jumps))
	b.aliases = append(b.aliases, aliasUse{offset: off, jumps: b.jumps})
	if b.depth+e.height > maxDepth {
		b.fail(off, msgRecursionLimit)
	}
	b.deepest = max(b.deepest, b.depth+e.height)
}

// checkRepetition fails at the first alias whose replays pass the document's bound.
func (b *builder) checkRepetition() {
	limit := b.events * repetitionPerEvent
	if b.jumps <= limit {
		return
	}
	for _, a := range b.aliases {
		if a.jumps > limit {
			b.fail(a.offset, msgRepetitionLimit)
			return
		}
	}
}

func satAdd(a, c int) int {
	const ceiling = 1 << 60
	return min(a+c, ceiling)
}

// collectionOffset is where a collection's text starts, for errors: its first key, or its indicator.
func (b *builder) collectionOffset(n ast.Node) func() int {
	return func() int {
		switch n := n.(type) {
		case *ast.MappingNode:
			if !n.IsFlowStyle && len(n.Values) > 0 && n.Values[0].Key != nil {
				return b.offset(n.Values[0].Key.GetToken())
			}
			if n.Start != nil {
				return b.offset(n.Start)
			}
		case *ast.MappingValueNode:
			if n.Key != nil {
				return b.offset(n.Key.GetToken())
			}
		case *ast.SequenceNode:
			if n.Start != nil {
				return b.offset(n.Start)
			}
		}
		return b.offset(n.GetToken())
	}
}
