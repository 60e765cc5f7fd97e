// The shape pre-check's per-document memo: a keystroke inside a line whose scan depended only on its
// indentation and first character (block scalar content, a comment) leaves the line pass's result as it
// was, so only the control-character scan runs again (the line pass was a tenth of a keystroke in the
// 3,000-line benchmark recipe's profile once the tree was re-used).

package yamltree

import (
	"bytes"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// shapeMemo is the line pass over the last text that passed it cleanly.
type shapeMemo struct {
	text    []byte // never modified (ParseCached)
	res     shape  // no error, no second document (so no offsets to move)
	passive []bool // by line: what scanShape marked
}

// precheck is precheckShape, re-using the last clean line pass when the edit since its text allows it.
func (c *Cache) precheck(li *source.LineIndex) shape {
	if c == nil {
		return precheckShape(li)
	}
	c.mu.Lock()
	m := c.shape
	c.mu.Unlock()
	text := li.Text()
	if m != nil && m.passiveEdit(text) {
		c.keepShape(text, m.res, m.passive)
		return withControlCharacters(li, m.res)
	}
	passive := make([]bool, li.LineCount())
	res := scanShape(li, splitEntries, passive)
	if res.err == nil && res.secondDoc < 0 && res.afterEnd < 0 {
		c.keepShape(text, res, passive)
	}
	return withControlCharacters(li, res)
}

func (c *Cache) keepShape(text []byte, res shape, passive []bool) {
	c.mu.Lock()
	c.shape = &shapeMemo{text: text, res: res, passive: passive}
	c.mu.Unlock()
}

// passiveEdit reports that text differs from the memo's text inside one passive line only, after the
// line's first character and with no line break made or removed: the line pass then sees every line
// as before (the same lines, indentations and first characters), so its result stands.
func (m *shapeMemo) passiveEdit(text []byte) bool {
	e := diffBytes(m.text, text)
	if e.start == e.oldEnd && e.start == e.newEnd {
		return true
	}
	old := m.text
	if bytes.ContainsAny(old[e.start:e.oldEnd], "\r\n") || bytes.ContainsAny(text[e.start:e.newEnd], "\r\n") ||
		e.start == 0 || old[e.start-1] == '\r' {
		return false
	}
	ls := bytes.LastIndexAny(old[:e.start], "\r\n") + 1
	line := bytes.Count(old[:ls], []byte("\n")) + bytes.Count(old[:ls], []byte("\r")) - bytes.Count(old[:ls], []byte("\r\n"))
	if line >= len(m.passive) || !m.passive[line] {
		return false
	}
	p := ls
	for p < e.start && (old[p] == ' ' || old[p] == '\t') {
		p++
	}
	// the first character stays (so does the indentation), and it is no `---`/`...` line
	return p < e.start && (p > ls || old[p] == '#')
}
