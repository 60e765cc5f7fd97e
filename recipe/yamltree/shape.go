// Shape pre-check: one linear pass over the text, before goccy/go-yaml sees it, that rejects nesting
// deeper than serde_yaml accepts (so no deep recursion or quadratic flow scan is reachable in goccy) and
// finds where a second document starts (everything after it is irrelevant: goose refuses the file).

package yamltree

import "github.com/goose-ls/goose-ls/recipe/source"

// maxDepth is serde_yaml's recursion limit: 128 nested sequences or mappings (de.rs, remaining_depth).
const maxDepth = 128

// Messages as serde_yaml words them (goose cuts the " at line …" suffix).
const (
	msgRecursionLimit  = "recursion limit exceeded"
	msgRepetitionLimit = "repetition limit exceeded"
	// msgControlCharacter is libyaml's reader error (serde_yaml prints libyaml's problem text).
	msgControlCharacter = "control characters are not allowed"
)

// shape is the result of the pre-check.
type shape struct {
	err *Error
	// secondDoc is the offset of the `---` that starts a second document, or -1.
	secondDoc int
	// afterEnd is, when a `...` document end is followed by more content, the `...` line's offset and
	// the range of that content (the second document's start), else -1.
	afterEnd int
	extraDoc source.Range
	// splits are the block mappings with more than splitEntries entries, by first key line.
	splits []split
	// deepest is the deepest nesting the pass counted (blocks by indentation and flow openers).
	deepest int
}

type blockLevel struct {
	col int
	seq bool
	// keys are the lines of a block mapping's keys; noSplit marks explicit `?`/`:` entries.
	keys    []int
	noSplit bool
}

// shapeScanner walks the text line by line in block context and character by character in flow
// context. Its depth counts collections it is sure of: block levels by indentation and every flow
// opener; the exact depth (with aliases and implicit flow pairs) is checked again on the tree.
type shapeScanner struct {
	li     *source.LineIndex
	text   []byte
	blocks []blockLevel
	flow   int
	splits []split
	// deepest is the deepest nesting seen so far
	deepest int
	// splitEntries is the number of entries past which a block mapping is split
	splitEntries int
	// blockScalarParent is the indentation a block scalar's content must exceed, or -2 outside one;
	// blockScalarIndent is its content's indentation, once its first content line is seen (else -1).
	blockScalarParent, blockScalarIndent int
	docStarted                           bool
	// the last search for a mapping colon on a line: from colonFrom to colonEnd it found colonAt (or -1),
	// so `- - - key:` scans its line once
	colonFrom, colonEnd, colonAt int
}

// precheckShape scans text once; its cost is linear in the text's size.
func precheckShape(li *source.LineIndex) shape { return precheckShapeN(li, splitEntries) }

// readerChunk is how much input libyaml's reader decodes at a time (YAML_RAW_BUFFER_SIZE); it refuses a
// control character when it decodes it, before the scanner reaches it.
const readerChunk = 16384

// precheckShapeN is precheckShape with mappings split past the given number of entries. A character
// libyaml's reader refuses fails the text unless goose stops earlier: at a second document or a nesting
// error that comes before the 16 KiB chunk holding the character.
func precheckShapeN(li *source.LineIndex, entries int) shape {
	return withControlCharacters(li, scanShape(li, entries))
}

// withControlCharacters adds to the line pass's result the refusal of the first control character.
func withControlCharacters(li *source.LineIndex, res shape) shape {
	text := li.Text()
	off := firstControlCharacter(text)
	if off < 0 {
		return res
	}
	stop := len(text)
	if res.secondDoc >= 0 {
		stop = res.secondDoc
	}
	if res.afterEnd >= 0 {
		stop = res.afterEnd
	}
	if res.err != nil {
		stop = min(stop, res.err.Offset)
	}
	if off-off%readerChunk <= stop {
		res.err = &Error{Offset: off, End: off + controlCharacterLen(text[off:]), Msg: msgControlCharacter}
	}
	return res
}

// firstControlCharacter is the offset of the first character libyaml's reader refuses ("control
// characters are not allowed": C0 controls other than tab, LF and CR; DEL; C1 controls other than NEL;
// U+FFFE and U+FFFF), or -1. Bytes that are not UTF-8 are left to the file check.
func firstControlCharacter(text []byte) int {
	for i := 0; i < len(text); i++ {
		i = skipPlainASCII(text, i)
		if i >= len(text) {
			break
		}
		switch c := text[i]; {
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r', c == 0x7f:
			return i
		case c == 0xc2 && i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] <= 0x9f && text[i+1] != 0x85:
			return i
		case c == 0xef && i+2 < len(text) && text[i+1] == 0xbf && (text[i+2] == 0xbe || text[i+2] == 0xbf):
			return i
		}
	}
	return -1
}

