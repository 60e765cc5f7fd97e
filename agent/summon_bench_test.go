// The cost of summon's source discovery, which every run with summon pays once (its instructions) and
// load() pays again: a working folder full of YAML and JSON files that are mostly not recipes.
package agent

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func BenchmarkSummonSources(b *testing.B) {
	root := b.TempDir()
	for i := range 100 {
		writeFile(b, filepath.Join(root, fmt.Sprintf("r%03d.yaml", i)), fmt.Sprintf("title: R%d\ndescription: Recipe %d\ninstructions: |\n  %s\nprompt: go\n", i, i, strings.Repeat("Do things. ", 50)))
		writeFile(b, filepath.Join(root, fmt.Sprintf("k%03d.yaml", i)), "apiVersion: v1\nkind: ConfigMap\ndata:\n"+strings.Repeat("  key: value\n", 50))
	}
	writeFile(b, filepath.Join(root, "package-lock.json"), `{"packages":{`+strings.Repeat(`"node_modules/x":{"version":"1.0.0","resolved":"https://registry.npmjs.org/x/-/x-1.0.0.tgz"},`, 5000)+`"":{}}}`)
	s := summonFor(b, root, "title: P\ndescription: D\nprompt: go\n", nil)
	b.ResetTimer()
	for b.Loop() {
		if got := s.sources(true); len(got) != 101 {
			b.Fatalf("%d sources", len(got))
		}
	}
}
