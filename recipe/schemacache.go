// The schema stage's cache: validation split at the top level and at the items of list properties
// (recipe/schema's split.go), each part's violations kept with a hash of its value, so a re-check
// validates only the top-level values and list items an edit changed (whole-document validation was the
// largest single cost of a re-check of the heavy recipe, and a structural edit changes one item).

package recipe

import (
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/schema"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// schemaCache keeps the violations of the values the last two checks validated: top-level values and
// list items, by property and hash. Two checks, so that an edit and its undo (a key renamed and back)
// both find theirs. Safe for concurrent use (checks of successive versions may overlap).
type schemaCache struct {
	mu      sync.Mutex
	check   uint64 // the checks so far
	entries map[valueKey]*schemaEntry
}

// valueKey is one validated value: a top-level property's, or an item of a list property's (an item's
// violations do not depend on its place in the list; their pointers start inside the item).
type valueKey struct {
	name string
	item bool
	sum  uint64
}

type schemaEntry struct {
	vs   []schema.Violation // shared: read only
	used uint64             // the last check that used it
}

// lookup returns the violations of the value under k when a recent check validated the same value.
func (c *schemaCache) lookup(k valueKey) ([]schema.Violation, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e == nil {
		return nil, false
	}
	e.used = c.check
	return e.vs, true
}

func (c *schemaCache) store(k valueKey, vs []schema.Violation) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[valueKey]*schemaEntry{}
	}
	c.entries[k] = &schemaEntry{vs: vs, used: c.check}
	c.mu.Unlock()
}

// done ends a check: values neither it nor the check before it used go.
func (c *schemaCache) done() {
	if c == nil {
		return
	}
	c.mu.Lock()
	for k, e := range c.entries {
		if e.used+1 < c.check {
			delete(c.entries, k)
		}
	}
	c.check++
	c.mu.Unlock()
}

// schemaViolations validates the tree as sc.Validate(instance(root)) would, property by property and,
// for list properties, item by item.
func schemaViolations(sc *schema.Schema, root *Node, cache *schemaCache) []schema.Violation {
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
	for _, name := range keys {
		if !sc.HasProperty(name) {
			continue
		}
		value := root.Get(name)
		if value == nil || value.Kind != yamltree.Seq || !sc.HasItems(name) {
			k := valueKeyOf(cache, name, false, value)
			vs, ok := cache.lookup(k)
			if !ok {
				vs = sc.ValidateProperty(name, instance(value))
				cache.store(k, vs)
			}
			out = append(out, vs...)
			continue
		}
		for i, it := range value.Items {
			k := valueKeyOf(cache, name, true, it)
			vs, ok := cache.lookup(k)
			if !ok {
				vs = sc.ValidateItem(name, instance(it))
				cache.store(k, vs)
			}
			for _, v := range vs {
				v.Pointer = append([]string{name, strconv.Itoa(i)}, v.Pointer...)
				out = append(out, v)
			}
		}
	}
	cache.done()
	return out
}

// valueKeyOf is the cache key of a value (no hashing without a cache).
func valueKeyOf(cache *schemaCache, name string, item bool, n *Node) valueKey {
	k := valueKey{name: name, item: item}
	if cache != nil {
		k.sum = nodeHash(n)
	}
	return k
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
