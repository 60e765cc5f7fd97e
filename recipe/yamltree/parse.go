// Parsing entry points: goose's order of refusals (shape limits, libyaml's verdict, serde_yaml's second
// document), goccy/go-yaml's tree (masked, split) or the degraded one, and the per-document cache.

package yamltree

import (
	"bytes"
	"errors"
	"sync"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// Cache is what one document's parses keep for the next version of its text. Safe for concurrent use.
// Its parts: the verdict cache (libyaml's verdict on the last masked text, verdict.go) and the tree
// cache (the last masked parse's tree, which serves an edit inside a block scalar, or takes the edited
// entry parsed alone for an edit inside one entry: treecache.go, splice.go). The tree cache keeps the
// text it was made from, which ParseCached's caller leaves unchanged.
type Cache struct {
	mu            sync.Mutex
	verdictMasked []byte
	verdict       verdict
	tree          *treeCache
	// refused: libyaml refused the last text, so the next one (most likely broken the same way) goes to
	// libyaml before goccy
	refused bool
}

func (c *Cache) lastRefused() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused
}

func (c *Cache) noteRefused(refused bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.refused = refused
	c.mu.Unlock()
}

// Parse parses text (which the line index covers).
func Parse(li *source.LineIndex) (*Document, error) { return ParseCached(li, nil) }

// ParseCached is parseCached with the place to fix found for a syntax error (construct.go); the cache
// remembers whether libyaml refused the text (the next edit then asks libyaml first).
func ParseCached(li *source.LineIndex, cache *Cache) (*Document, error) {
	doc, err := parseCached(li, cache)
	var e *Error
	if errors.As(err, &e) {
		e.findConstruct(li.Text())
	}
	cache.noteRefused(e != nil && !e.goccy)
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
	sh := precheckShape(li)
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
	doc, masked, known, err := parseFirst(first, cache, sh)
	var v verdict
	switch {
	case known == nil:
		v = cachedVerdict(first, masked, cache)
	case known.err != nil && limitsCannotPrecede(first.Text(), known.err.Offset, sh):
		return nil, known.err
	default:
		v = *known
		if masked != nil && v.err == nil && !hasUnicodeBreak(first.Text()) {
			// goccy confirmed the mask: the verdict on the text is the masked text's (see cachedVerdict)
			cache.putVerdict(masked, verdict{more: v.more})
		}
	}
	var ge *Error
	goccyRefused := errors.As(err, &ge) && ge.goccy
	switch {
	case v.err != nil:
		if err != nil && !goccyRefused {
			return nil, earlier(v.err, err) // a limit of serde_yaml's reached before libyaml's error
		}
		return nil, v.err
	case goccyRefused:
		node := v.node // composed when the verdict was on the text itself
		if node == nil {
			node = libyamlVerdict(first).node
		}
		doc = degradedTree(first, node)
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
// is; masked is the masked text goccy confirmed (nil when it parsed the original). libyaml's verdict on
// the text comes first (v) when the text is likely refused: goccy refused the masked text, the edited
// entry alone does not parse (splice.go), or the document's last text was refused. When libyaml refuses
// the text, goccy does not parse it: goose stops at libyaml's error, and goccy's tree could only add one
// of serde_yaml's limits before it (limitsCannotPrecede).
func parseFirst(li *source.LineIndex, cache *Cache, sh shape) (doc *Document, masked []byte, v *verdict, err error) {
	m, blocks := mask(li, minMaskBytes)
	refusedFirst := func() bool {
		if v == nil {
			lv := libyamlVerdict(li)
			v = &lv
		}
		return v.err != nil && limitsCannotPrecede(li.Text(), v.err.Offset, sh) && !inMaskedContent(li, blocks, v.err.Offset) &&
			utf8.Valid(li.Text())
	}
	if m != nil {
		if doc := cache.cachedTree(li, m, blocks); doc != nil {
			return doc, m, nil, nil
		}
		doc, entryRefused := cache.splicedTree(li, m, blocks, sh)
		if doc != nil {
			return doc, m, nil, nil
		}
		if (entryRefused || cache.lastRefused()) && refusedFirst() {
			return nil, nil, v, nil
		}
		if doc, ok := parse(li, m, blocks, sh.splits, cache); ok {
			if v != nil && v.err != nil {
				v = nil // an error refusedFirst left alone: the masked text's verdict decides, as without a cache
			}
			if doc.err != nil {
				return nil, m, v, doc.err
			}
			return doc, m, v, nil
		}
		if refusedFirst() {
			return nil, nil, v, nil
		}
	}
	doc, _ = parse(li, nil, nil, sh.splits, nil)
	if doc.err != nil && len(sh.splits) > 0 && len(li.Text()) <= maxUnsplitRetryBytes {
		// a run parsed on its own can word a syntax error differently: a text of ordinary size is
		// parsed again whole so the message is goccy's for the whole text
		doc, _ = parse(li, nil, nil, nil, nil)
	}
	if doc.err != nil {
		return nil, nil, v, doc.err
	}
	return doc, nil, v, nil
}

// inMaskedContent reports that off lies in a masked block scalar's content: libyaml refuses nothing
// there that the masked text does not show (its reader's refusals, bytes that are not UTF-8, are for
// the file check, which comes first), so an error there is left to the masked text's verdict.
func inMaskedContent(li *source.LineIndex, blocks []maskedBlock, off int) bool {
	l := li.Line(off)
	for _, b := range blocks {
		if b.first <= l && l <= b.last {
			return true
		}
	}
	return false
}

// limitsCannotPrecede reports that no serde_yaml limit the tree checks (limits.go) can fail before
// offset off: the recursion limit needs nesting beyond what the shape pass counted twice over (implicit
// flow pairs add at most one level per flow level it counted), and every other limit needs an alias
// that replays an anchor, so an `&` and a later `*` before off.
func limitsCannotPrecede(text []byte, off int, sh shape) bool {
	if 2*sh.deepest >= maxDepth {
		return false
	}
	before := text[:min(off, len(text))]
	amp := bytes.IndexByte(before, '&')
	return amp < 0 || bytes.IndexByte(before[amp:], '*') < 0
}

// maxUnsplitRetryBytes is the largest text whose failed split parse is redone whole (goccy's cost for
// many keys is quadratic; at this size it stays in the tens of milliseconds).
const maxUnsplitRetryBytes = 32 << 10
