// Schema validation split at the top level with a per-document cache: each top-level property's
// violations are kept with a hash of its value, so a keystroke in `instructions` re-validates only
// `instructions` (the profile of the 3,000-line benchmark recipe showed whole-document validation as the
// largest single cost of a re-check).

package recipe

import (
	"hash/maphash"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/schema"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// propertyCache keeps, per top-level key, the hash of its value and the violations it gave. Safe for
// concurrent use (checks of successive versions may overlap).
type propertyCache struct {
	mu     sync.Mutex
	byName map[string]cachedViolations
}

type cachedViolations struct {
	sum uint64
	vs  []schema.Violation // shared: read only
}

func (c *propertyCache) get(name string, sum uint64) ([]schema.Violation, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byName[name]
	if !ok || e.sum != sum {
		return nil, false
	}
	return e.vs, true
}

// keep replaces the cache's content by the properties of the latest check (keys no longer present go).
func (c *propertyCache) keep(entries map[string]cachedViolations) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.byName = entries
	c.mu.Unlock()
}

// schemaViolations validates the tree as sc.Validate(instance(root)) would, property by property.
func schemaViolations(sc *schema.Schema, root *Node, cache *propertyCache) []schema.Violation {
	if root == nil || root.Kind != yamltree.Map {
		return sc.Validate(instance(root))
	}
	keys := make([]string, 0, len(root.Pairs))
	seen := make(map[string]bool, len(root.Pairs))
	for _, p := range root.Pairs {
		if !seen[p.Key.Value] { // the first of duplicated keys counts, as in instance()
			seen[p.Key.Value] = true
			keys = append(keys, p.Key.Value)
		}
	}
	out := sc.ValidateRoot(keys)
	var next map[string]cachedViolations
	if cache != nil {
		next = make(map[string]cachedViolations, len(keys))
	}
	for _, k := range keys {
		if !sc.HasProperty(k) {
			continue
		}
		value := root.Get(k)
		var sum uint64
		if cache != nil {
			sum = nodeHash(value)
			if vs, ok := cache.get(k, sum); ok {
				next[k] = cachedViolations{sum, vs}
				out = append(out, vs...)
				continue
			}
		}
		vs := sc.ValidateProperty(k, instance(value))
		if cache != nil {
			next[k] = cachedViolations{sum, vs}
		}
		out = append(out, vs...)
	}
	cache.keep(next)
	return out
}

var nodeHashSeed = maphash.MakeSeed()

// nodeHash hashes what instance() reads of a node: kinds, scalar types and values, keys, items.
func nodeHash(n *Node) uint64 {
	var h maphash.Hash
	h.SetSeed(nodeHashSeed)
	writeNode(&h, n)
	return h.Sum64()
}

func writeNode(h *maphash.Hash, n *Node) {
	if n == nil {
		h.WriteByte(0xff)
		return
	}
	h.WriteByte(byte(n.Kind))
	h.WriteByte(byte(n.Type))
	switch n.Kind {
	case yamltree.Map:
		writeLen(h, len(n.Pairs))
		for _, p := range n.Pairs {
			writeString(h, p.Key.Value)
			writeNode(h, p.Value)
		}
	case yamltree.Seq:
		writeLen(h, len(n.Items))
		for _, it := range n.Items {
			writeNode(h, it)
		}
	default:
		writeString(h, n.Value)
	}
}

func writeString(h *maphash.Hash, s string) {
	writeLen(h, len(s))
	h.WriteString(s)
}

func writeLen(h *maphash.Hash, n int) {
	var b [8]byte
	for i := range b {
		b[i] = byte(n >> (8 * i))
	}
	h.Write(b[:])
}
