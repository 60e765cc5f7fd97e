// Tests for the line index: lines ended by \n, \r\n and \r; columns in bytes, code points and UTF-16.
package source

import "testing"

func TestLines(t *testing.T) {
	li := NewLineIndex([]byte("a\r\nbb\rccc\nd"))
	if li.LineCount() != 4 {
		t.Fatalf("lines = %d, want 4", li.LineCount())
	}
	for l, want := range []string{"a", "bb", "ccc", "d"} {
		if got := string(li.Text()[li.LineStart(l):li.LineEnd(l)]); got != want {
			t.Errorf("line %d = %q, want %q", l, got, want)
		}
	}
	if p := li.BytePos(7); p != (Pos{Line: 2, Col: 1}) {
		t.Errorf("BytePos(7) = %+v", p)
	}
}

func TestColumns(t *testing.T) {
	// é is 2 bytes/1 code point/1 UTF-16 unit; 😀 is 4 bytes/1 code point/2 UTF-16 units
	li := NewLineIndex([]byte("x: é😀z\n"))
	off := len("x: é😀")
	if p := li.RunePos(off); p.Col != 5 {
		t.Errorf("rune col = %d, want 5", p.Col)
	}
	if p := li.UTF16Pos(off); p.Col != 6 {
		t.Errorf("utf16 col = %d, want 6", p.Col)
	}
	if got := li.OffsetFromUTF16(0, 6); got != off {
		t.Errorf("OffsetFromUTF16(0,6) = %d, want %d", got, off)
	}
	// a column inside the surrogate pair resolves to the character's start
	if got := li.OffsetFromUTF16(0, 5); got != len("x: é") {
		t.Errorf("OffsetFromUTF16 inside a pair = %d, want %d", got, len("x: é"))
	}
	if got := li.OffsetFromRuneCol(0, 4); got != len("x: é") {
		t.Errorf("OffsetFromRuneCol = %d", got)
	}
	if got := li.OffsetFromUTF16(0, 99); got != li.LineEnd(0) {
		t.Errorf("past the end clamps to the line end, got %d", got)
	}
	if got := li.OffsetFromUTF16(5, 0); got != len(li.Text()) {
		t.Errorf("past the last line clamps to the text end, got %d", got)
	}
}
