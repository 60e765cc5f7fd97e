// Benchmarks for YAML parsing alone (goccy/go-yaml and the tree built over it).

package yamltree

import (
	"testing"

	"github.com/goccy/go-yaml/parser"

	"github.com/goose-ls/goose-ls/internal/testgen"

	"github.com/goose-ls/goose-ls/recipe/source"
)

const small = "version: 1.0.0\ntitle: Small recipe\ndescription: A typical recipe\ninstructions: |\n  You are a helpful assistant working on {{ project }}.\n  Follow the team's conventions.\nprompt: |\n  Review {{ path }}.\nparameters:\n  - key: project\n    input_type: string\n    requirement: required\n    description: Project name\n  - key: path\n    input_type: string\n    requirement: optional\n    default: \".\"\n    description: Folder\n  - key: strict\n    input_type: boolean\n    requirement: optional\n    default: false\n    description: Strict mode\nextensions:\n  - type: builtin\n    name: developer\n    timeout: 300\n  - type: stdio\n    name: git\n    cmd: uvx\n    args: [\"mcp-server-git\"]\n    timeout: 120\nsettings:\n  goose_provider: anthropic\n  temperature: 0.3\nretry:\n  max_retries: 2\n  checks:\n    - type: shell\n      command: make lint\n"

func BenchmarkGoccySmall(b *testing.B) {
	for b.Loop() {
		if _, err := parser.ParseBytes([]byte(small), 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTreeSmall(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(source.NewLineIndex([]byte(small))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLarge is the whole YAML step on the 3,000-line recipe (goccy's tree and libyaml's
// verdict, no cache); BenchmarkVerdictLarge is the verdict's share: yaml/v3 on the masked text.
func BenchmarkParseLarge(b *testing.B) {
	li := source.NewLineIndex([]byte(testgen.Recipe(190, 900)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(li); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerdictLarge(b *testing.B) {
	li := source.NewLineIndex([]byte(testgen.Recipe(190, 900)))
	masked, _ := mask(li, minMaskBytes)
	if masked == nil {
		b.Fatal("the large recipe is not masked")
	}
	b.ReportAllocs()
	for b.Loop() {
		if v := cachedVerdict(li, masked, nil); v.err != nil {
			b.Fatal(v.err)
		}
	}
}

// BenchmarkVerdictLargeUnmasked is the verdict on the original text (what masking saves).
func BenchmarkVerdictLargeUnmasked(b *testing.B) {
	li := source.NewLineIndex([]byte(testgen.Recipe(190, 900)))
	b.ReportAllocs()
	for b.Loop() {
		if v := libyamlVerdict(li); v.err != nil {
			b.Fatal(v.err)
		}
	}
}