// controlCharacterLen is the byte length of the refused character at the start of text.
func controlCharacterLen(text []byte) int {
	switch {
	case text[0] < 0x80:
		return 1
	case text[0] == 0xc2:
		return 2
	}
	return 3
}

// scanShape is the line pass of precheckShapeN.
func scanShape(li *source.LineIndex, entries int) shape {
	s := &shapeScanner{li: li, text: li.Text(), blockScalarParent: -2, colonFrom: -1, splitEntries: entries}
	res := s.scan()
	res.deepest = s.deepest
	return res
}

func (s *shapeScanner) scan() shape {
	li := s.li
	res := shape{secondDoc: -1, afterEnd: -1}
	for line := 0; line < li.LineCount(); line++ {
		start, end := li.LineStart(line), li.LineEnd(line)
		if s.flow == 0 && s.docStarted && isDocEnd(s.text[start:end]) {
			if r, ok := nextContent(li, line+1); ok {
				s.popTo(0, line)
				res.splits = s.sortedSplits()
				if !opensDocument(s.text[r.Start:li.LineEnd(li.Line(r.Start))]) {
					// libyaml's parser: after `...` only `---` (or directives) may start a document
					res.err = &Error{Offset: r.Start, Msg: msgExpectedDocumentStart}
					return res
				}
				res.afterEnd, res.extraDoc = start, r
				return res
			}
		}
		if s.flow == 0 && isDocMarker(s.text[start:end]) {
			if s.docStarted {
				res.secondDoc = start
				s.popTo(0, line)
				res.splits = s.sortedSplits()
				return res
			}
			s.docStarted = true
			s.popTo(0, line)
			s.blockScalarParent = -2
			if err := s.scanRest(start+3, end); err != nil {
				res.err = err
				return res
			}
			continue
		}
		var err *Error
		line, err = s.scanLine(line)
		if err != nil {
			res.err = err
			return res
		}
	}
	s.popTo(0, li.LineCount())
	res.splits = s.sortedSplits()
	return res
}

// popTo closes block levels down to n; line is the first line after them.
func (s *shapeScanner) popTo(n, line int) {
	for len(s.blocks) > n {
		top := s.blocks[len(s.blocks)-1]
		s.blocks = s.blocks[:len(s.blocks)-1]
		s.noteSplit(top, line)
	}
}

