// Column conversion in O(1) per position: ASCII lines convert directly; other lines keep checkpoints
// every few bytes, code points and UTF-16 units, so a conversion scans at most one checkpoint's span.

package source

import "unicode/utf8"

// checkpointSpan is the distance between checkpoints, in the unit each table is indexed by.
const checkpointSpan = 64

// mark is a character boundary of a line: its byte offset from the line start, and the code points and
// UTF-16 units before it.
type mark struct {
	b, r, u int32
}

// lineColumns holds the checkpoints of one line with non-ASCII bytes. Entry k of each table is the first
// character boundary whose count in that table's unit is at least k*checkpointSpan.
type lineColumns struct {
	ascii                   bool
	byByte, byRune, byUTF16 []mark
}

// decode reads one character the way every conversion counts it: an invalid byte is one code point and
// one UTF-16 unit; a supplementary character is two UTF-16 units.
func decode(b []byte) (size, units int) {
	r, size := utf8.DecodeRune(b)
	if r >= 0x10000 {
		return size, 2
	}
	return size, 1
}

// lineBytes is the line's full text including its line break (conversions count the break's bytes
// when an offset points into it).
func (li *LineIndex) lineBytes(line int) []byte {
	end := len(li.text)
	if line+1 < len(li.starts) {
		end = li.starts[line+1]
	}
	return li.text[li.starts[line]:end]
}

// lineColumnsOf returns the checkpoints of line, or nil when the line is ASCII-only. They are built on
// first use; concurrent callers may both build them and one result is kept.
func (li *LineIndex) lineColumnsOf(line int) *lineColumns {
	if li.columns == nil {
		return nil
	}
	slot := &li.columns[line]
	if c := slot.Load(); c != nil {
		if c.ascii {
			return nil
		}
		return c
	}
	c := buildLineColumns(li.lineBytes(line))
	slot.CompareAndSwap(nil, c)
	if c.ascii {
		return nil
	}
	return c
}

func buildLineColumns(text []byte) *lineColumns {
	ascii := true
	for _, c := range text {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return &lineColumns{ascii: true}
	}
	lc := &lineColumns{}
	var m mark
	add := func() {
		for int(m.b) >= len(lc.byByte)*checkpointSpan {
			lc.byByte = append(lc.byByte, m)
		}
		for int(m.r) >= len(lc.byRune)*checkpointSpan {
			lc.byRune = append(lc.byRune, m)
		}
		for int(m.u) >= len(lc.byUTF16)*checkpointSpan {
			lc.byUTF16 = append(lc.byUTF16, m)
		}
	}
	add()
	for int(m.b) < len(text) {
		size, units := decode(text[m.b:])
		m.b += int32(size)
		m.r++
		m.u += int32(units)
		add()
	}
	return lc
}

// at returns the checkpoint at or before count in table (count >= 0), whose unit is read by unit.
func at(table []mark, count int, unit func(mark) int32) mark {
	k := min(count/checkpointSpan, len(table)-1)
	for k > 0 && int(unit(table[k])) > count {
		k--
	}
	return table[k]
}

func byteOf(m mark) int32  { return m.b }
func runeOf(m mark) int32  { return m.r }
func utf16Of(m mark) int32 { return m.u }

// colsBefore counts code points and UTF-16 units in the line's first col bytes, as if the line ended there.
func (li *LineIndex) colsBefore(line, col int) (runes, units int) {
	lc := li.lineColumnsOf(line)
	if lc == nil {
		return col, col
	}
	m := at(lc.byByte, col, byteOf)
	text := li.lineBytes(line)[:col]
	runes, units = int(m.r), int(m.u)
	for off := int(m.b); off < len(text); {
		size, w := decode(text[off:])
		off += size
		runes++
		units += w
	}
	return runes, units
}

// RunePos returns line and column counted in Unicode code points (invalid bytes count as one each).
func (li *LineIndex) RunePos(off int) Pos {
	p := li.BytePos(off)
	p.Col, _ = li.colsBefore(p.Line, p.Col)
	return p
}

// UTF16Pos returns line and column counted in UTF-16 code units, as LSP's default encoding wants.
func (li *LineIndex) UTF16Pos(off int) Pos {
	p := li.BytePos(off)
	_, p.Col = li.colsBefore(p.Line, p.Col)
	return p
}

// OffsetFromRuneCol converts a zero-based line and code-point column to a byte offset (clamped to the line).
func (li *LineIndex) OffsetFromRuneCol(line, col int) int {
	start, end := li.LineStart(line), li.LineEnd(line)
	if line < 0 || line >= len(li.starts) || col <= 0 {
		return start
	}
	lc := li.lineColumnsOf(line)
	if lc == nil {
		return min(start+col, end)
	}
	m := at(lc.byRune, col, runeOf)
	off, runes := start+int(m.b), int(m.r)
	for ; runes < col && off < end; runes++ {
		size, _ := decode(li.text[off:end])
		off += size
	}
	return min(off, end)
}

// OffsetFromUTF16 converts a zero-based line and UTF-16 column to a byte offset (clamped to the line).
// A column that falls inside a surrogate pair resolves to the start of that character.
func (li *LineIndex) OffsetFromUTF16(line, col int) int {
	if line >= len(li.starts) {
		return len(li.text)
	}
	start, end := li.LineStart(line), li.LineEnd(line)
	if line < 0 || col <= 0 {
		return start
	}
	lc := li.lineColumnsOf(line)
	if lc == nil {
		return min(start+col, end)
	}
	m := at(lc.byUTF16, col, utf16Of)
	off, units := start+int(m.b), int(m.u)
	for off < end {
		size, w := decode(li.text[off:end])
		if units+w > col {
			break
		}
		units += w
		off += size
	}
	return min(off, end)
}
