// Differential tests of the checkpointed column conversions against a plain scan of the line.
package source

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Reference conversions: the per-position line scans the index replaced.

func refUTF16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

func refRunePos(li *LineIndex, off int) Pos {
	p := li.BytePos(off)
	start := li.LineStart(p.Line)
	return Pos{Line: p.Line, Col: utf8.RuneCount(li.Text()[start : start+p.Col])}
}

func refUTF16Pos(li *LineIndex, off int) Pos {
	p := li.BytePos(off)
	start := li.LineStart(p.Line)
	return Pos{Line: p.Line, Col: refUTF16Len(li.Text()[start : start+p.Col])}
}

func refOffsetFromRuneCol(li *LineIndex, line, col int) int {
	start, end := li.LineStart(line), li.LineEnd(line)
	off := start
	for i := 0; i < col && off < end; i++ {
		_, size := utf8.DecodeRune(li.Text()[off:end])
		off += size
	}
	return off
}

func refOffsetFromUTF16(li *LineIndex, line, col int) int {
	if line >= li.LineCount() {
		return len(li.Text())
	}
	start, end := li.LineStart(line), li.LineEnd(line)
	off, units := start, 0
	for off < end {
		r, size := utf8.DecodeRune(li.Text()[off:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > col {
			break
		}
		units += w
		off += size
	}
	return off
}

// compareAll checks every offset and every column (past the line ends too) against the reference scans.
func compareAll(t *testing.T, text []byte) {
	t.Helper()
	li := NewLineIndex(text)
	for off := -1; off <= len(text)+1; off++ {
		if got, want := li.RunePos(off), refRunePos(li, off); got != want {
			t.Fatalf("RunePos(%d) = %+v, want %+v in %q", off, got, want, text)
		}
		if got, want := li.UTF16Pos(off), refUTF16Pos(li, off); got != want {
			t.Fatalf("UTF16Pos(%d) = %+v, want %+v in %q", off, got, want, text)
		}
	}
	for line := -1; line <= li.LineCount(); line++ {
		width := 0
		if line >= 0 && line < li.LineCount() {
			width = li.LineEnd(line) - li.LineStart(line)
		}
		for col := -1; col <= width+3; col++ {
			if got, want := li.OffsetFromRuneCol(line, col), refOffsetFromRuneCol(li, line, col); got != want {
				t.Fatalf("OffsetFromRuneCol(%d,%d) = %d, want %d in %q", line, col, got, want, text)
			}
			if got, want := li.OffsetFromUTF16(line, col), refOffsetFromUTF16(li, line, col); got != want {
				t.Fatalf("OffsetFromUTF16(%d,%d) = %d, want %d in %q", line, col, got, want, text)
			}
		}
	}
}

func TestColumnsMatchScan(t *testing.T) {
	long := strings.Repeat("a{{ é }}😀\xff\xe2\x82", 40) // spans many checkpoints, invalid and cut sequences
	for _, s := range []string{
		"", "ascii only\nline two\r\n", "x: é😀z\n", "é\r\n😀\r😀😀\n\xc3", "\xf0\x9f\x98\n\xe2\x82\xac€",
		long, "k: " + long + "\r\nnext: " + long, strings.Repeat("😀", 100) + "\n" + strings.Repeat("é", 130),
		strings.Repeat("a", 63) + "😀" + strings.Repeat("b", 62) + "€é",
	} {
		compareAll(t, []byte(s))
	}
}

// TestColumnsConcurrent: checkpoints built on first use by several goroutines at once give every one
// the same answers (run with -race).
func TestColumnsConcurrent(t *testing.T) {
	text := []byte(strings.Repeat("é😀 {{ a }} ", 500) + "\n" + strings.Repeat("x€", 300))
	li := NewLineIndex(text)
	ref := NewLineIndex(text)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for off := g; off < len(text); off += 7 {
				if got, want := li.UTF16Pos(off), refUTF16Pos(ref, off); got != want {
					t.Errorf("UTF16Pos(%d) = %+v, want %+v", off, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzLineIndex(f *testing.F) {
	for _, s := range []string{"x: é😀z\n", "a\r\nbb\rccc\nd", strings.Repeat("é😀a", 50), "\xff\xc3\n\xf0\x9f"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 600 {
			return // compareAll is quadratic in the text's size by design (it is the reference)
		}
		compareAll(t, data)
	})
}

// BenchmarkLineIndex converts 40,000 positions on one line (`{{ a }}` repeated, with and without a
// non-ASCII character at the line start) both ways.
func BenchmarkLineIndex(b *testing.B) {
	for _, prefix := range []string{"ascii", "non-ascii é"} {
		line := prefix + ": " + strings.Repeat("{{ a }} ", 40000)
		b.Run(strings.Fields(prefix)[0], func(b *testing.B) {
			for b.Loop() {
				li := NewLineIndex([]byte(line))
				for i := range 40000 {
					off := len(prefix) + 2 + i*8
					p := li.UTF16Pos(off)
					if li.OffsetFromUTF16(p.Line, p.Col) != off {
						b.Fatal("round trip")
					}
				}
			}
		})
	}
}
