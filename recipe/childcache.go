// A process-wide cache of sub-recipe summaries by content, so a keystroke in a parent and a folder of
// parents sharing children do not parse the same child file again.

package recipe

import (
	"crypto/sha256"
	"sync"
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
	if c.entries == nil {
		c.entries = map[[sha256.Size]byte]childResult{}
	}
	if _, ok := c.entries[key]; !ok {
		if len(c.order) >= childCacheEntries {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
		c.entries[key] = childResult{info, err}
		c.order = append(c.order, key)
	}
	return info, err
}
