// Fuzz target for the YAML tree: node ranges stay inside the text and ordered.
package yamltree

import (
	"testing"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func checkRanges(t *testing.T, n *Node, size int) {
	if n == nil {
		return
	}
	if n.R.Start < 0 || n.R.End < n.R.Start || n.R.End > size {
		t.Fatalf("node range %v outside [0,%d]", n.R, size)
	}
	for _, p := range n.Pairs {
		checkRanges(t, p.Key, size)
		checkRanges(t, p.Value, size)
	}
	for _, it := range n.Items {
		checkRanges(t, it, size)
	}
}

func FuzzYAMLTree(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [1, {c: d}]\n", "x: |\n  l1\n  l2\ny: 'q'\n", "- &a 1\n- *a\n", "{\"k\": [1, 2,],}", "a:\n\tb", "é: ü # c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(source.NewLineIndex(data))
		if err != nil {
			if e, ok := err.(*Error); ok && (e.Offset < 0 || e.Offset > len(data)) {
				t.Fatalf("error offset %d outside [0,%d]", e.Offset, len(data))
			}
			return
		}
		checkRanges(t, doc.Root, len(data))
	})
}
