// skipPlainASCII never skips a byte that firstControlCharacter must look at.

package yamltree

import "testing"

func TestSkipPlainASCIIStopsAtEveryNonPrintable(t *testing.T) {
	for c := 0; c < 256; c++ {
		for at := 0; at < 16; at++ {
			text := []byte("abcdefghijklmnopqrstuvwxyz0123456789")
			text[at] = byte(c)
			i := 0
			for i < len(text) {
				j := skipPlainASCII(text, i)
				if j > at && i <= at && (c < 0x20 || c >= 0x7f) {
					t.Fatalf("byte %#x at %d skipped (from %d to %d)", c, at, i, j)
				}
				if j == i {
					j++
				}
				i = j
			}
		}
	}
	if got := firstControlCharacter([]byte("plain text, then a bell \x07 here")); got != 24 {
		t.Errorf("bell found at %d, want 24", got)
	}
}