func isDocEnd(l []byte) bool {
	return len(l) >= 3 && string(l[:3]) == "..." && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

const msgExpectedDocumentStart = "did not find expected <document start>"

// opensDocument: a line (from its first token) that may follow a `...` document end: `---` or a
// directive. Anything else is libyaml's "did not find expected <document start>".
func opensDocument(l []byte) bool { return isDocMarker(l) || (len(l) > 0 && l[0] == '%') }

// nextContent finds the first line from line on that holds more than blanks, comments and further `...`
// document ends (libyaml's parser skips those), and returns the range of its first word.
func nextContent(li *source.LineIndex, line int) (source.Range, bool) {
	t := li.Text()
	for ; line < li.LineCount(); line++ {
		start, end := li.LineStart(line), li.LineEnd(line)
		p := skipBlanks(t, start, end)
		if p == end || t[p] == '#' || (p == start && isDocEnd(t[start:end])) {
			continue
		}
		e := p + 1
		for e < end && t[e] != ' ' && t[e] != '\t' && t[e] != ':' {
			e++
		}
		return source.Range{Start: p, End: e}, true
	}
	return source.Range{}, false
}

func isDocMarker(l []byte) bool {
	return len(l) >= 3 && string(l[:3]) == "---" && (len(l) == 3 || l[3] == ' ' || l[3] == '\t')
}

func (s *shapeScanner) depthError(off int) *Error {
	s.deepest = max(s.deepest, len(s.blocks)+s.flow)
	if len(s.blocks)+s.flow > maxDepth {
		return &Error{Offset: off, Msg: msgRecursionLimit}
	}
	return nil
}

// scanLine scans one line in block context (or continues a flow collection) and returns the last line
// it consumed (a quoted scalar or a flow collection may span lines).
func (s *shapeScanner) scanLine(line int) (int, *Error) {
	start, end := s.li.LineStart(line), s.li.LineEnd(line)
	if s.flow > 0 {
		return s.scanFlow(start, end, line)
	}
	ind := indentOf(s.text[start:end])
	p := start + ind
	if p == end || s.text[p] == '#' {
		return line, nil // blank or comment-only lines never change the structure
	}
	if s.blockScalarParent > -2 {
		if s.blockScalarIndent < 0 && ind > s.blockScalarParent {
			s.blockScalarIndent = ind
		}
		if s.blockScalarIndent >= 0 && ind >= s.blockScalarIndent {
			return line, nil
		}
		s.blockScalarParent = -2
	}
	if ind == 0 && s.text[p] == '%' && !s.docStarted {
		return line, nil // a directive
	}
	s.docStarted = true
	n := len(s.blocks)
	for n > 0 && s.blocks[n-1].col > ind {
		n--
	}
	s.popTo(n, line)
	return s.scanNodes(p, end, line)
}

// scanRest scans what follows a `---` marker on its line.
func (s *shapeScanner) scanRest(p, end int) *Error {
	for p < end && (s.text[p] == ' ' || s.text[p] == '\t') {
		p++
	}
	if p == end {
		return nil
	}
	_, err := s.scanNodes(p, end, s.li.Line(p))
	return err
}

// open pushes a block collection at column col unless the same one is already open there; a key
// line of a mapping is recorded as one of its entries.
func (s *shapeScanner) open(col int, seq bool, off, line int) *Error {
	explicit := !seq && (s.text[off] == '?' || s.text[off] == ':')
	if n := len(s.blocks); n > 0 {
		top := &s.blocks[n-1]
		if !seq && top.col == col && top.seq && n > 1 && s.blocks[n-2].col == col && !s.blocks[n-2].seq {
			s.popTo(n-1, line) // `key:` then `- item` at the key's column, then the next key
			top = &s.blocks[n-2]
		}
		if top.col == col && top.seq == seq {
			if !seq {
				top.keys = append(top.keys, line)
				top.noSplit = top.noSplit || explicit
			}
			return nil
		}
		if top.col == col && top.seq && !seq {
			return nil // not a valid shape; goccy reports it
		}
	}
	lvl := blockLevel{col: col, seq: seq}
	if !seq {
		lvl.keys, lvl.noSplit = []int{line}, explicit
	}
	s.blocks = append(s.blocks, lvl)
	return s.depthError(off)
}

// scanNodes scans block-context content from p: sequence entries, a key, then its value.
func (s *shapeScanner) scanNodes(p, end, line int) (int, *Error) {
	lineStart := s.li.LineStart(line)
	for p < end {
		c := s.text[p]
		switch {
		case (c == '-' || c == '?') && (p+1 == end || s.text[p+1] == ' ' || s.text[p+1] == '\t'):
			if err := s.open(p-lineStart, c == '-', p, line); err != nil {
				return line, err
			}
			p = skipBlanks(s.text, p+1, end)
			continue
		}
		if colon := s.mappingColon(p, end); colon >= 0 {
			if err := s.open(p-lineStart, false, p, line); err != nil {
				return line, err
			}
			p = skipBlanks(s.text, colon+1, end)
			if p < end && s.text[p] != '#' {
				return s.scanValue(p, end, line)
			}
			return line, nil
		}
		return s.scanValue(p, end, line)
	}
	return line, nil
}

// mappingColon finds the `:` of an implicit key starting at p on this line (outside quotes and flow
// collections), or -1.
func (s *shapeScanner) mappingColon(p, end int) int {
	t := s.text
	if t[p] == '"' || t[p] == '\'' {
		q := skipQuotedOnLine(t, p, end)
		if q < 0 {
			return -1
		}
		p = skipBlanks(t, q, end)
		if p < end && t[p] == ':' && (p+1 == end || t[p+1] == ' ' || t[p+1] == '\t') {
			return p
		}
		return -1
	}
	if isFlowIndicator(t[p]) || t[p] == '&' || t[p] == '*' || t[p] == '!' || t[p] == '|' || t[p] == '>' {
		return -1
	}
	if s.colonFrom < 0 || p < s.colonFrom || (s.colonAt >= 0 && p > s.colonAt) || s.colonEnd != end {
		s.colonFrom, s.colonEnd, s.colonAt = p, end, -1
		for i := p; i < end; i++ {
			if t[i] == '#' && i > p && (t[i-1] == ' ' || t[i-1] == '\t') {
				break // a comment
			}
			if t[i] == ':' && (i+1 == end || t[i+1] == ' ' || t[i+1] == '\t') {
				s.colonAt = i
				break
			}
		}
	}
	return s.colonAt
}

// scanValue scans a value in block context: node properties, then a flow collection, a block scalar
// header, a quoted scalar (possibly spanning lines) or a plain scalar.
func (s *shapeScanner) scanValue(p, end, line int) (int, *Error) {
	t := s.text
	for p < end && (t[p] == '&' || t[p] == '!') {
		for p < end && t[p] != ' ' && t[p] != '\t' {
			p++
		}
		p = skipBlanks(t, p, end)
	}
	if p == end {
		return line, nil
	}
	switch t[p] {
	case '[', '{':
		return s.scanFlow(p, end, line)
	case '|', '>':
		parent := 0
		if n := len(s.blocks); n > 0 {
			parent = s.blocks[n-1].col
		}
		s.blockScalarParent, s.blockScalarIndent = parent, -1
		return line, nil
	case '"', '\'':
		return s.skipQuoted(p, line)
	}
	return line, nil
}

// scanFlow scans flow-collection text from p, across lines, until the outermost collection closes;
// the rest of that line is then plain text or a comment.
func (s *shapeScanner) scanFlow(p, end, line int) (int, *Error) {
	t := s.text
	atStart := true // a quote here opens a quoted scalar; inside a plain scalar it is a character
	for {
		for p < end {
			c := t[p]
			switch {
			case c == '[' || c == '{':
				s.flow++
				if err := s.depthError(p); err != nil {
					return line, err
				}
				atStart = true
			case c == ']' || c == '}':
				s.flow--
				if s.flow <= 0 {
					s.flow = 0
					return line, nil
				}
				atStart = false
			case c == ',':
				atStart = true
			case c == '#' && (p == s.li.LineStart(line) || t[p-1] == ' ' || t[p-1] == '\t'):
				p = end
				continue
			case (c == '"' || c == '\'') && atStart:
				l2, q := s.skipQuotedFrom(p, line)
				if q < 0 {
					return l2, nil
				}
				line, p, end = l2, q, s.li.LineEnd(l2)
				atStart = false
				continue
			case c == ':' && (p+1 == end || t[p+1] == ' ' || t[p+1] == '\t' || isFlowIndicator(t[p+1])):
				atStart = true
			case c == ' ' || c == '\t' || c == '?' || c == '&' || c == '!':
			default:
				atStart = false
			}
			p++
		}
		line++
		if line >= s.li.LineCount() {
			return line - 1, nil
		}
		p, end = s.li.LineStart(line), s.li.LineEnd(line)
		if isDocMarker(t[p:end]) {
			s.flow = 0 // libyaml rejects it; the document marker is handled by the caller
			return line - 1, nil
		}
	}
}

// skipQuoted skips a quoted scalar in block context; the rest of its last line is a comment or nothing.
func (s *shapeScanner) skipQuoted(p, line int) (int, *Error) {
	l2, _ := s.skipQuotedFrom(p, line)
	return l2, nil
}

// skipQuotedFrom returns the line and offset just after the quoted scalar starting at p, or offset -1
// when it is not closed before the end of the text.
func (s *shapeScanner) skipQuotedFrom(p, line int) (int, int) {
	t := s.text
	q := t[p]
	p++
	for {
		end := s.li.LineEnd(line)
		for p < end {
			switch {
			case q == '"' && t[p] == '\\':
				p += 2
				continue
			case t[p] == q && q == '\'' && p+1 < end && t[p+1] == '\'':
				p += 2
				continue
			case t[p] == q:
				return line, p + 1
			}
			p++
		}
		line++
		if line >= s.li.LineCount() {
			return line - 1, -1
		}
		p = s.li.LineStart(line)
	}
}

// skipQuotedOnLine returns the offset after a quoted scalar closed on the same line, or -1.
func skipQuotedOnLine(t []byte, p, end int) int {
	q := t[p]
	for i := p + 1; i < end; i++ {
		switch {
		case q == '"' && t[i] == '\\':
			i++
		case t[i] == q && q == '\'' && i+1 < end && t[i+1] == '\'':
			i++
		case t[i] == q:
			return i + 1
		}
	}
	return -1
}

func isFlowIndicator(c byte) bool { return c == '[' || c == ']' || c == '{' || c == '}' || c == ',' }

func skipBlanks(t []byte, p, end int) int {
	for p < end && (t[p] == ' ' || t[p] == '\t') {
		p++
	}
	return p
}
