// Package source holds byte-offset ranges and the line index that converts them to line/column positions.
package source

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync/atomic"
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
	// columns holds, per line, nil for an ASCII-only line (every column unit is one byte) or the
	// checkpoints of a line with non-ASCII bytes, built on first use; nil when the whole text is ASCII.
	columns []atomic.Pointer[lineColumns]
}

// NewLineIndex indexes text; lines end at \n, \r\n or a lone \r, as in LSP and YAML. Built for every
// text a check reads (and the masked copy of each): line breaks are found with bytes.IndexByte and the
// ASCII test reads eight bytes at a time.
func NewLineIndex(text []byte) *LineIndex {
	if bytes.IndexByte(text, '\r') < 0 {
		starts := make([]int, 1, bytes.Count(text, nl)+1) // exact: a masked text's lines are a few bytes long
		for i := 0; ; {
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		return newIndex(text, starts)
	}
	starts := make([]int, 1, len(text)/32+1)
	for i, c := range text {
		if c == '\n' || (c == '\r' && (i+1 == len(text) || text[i+1] != '\n')) {
			starts = append(starts, i+1)
		}
	}
	return newIndex(text, starts)
}

var nl = []byte{'\n'}

func newIndex(text []byte, starts []int) *LineIndex {
	li := &LineIndex{text: text, starts: starts}
	if !isASCII(text) {
		li.columns = make([]atomic.Pointer[lineColumns], len(starts))
	}
	return li
}

// isASCII reports whether text has no byte ≥ 0x80, eight bytes at a time.
func isASCII(text []byte) bool {
	i := 0
	for ; i+8 <= len(text); i += 8 {
		if binary.LittleEndian.Uint64(text[i:])&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(text); i++ {
		if text[i] >= 0x80 {
			return false
		}
	}
	return true
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

// OffsetFromByteCol converts a zero-based line and byte column to a byte offset (clamped to the line).
func (li *LineIndex) OffsetFromByteCol(line, col int) int {
	start, end := li.LineStart(line), li.LineEnd(line)
	if start+col > end {
		return end
	}
	return start + col
}
