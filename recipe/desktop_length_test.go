// jsLength counts UTF-16 code units as converting the string to UTF-16 would.

package recipe

import (
	"testing"
	"unicode/utf16"
)

func TestJSLengthCountsUTF16Units(t *testing.T) {
	for _, s := range []string{"", "Title", "héllo wörld", "日本語のレシピ", "emoji 🦆 and 𝄞", "bad \xff\xfe bytes", "\xed\xa0\x80 encoded surrogate"} {
		if got, want := jsLength(s), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("jsLength(%q) = %d, want %d", s, got, want)
		}
	}
	if got := jsLength("🦆🦆"); got != 4 {
		t.Errorf(`jsLength("🦆🦆") = %d, want 4 (two surrogate pairs)`, got)
	}
}
