// Fuzz target for the document store: incremental edits in UTF-16 coordinates applied by applyChange
// must equal the same edits applied to a UTF-16 model of the text, be refused exactly when the range
// cannot fit the text, and never panic.
package lsp

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// model is the text as lines of UTF-16 code units, as an LSP client sees it.
func model(text string) [][]uint16 {
	var lines [][]uint16
	cur := []uint16{}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\n' || r == '\r' {
			if r == '\r' && i+1 < len(rs) && rs[i+1] == '\n' {
				i++
			}
			lines = append(lines, cur)
			cur = []uint16{}
			continue
		}
		cur = append(cur, utf16.Encode([]rune{r})...)
	}
	return append(lines, cur)
}

// clampPos clamps a position the way the server does: past the line's end goes to the end, inside a
// surrogate pair goes to its start, past the last line goes to the text's end.
func clampPos(lines [][]uint16, line, col int) (int, int) {
	if line >= len(lines) {
		return len(lines) - 1, len(lines[len(lines)-1])
	}
	l := lines[line]
	if col > len(l) {
		col = len(l)
	}
	if col > 0 && col < len(l) && utf16.IsSurrogate(rune(l[col])) && l[col] >= 0xDC00 {
		col--
	}
	return line, col
}

func FuzzApplyChange(f *testing.F) {
	f.Add("title: é😀\nprompt: x\n", uint8(0), uint8(3), uint8(1), uint8(2), "ab\n")
	f.Add("a\r\nb\r\nc", uint8(1), uint8(0), uint8(2), uint8(1), "😀")
	f.Add("日本語\n", uint8(0), uint8(1), uint8(0), uint8(9), "")
	f.Fuzz(func(t *testing.T, text string, l1, c1, l2, c2 uint8, insert string) {
		if !utf8.ValidString(text) || !utf8.ValidString(insert) {
			return
		}
		li := source.NewLineIndex([]byte(text))
		rng := protocol.Range{Start: protocol.Position{Line: uint32(l1 % 8), Character: uint32(c1 % 16)}, End: protocol.Position{Line: uint32(l2 % 8), Character: uint32(c2 % 16)}}
		out, err := applyChange([]byte(text), li, changeEvent{Range: &rng, Text: insert}, false)

		// reference: an impossible range is refused; otherwise splice the UTF-16 model
		lines := model(text)
		reversed := rng.Start.Line > rng.End.Line || (rng.Start.Line == rng.End.Line && rng.Start.Character > rng.End.Character)
		past := func(p protocol.Position) bool {
			return int(p.Line) > len(lines) || (int(p.Line) == len(lines) && p.Character > 0)
		}
		if reversed || past(rng.Start) || past(rng.End) {
			if err == nil {
				t.Fatalf("applyChange(%q, %v) accepted an impossible range", text, rng)
			}
			return
		}
		if err != nil {
			t.Fatalf("applyChange(%q, %v): %v", text, rng, err)
		}
		got := string(out)
		sl, sc := clampPos(lines, int(rng.Start.Line), int(rng.Start.Character))
		el, ec := clampPos(lines, int(rng.End.Line), int(rng.End.Character))
		if el < sl || (el == sl && ec < sc) {
			// both ends clamp inside one line (e.g. into a surrogate pair) in reverse order
			t.Fatalf("clamped range %d:%d-%d:%d reversed", sl, sc, el, ec)
		}
		want := text[:refOffset(text, sl, sc)] + insert + text[refOffset(text, el, ec):]
		if got != want {
			t.Fatalf("applyChange(%q, %v, %q) = %q, want %q", text, rng, insert, got, want)
		}
	})
}

// refOffset walks the text rune by rune, counting lines (\n, \r\n, \r) and UTF-16 units, to the byte
// offset of (line, col), independently of the server's line index.
func refOffset(text string, line, col int) int {
	l, c := 0, 0
	for i, r := range text {
		if l == line && c >= col {
			return i
		}
		if r == '\n' || r == '\r' {
			if l == line {
				return i // column past the end of the line
			}
			if r == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				continue // the \n of \r\n ends the line
			}
			l, c = l+1, 0
			continue
		}
		if l == line {
			c += len(utf16.Encode([]rune{r}))
		}
	}
	return len(text)
}
