// A process-wide cache of sub-recipe summaries by content, so a keystroke in a parent and a folder of
// parents sharing children do not parse the same child file again.

package recipe

import (
	"crypto/sha256"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// childCacheEntries bounds the cache; the oldest entry goes first. A summary is a few hundred bytes.
const childCacheEntries = 512

// childInfoCache maps the SHA-256 of a sub-recipe's text to its parsed summary (or the error that text
// gives). Files are still read (confined) every time; only the parse is skipped for a known text.
type childInfoCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]childResult
	order   [][sha256.Size]byte // insertion order, for eviction
}

type childResult struct {
	info *ChildInfo
	err  error
}

var childInfos = &childInfoCache{}

// get returns the summary of data, parsing it only when this text was not seen recently.
func (c *childInfoCache) get(data []byte) (*ChildInfo, error) {
	key := sha256.Sum256(data)
	c.mu.Lock()
	r, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return r.info, r.err
	}
	info, err := parseChildInfo(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(key, childResult{info, err})
	return info, err
}

// store adds r under key unless the key is there already, evicting the oldest entry when full; c.mu held.
func (c *childInfoCache) store(key [sha256.Size]byte, r childResult) {
	if c.entries == nil {
		c.entries = map[[sha256.Size]byte]childResult{}
	}
	if _, ok := c.entries[key]; ok {
		return
	}
	if len(c.order) >= childCacheEntries {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = r
	c.order = append(c.order, key)
}

// put stores the summary of data computed elsewhere (shareChildInfo); an entry already there is kept.
func (c *childInfoCache) put(data []byte, info *ChildInfo) {
	key := sha256.Sum256(data)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(key, childResult{info: info})
}

// shareChildInfo hands this check's sub-recipe summary to childInfos (see sharedChildInfo).
func (f *File) shareChildInfo(body string) {
	if info := f.sharedChildInfo(body); info != nil {
		childInfos.put(f.Text, info)
	}
}

// sharedChildInfo is this check's sub-recipe summary when it is, provably, what parseChildInfo computes
// from the same bytes, else nil. That holds when the YAML stage parsed the file's own text (no byte-order
// mark, goose's pre-processing changed nothing, no extends/include render, no patched value, no
// per-document cache) and the tree is a recipe with a title: parseChildInfo then runs yamltree.Parse on
// the same text, takes the same root (the `recipe` wrapper's value when there is one) and summarises the
// same model, and summarizeChild reads strings only, never the ranges remap moved.
func (f *File) sharedChildInfo(body string) *ChildInfo {
	if f.BOM != 0 || f.Inherits || f.yamlPatched || f.cache != nil || f.Pre == nil || f.Pre.Text != body ||
		f.Tree == nil || f.Tree.Kind != yamltree.Map || f.Tree.Get("title") == nil || f.Recipe == nil {
		return nil
	}
	return summarizeChild(f.Recipe)
}
