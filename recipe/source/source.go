// Package source holds byte-offset ranges and the line index that converts them to line/column positions.
package source

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// Range is a half-open byte range [Start, End) into a document's text.
type Range struct {
	Start, End int
}

// Len is the number of bytes the range covers.
func (r Range) Len() int { return r.End - r.Start }

// Contains reports whether offset lies inside the range (the end counts, for cursor positions).
func (r Range) Contains(off int) bool { return off >= r.Start && off <= r.End }

// Pos is a zero-based line and column; Col's unit depends on the call that produced it.
type Pos struct {
	Line, Col int
}

// LineIndex maps byte offsets to lines for one text.
type LineIndex struct {
	text   []byte
	starts []int // byte offset of each line start
}

// NewLineIndex indexes text; lines end at \n, \r\n or a lone \r, as in LSP and YAML.
func NewLineIndex(text []byte) *LineIndex {
	starts := make([]int, 1, len(text)/32+1)
	for i, c := range text {
		if c == '\n' || (c == '\r' && (i+1 == len(text) || text[i+1] != '\n')) {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{text: text, starts: starts}
}

// Text returns the indexed text.
func (li *LineIndex) Text() []byte { return li.text }

// LineCount is the number of lines (a trailing newline opens an empty last line).
func (li *LineIndex) LineCount() int { return len(li.starts) }

// LineStart is the byte offset where line (zero-based) begins; lines past the end clamp to the text's end.
func (li *LineIndex) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(li.starts) {
		return len(li.text)
	}
	return li.starts[line]
}

// LineEnd is the byte offset of the end of line's content, before \r\n or \n.
func (li *LineIndex) LineEnd(line int) int {
	start := li.LineStart(line)
	end := len(li.text)
	if line+1 < len(li.starts) {
		end = li.starts[line+1]
	}
	if end > start && li.text[end-1] == '\n' {
		end--
	}
	if end > start && li.text[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the zero-based line containing offset.
func (li *LineIndex) Line(off int) int {
	off = li.clamp(off)
	return sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) - 1
}

func (li *LineIndex) clamp(off int) int {
	if off < 0 {
		return 0
	}
	if off > len(li.text) {
		return len(li.text)
	}
	return off
}

// BytePos returns line and byte column of offset.
func (li *LineIndex) BytePos(off int) Pos {
	off = li.clamp(off)
	l := li.Line(off)
	return Pos{Line: l, Col: off - li.starts[l]}
}

// RunePos returns line and column counted in Unicode code points (invalid bytes count as one each).
func (li *LineIndex) RunePos(off int) Pos {
	p := li.BytePos(off)
	start := li.starts[p.Line]
	return Pos{Line: p.Line, Col: utf8.RuneCount(li.text[start : start+p.Col])}
}

// UTF16Pos returns line and column counted in UTF-16 code units, as LSP's default encoding wants.
func (li *LineIndex) UTF16Pos(off int) Pos {
	p := li.BytePos(off)
	start := li.starts[p.Line]
	return Pos{Line: p.Line, Col: utf16Len(li.text[start : start+p.Col])}
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 && r != utf8.RuneError {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// OffsetFromRuneCol converts a zero-based line and code-point column to a byte offset (clamped to the line).
func (li *LineIndex) OffsetFromRuneCol(line, col int) int {
	start, end := li.LineStart(line), li.LineEnd(line)
	off := start
	for i := 0; i < col && off < end; i++ {
		_, size := utf8.DecodeRune(li.text[off:end])
		off += size
	}
	return off
}

// OffsetFromUTF16 converts a zero-based line and UTF-16 column to a byte offset (clamped to the line).
// A column that falls inside a surrogate pair resolves to the start of that character.
func (li *LineIndex) OffsetFromUTF16(line, col int) int {
	if line >= len(li.starts) {
		return len(li.text)
	}
	start, end := li.LineStart(line), li.LineEnd(line)
	off, units := start, 0
	for off < end {
		r, size := utf8.DecodeRune(li.text[off:end])
		w := 1
		if r >= 0x10000 && r != utf8.RuneError {
			w = len(utf16.Encode([]rune{r}))
		}
		if units+w > col {
			break
		}
		units += w
		off += size
	}
	return off
}

// OffsetFromByteCol converts a zero-based line and byte column to a byte offset (clamped to the line).
func (li *LineIndex) OffsetFromByteCol(line, col int) int {
	start, end := li.LineStart(line), li.LineEnd(line)
	if start+col > end {
		return end
	}
	return start + col
}
