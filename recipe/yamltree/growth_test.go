// Shapes of YAML text that grow with a size factor, for the growth benchmarks and the hostile-input table.

package yamltree

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// growthShape builds a text of one shape whose size grows linearly with n.
type growthShape struct {
	name  string
	build func(n int) string
}

var growthShapes = []growthShape{
	{"many-keys", func(n int) string {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "key%d: value %d\n", i, i)
		}
		return sb.String()
	}},
	{"flow-map-keys", func(n int) string {
		var sb strings.Builder
		sb.WriteString("m: {")
		for i := range n {
			fmt.Fprintf(&sb, "k%d: %d, ", i, i)
		}
		sb.WriteString("}\n")
		return sb.String()
	}},
	{"long-flow-seq", func(n int) string {
		var sb strings.Builder
		sb.WriteString("s: [")
		for i := range n {
			fmt.Fprintf(&sb, "%d, ", i)
		}
		sb.WriteString("]\n")
		return sb.String()
	}},
	{"deep-block", func(n int) string { // n/100 copies of a block nest 100 deep (within the limit)
		var sb strings.Builder
		for c := range max(1, n/100) {
			fmt.Fprintf(&sb, "top%d:\n", c)
			for d := 1; d < 100; d++ {
				fmt.Fprintf(&sb, "%sk%d:\n", strings.Repeat(" ", d), d)
			}
			fmt.Fprintf(&sb, "%sleaf\n", strings.Repeat(" ", 100))
		}
		return sb.String()
	}},
	{"deep-flow", func(n int) string { // n/100 copies of a flow nest 100 deep (within the limit)
		var sb strings.Builder
		for c := range max(1, n/100) {
			fmt.Fprintf(&sb, "k%d: %s1%s\n", c, strings.Repeat("[", 100), strings.Repeat("]", 100))
		}
		return sb.String()
	}},
	{"many-aliases", func(n int) string {
		var sb strings.Builder
		sb.WriteString("a: &x {k: v}\nl:\n")
		for range n {
			sb.WriteString("- *x\n")
		}
		return sb.String()
	}},
	{"many-documents", func(n int) string {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "---\nk: %d\n", i)
		}
		return sb.String()
	}},
}

// BenchmarkParseGrowth parses each shape at 1×, 4× and 16× size: linear growth means ns/op grows 4× per step.
func BenchmarkParseGrowth(b *testing.B) {
	const base = 3000
	for _, s := range growthShapes {
		for _, factor := range []int{1, 4, 16} {
			text := []byte(s.build(base * factor))
			b.Run(fmt.Sprintf("%s/%dx", s.name, factor), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					_, _ = Parse(source.NewLineIndex(text))
				}
			})
		}
	}
}
