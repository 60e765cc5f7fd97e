// The template-heavy large recipe of issue 17: many parameters, a long instructions block dense with
// template uses and `{% if %}` sections, many extensions and sub-recipes whose files it brings along.

package testgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Heavy is a generated recipe and the sub-recipe files it names (paths relative to the recipe's folder).
type Heavy struct {
	Text     string
	Children map[string]string
}

// Counts of the heavy recipe (issue 17 measured a real recipe of this shape).
const (
	HeavyParams       = 186
	HeavyInstructions = 1300 // lines of the instructions block, about
	HeavyExtensions   = 66
	HeavySubRecipes   = 20
)

// HeavyRecipe returns a valid recipe of about 3,000 lines: 186 parameters, a ~1,300-line instructions
// block with ~800 `{{ }}` uses and `{% if %}` sections, 66 extensions and 20 sub-recipes (with values).
// Its instructions start at line HeavyInstructionsFirstLine.
func HeavyRecipe() Heavy {
	var b strings.Builder
	b.WriteString("version: 1.0.0\ntitle: Release review\ndescription: A generated template-heavy recipe for benchmarks\n")
	b.WriteString("instructions: |\n")
	writeHeavyInstructions(&b)
	b.WriteString("prompt: |\n  Review the release of {{ p0 }} for {{ p1 }}.\n  {% if p2 %}Focus on {{ p2 }}.{% endif %}\n")
	writeHeavyParameters(&b)
	writeHeavyExtensions(&b)
	children := writeHeavySubRecipes(&b)
	b.WriteString("settings:\n  goose_provider: anthropic\n  goose_model: claude-sonnet-4\n  temperature: 0.2\n")
	b.WriteString("retry:\n  max_retries: 2\n  checks:\n    - type: shell\n      command: make lint\n")
	return Heavy{Text: b.String(), Children: children}
}

// HeavyInstructionsFirstLine is the 0-based line of the heavy recipe's first instructions line.
const HeavyInstructionsFirstLine = 4

// writeHeavyInstructions writes blocks of 13 lines, 8 of them with `{{ }}` uses: plain uses, filters,
// an `{% if %}` … `{% else %}` … `{% endif %}` section spread over lines and a `{% for %}` line.
func writeHeavyInstructions(b *strings.Builder) {
	p := func(i int) string { return fmt.Sprintf("p%d", i%HeavyParams) }
	for blk := 0; blk < HeavyInstructions/13; blk++ {
		n := blk * 9
		fmt.Fprintf(b, "  ## Section %d: {{ %s }}\n", blk, p(n))
		fmt.Fprintf(b, "  Read the notes about {{ %s }} and {{ %s | upper }} before you change anything.\n", p(n+1), p(n+2))
		b.WriteString("  Keep the changes small, explain each of them and say which tests cover it.\n")
		fmt.Fprintf(b, "  {%% if %s == \"strict\" %%}\n", p(n+3))
		fmt.Fprintf(b, "  Be strict: every public name of {{ %s }} needs a comment and a test.\n", p(n+4))
		b.WriteString("  {% else %}\n")
		fmt.Fprintf(b, "  Be pragmatic about {{ %s | default(\"the code\") }} and list what you left out.\n", p(n+5))
		b.WriteString("  {% endif %}\n")
		fmt.Fprintf(b, "  Plain prose follows so the block reads like a real one: context for {{ %s }}, goals, limits.\n", p(n+7))
		fmt.Fprintf(b, "  {%% for item in %s | default(\"\") | split(\",\") %%}- check {{ item | trim }}\n  {%% endfor %%}\n", p(n+6))
		fmt.Fprintf(b, "  Write the findings down in {{ %s | lower }} as a list, most important first.\n", p(n+8))
		b.WriteString("  Do not touch generated files or vendored code; mention them if they look wrong.\n")
	}
}

func writeHeavyParameters(b *strings.Builder) {
	b.WriteString("parameters:\n")
	for i := 0; i < HeavyParams; i++ {
		switch i % 6 {
		case 0, 1, 2:
			fmt.Fprintf(b, "  - key: p%d\n    input_type: string\n    requirement: optional\n    default: \"value %d\"\n    description: Parameter number %d of the heavy recipe\n", i, i, i)
		case 3:
			fmt.Fprintf(b, "  - key: p%d\n    input_type: select\n    requirement: optional\n    default: strict\n    options:\n      - strict\n      - relaxed\n    description: Mode %d\n", i, i)
		case 4:
			fmt.Fprintf(b, "  - key: p%d\n    input_type: string\n    requirement: user_prompt\n    description: Asked when the recipe starts (%d)\n", i, i)
		default:
			fmt.Fprintf(b, "  - key: p%d\n    input_type: string\n    requirement: optional\n    default: \"a, b, c\"\n    description: A list of items, number %d\n", i, i)
		}
	}
}

func writeHeavyExtensions(b *strings.Builder) {
	b.WriteString("extensions:\n  - type: builtin\n    name: developer\n    timeout: 300\n")
	for i := 1; i < HeavyExtensions; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(b, "  - type: stdio\n    name: tool%d\n    cmd: uvx\n    args:\n      - mcp-server-%d\n    timeout: 120\n    description: Tool server %d\n", i, i, i)
		case 1:
			fmt.Fprintf(b, "  - type: streamable_http\n    name: remote%d\n    uri: https://mcp.example.com/%d\n    timeout: 60\n", i, i)
		default:
			fmt.Fprintf(b, "  - type: stdio\n    name: env%d\n    cmd: npx\n    args: [\"-y\", \"server-%d\"]\n    env_keys:\n      - TOKEN_%d\n", i, i, i)
		}
	}
}

// writeHeavySubRecipes writes the sub_recipes list and returns the child files it names.
func writeHeavySubRecipes(b *strings.Builder) map[string]string {
	children := map[string]string{}
	b.WriteString("sub_recipes:\n")
	for i := 0; i < HeavySubRecipes; i++ {
		path := fmt.Sprintf("sub/child%d.yaml", i)
		fmt.Fprintf(b, "  - name: child%d\n    path: ./%s\n    description: Sub-recipe %d\n    values:\n      topic: \"{{ p%d }}\"\n      depth: \"%d\"\n", i, path, i, i, i%5)
		children[path] = fmt.Sprintf("version: 1.0.0\ntitle: Child %d\ndescription: Sub-recipe %d of the heavy recipe\n"+
			"instructions: Look into {{ topic }} to depth {{ depth }}.\nprompt: Go.\nparameters:\n"+
			"  - key: topic\n    input_type: string\n    requirement: required\n    description: What to look into\n"+
			"  - key: depth\n    input_type: string\n    requirement: optional\n    default: \"1\"\n    description: How deep\n", i, i)
	}
	return children
}

// WriteHeavy writes h as heavy.recipe.yaml in dir, with its sub-recipe files, and returns the recipe's path.
func WriteHeavy(dir string, h Heavy) (string, error) {
	for rel, text := range h.Children {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("testgen: %w", err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return "", fmt.Errorf("testgen: %w", err)
		}
	}
	path := filepath.Join(dir, "heavy.recipe.yaml")
	if err := os.WriteFile(path, []byte(h.Text), 0o644); err != nil {
		return "", fmt.Errorf("testgen: %w", err)
	}
	return path, nil
}
