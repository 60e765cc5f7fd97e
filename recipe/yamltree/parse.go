// Parsing entry points: goose's order of refusals (shape limits, libyaml's verdict, serde_yaml's second
// document), goccy/go-yaml's tree (masked, split) or the degraded one, and the per-document cache.

package yamltree

import (
	"bytes"
	"errors"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// Cache keeps the last masked parse of one document, so an edit that only changes block-scalar text (the
// masked text stays the same) skips goccy entirely. Safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	masked []byte
	file   *segments
	// the libyaml verdict on a masked text (verdict.go)
	verdictMasked []byte
	verdict       verdict
	// the last masked parse's tree (reuse.go) and the last clean shape pre-check (shapememo.go); both
	// keep the text they were made from, which ParseCached's caller leaves unchanged
	tree  *treeMemo
	shape *shapeMemo
}

func (c *Cache) get(masked []byte) *segments {
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

func (c *Cache) put(masked []byte, f *segments) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.masked, c.file = masked, f
	c.mu.Unlock()
}

// Parse parses text (which the line index covers).
func Parse(li *source.LineIndex) (*Document, error) { return ParseCached(li, nil) }

// ParseCached is parseCached with the place to fix found for a syntax error (construct.go).
func ParseCached(li *source.LineIndex, cache *Cache) (*Document, error) {
	doc, err := parseCached(li, cache)
	var e *Error
	if errors.As(err, &e) {
		e.findConstruct(li.Text())
	}
	return doc, err
}

// parseCached is Parse with a per-document cache (nil for none). Nesting deeper than serde_yaml's limit
// is refused before goccy/go-yaml sees the text, and only the first document (up to the `---` of the
// second) is parsed: goose refuses a second document whatever it contains. libyaml's verdict
// (verdict.go) decides whether the text parses; goccy/go-yaml builds the tree, and where it refuses what
// libyaml accepts, the tree comes from the libyaml port's nodes (Document.Degraded). With a cache, the
// tree's nodes may be shared with the cache and with trees returned before: callers must not modify them,
// nor the text (the cache keeps it to measure the next text's edit against).
func parseCached(li *source.LineIndex, cache *Cache) (*Document, error) {
	sh := cache.precheck(li)
	first := li
	var extra *source.Range
	switch {
	case sh.secondDoc >= 0:
		first = source.NewLineIndex(li.Text()[:sh.secondDoc+3])
		extra = &source.Range{Start: sh.secondDoc, End: sh.secondDoc + 3}
	case sh.afterEnd >= 0:
		first = source.NewLineIndex(li.Text()[:sh.afterEnd+3])
		extra = &sh.extraDoc
	}
	if sh.err != nil {
		verr := libyamlVerdict(first).err
		if verr != nil && verr.Msg == sh.err.Msg {
			return nil, sh.err // the same problem, which the shape pass places at libyaml's token
		}
		return nil, earlier(verr, sh.err)
	}
	doc, masked, err := parseFirst(first, cache, sh.splits)
	v := cachedVerdict(first, masked, cache)
	var ge *Error
	goccyRefused := errors.As(err, &ge) && ge.goccy
	switch {
	case v.err != nil:
		if err != nil && !goccyRefused {
			return nil, earlier(v.err, err) // a limit of serde_yaml's reached before libyaml's error
		}
		return nil, v.err
	case goccyRefused:
		doc = degradedTree(first, libyamlVerdict(first).node)
		doc.Refused = ge
	case err != nil:
		return nil, err
	}
	// the second document as libyaml sees it (goccy/go-yaml can count a directive as a document)
	switch {
	case extra != nil:
		doc.Extra = extra
	case !v.more:
		doc.Extra = nil
	case doc.Extra == nil:
		doc.Extra = &source.Range{Start: len(first.Text()), End: len(first.Text())}
	}
	return doc, nil
}

// earlier is the error goose meets first: libyaml's syntax error (verr, may be nil) when it lies before
// a limit or reader error (lim), else lim. libyaml's reader refuses a control character when it decodes
// the chunk holding it, so a syntax error before that chunk comes first.
func earlier(verr *Error, lim error) error {
	if verr == nil {
		return lim
	}
	var le *Error
	if !errors.As(lim, &le) {
		return lim
	}
	stop := le.Offset
	if le.Msg == msgControlCharacter {
		stop -= stop % readerChunk
	}
	if verr.Msg != msgControlCharacter && verr.Offset < stop {
		return verr
	}
	return lim
}

// parseFirst parses the text of the first document with goccy/go-yaml: masked when it can, else as it
// is; masked is the masked text goccy confirmed (nil when it parsed the original).
func parseFirst(li *source.LineIndex, cache *Cache, splits []split) (doc *Document, masked []byte, err error) {
	if m, blocks := mask(li, minMaskBytes); m != nil {
		if doc := cache.reuseTree(li, m, blocks); doc != nil {
			return doc, m, nil
		}
		if doc, ok := parse(li, m, blocks, splits, cache); ok {
			if doc.err != nil {
				return nil, m, doc.err
			}
			return doc, m, nil
		}
	}
	doc, _ = parse(li, nil, nil, splits, nil)
	if doc.err != nil && len(splits) > 0 && len(li.Text()) <= maxUnsplitRetryBytes {
		// a run parsed on its own can word a syntax error differently: a text of ordinary size is
		// parsed again whole so the message is goccy's for the whole text
		doc, _ = parse(li, nil, nil, nil, nil)
	}
	if doc.err != nil {
		return nil, nil, doc.err
	}
	return doc, nil, nil
}

// maxUnsplitRetryBytes is the largest text whose failed split parse is redone whole (goccy's cost for
// many keys is quadratic; at this size it stays in the tens of milliseconds).
const maxUnsplitRetryBytes = 32 << 10
