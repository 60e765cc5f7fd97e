// NewLineIndex against a byte-by-byte reference: the same line starts and the same ASCII verdict.

package source

import (
	"slices"
	"strings"
	"testing"
)

// refLineStarts is the line-start scan NewLineIndex replaced (one byte at a time).
func refLineStarts(text []byte) ([]int, bool) {
	starts, ascii := []int{0}, true
	for i, c := range text {
		if c == '\n' || (c == '\r' && (i+1 == len(text) || text[i+1] != '\n')) {
			starts = append(starts, i+1)
		}
		ascii = ascii && c < 0x80
	}
	return starts, ascii
}

func checkLineStarts(t *testing.T, text []byte) {
	t.Helper()
	li := NewLineIndex(text)
	want, ascii := refLineStarts(text)
	if !slices.Equal(li.starts, want) {
		t.Fatalf("starts of %q = %v, want %v", text, li.starts, want)
	}
	if (li.columns == nil) != ascii {
		t.Fatalf("ASCII verdict for %q: columns %v, want ascii %v", text, li.columns != nil, ascii)
	}
}

func TestLineStartsMatchReference(t *testing.T) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\nb", "\n\n\n", "a\r\nb\rc\n\r", "\r", "\r\n", "1234567é",
		"12345678é", "é1234567", strings.Repeat("abc\n", 40) + "é", strings.Repeat("x", 15) + "\x80",
		"\xff\n", "line\r\nline\n"} {
		checkLineStarts(t, []byte(s))
	}
}

func FuzzLineStarts(f *testing.F) {
	for _, s := range []string{"a\r\nbb\rccc\nd", "x: é😀z\n", "12345678\n12345678\x80"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkLineStarts(t, data) })
}

// BenchmarkNewLineIndex indexes a 40 KiB recipe-like text (ASCII, 40-byte lines).
func BenchmarkNewLineIndex(b *testing.B) {
	text := []byte(strings.Repeat("  - key: value with some words in it\n", 1100))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		NewLineIndex(text)
	}
}
