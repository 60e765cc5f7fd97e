// The masked text is allocated at its exact size (one allocation, however small its share of the text).

package yamltree

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func TestMaskSizedExactly(t *testing.T) {
	for _, src := range []string{
		"a: |\n  one two three\n    four  \n\n  five\nb: >-\n  six\n  seven\nc: 1\n",
		"k: |\n  x\n",
		"title: t\ninstructions: |\n" + strings.Repeat("  a long line of instructions text\n", 200) + "prompt: p\n",
	} {
		masked, _ := mask(source.NewLineIndex([]byte(src)), 0)
		if masked == nil {
			t.Fatalf("nothing masked in %q", src)
		}
		if len(masked) != cap(masked) {
			t.Errorf("masked text of %q: len %d, cap %d", src, len(masked), cap(masked))
		}
	}
}
