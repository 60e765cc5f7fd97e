//go:build linux

// The table of hostile inputs: every class of issue 11, each at several sizes.

package hostile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// marker is planted in every file outside the workspace and in the checker's environment: it must never
// appear in anything goose-ls prints or publishes.
const marker = "OUTSIDE-MARKER-5f1c9e"

// header makes a file a recipe (so every later rule runs).
const header = "title: Hostile\ndescription: A hostile recipe\n"

// hostileCase is one class of hostile input.
type hostileCase struct {
	name  string
	sizes []int
	// build writes the workspace into ws (outside is a sibling folder holding marked files) and returns the
	// recipe to check, relative to ws.
	build func(t testing.TB, ws, outside string, n int) string
	// want must occur in some diagnostic's code or message, at every size ("" = only bounded).
	want string
	// dir checks the workspace folder instead of the file (folder discovery).
	dir bool
}

// writeFile writes content to dir/name, creating folders.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// recipe writes a recipe whose prompt is the given template text (a block scalar, indented).
func recipe(t testing.TB, ws, body string) string {
	return writeFile(t, ws, "r.yaml", header+"prompt: |\n  "+strings.ReplaceAll(body, "\n", "\n  ")+"\n")
}

// templateCase is a recipe whose prompt is gen(n).
func templateCase(name, want string, sizes []int, gen func(n int) string) hostileCase {
	return hostileCase{name: name, want: want, sizes: sizes, build: func(t testing.TB, ws, _ string, n int) string {
		return recipe(t, ws, gen(n))
	}}
}

// rawCase is a file whose whole text is gen(n).
func rawCase(name, want string, sizes []int, gen func(n int) string) hostileCase {
	return hostileCase{name: name, want: want, sizes: sizes, build: func(t testing.TB, ws, _ string, n int) string {
		return writeFile(t, ws, "r.yaml", gen(n))
	}}
}

// chain builds `{% set v1 = v0 OP v0 OP … %}` lines, each multiplying the value by fan.
func chain(seed, op string, fan, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{%% set v0 = %s %%}", seed)
	for i := 1; i <= levels; i++ {
		parts := make([]string, fan)
		for j := range parts {
			parts[j] = fmt.Sprintf("v%d", i-1)
		}
		fmt.Fprintf(&b, "{%% set v%d = %s %%}", i, strings.Join(parts, " "+op+" "))
	}
	fmt.Fprintf(&b, "{{ v%d | length }}", levels)
	return b.String()
}

func nested(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

// subRecipeCase names path as a sub-recipe; prepare may create what it points at.
func subRecipeCase(name, want string, prepare func(t testing.TB, ws, outside string) string) hostileCase {
	return hostileCase{name: name, want: want, sizes: []int{1}, build: func(t testing.TB, ws, outside string, _ int) string {
		path := prepare(t, ws, outside)
		return writeFile(t, ws, "r.yaml", header+"prompt: hi\nsub_recipes:\n  - name: child\n    path: "+path+"\n")
	}}
}

// outsideRecipe writes a valid recipe carrying the marker outside the workspace.
func outsideRecipe(t testing.TB, outside string) string {
	writeFile(t, outside, "secret.yaml", "title: "+marker+"\ndescription: "+marker+"\nprompt: "+marker+"\n")
	return filepath.Join(outside, "secret.yaml")
}

// schemaRefCase puts ref as a $ref of the response schema.
func schemaRefCase(name, want string, prepare func(t testing.TB, ws, outside string) string) hostileCase {
	return hostileCase{name: name, want: want, sizes: []int{1}, build: func(t testing.TB, ws, outside string, _ int) string {
		ref := prepare(t, ws, outside)
		return writeFile(t, ws, "r.yaml", header+"prompt: hi\nresponse:\n  json_schema:\n    type: object\n    properties:\n      a:\n        $ref: \""+ref+"\"\n")
	}}
}

// cases is the whole table; refHits is the URL of a server that must never be asked.
func cases(refURL string) []hostileCase {
	big := []int{1_000, 10_000, 100_000}
	return []hostileCase{
		// template evaluation: huge intermediate values
		templateCase("string-repeat", "", []int{100_000_000, 1 << 40, 4611686018427387904}, func(n int) string { return fmt.Sprintf("{{ 'xx' * %d }}", n) }),
		templateCase("join-separator", "", big, func(n int) string { return fmt.Sprintf("{{ range(%d) | join('x' * %d) }}", n, n) }),
		templateCase("replace-blowup", "", big, func(n int) string { return fmt.Sprintf("{{ ('x' * %d) | replace('x', 'y' * %d) }}", n, n) }),
		templateCase("indent-blowup", "", big, func(n int) string { return fmt.Sprintf("{{ ('a\\n' * %d) | indent(%d) }}", n, n) }),
		templateCase("center-width", "", []int{10_000_000, 1_000_000_000, 1 << 60}, func(n int) string { return fmt.Sprintf("{{ 'x' | center(%d) }}", n) }),
		templateCase("concat-tenfold", "", []int{7, 9, 12}, func(n int) string { return chain("'xxxxxxxxxx'", "~", 10, n) }),
		templateCase("list-tenfold", "", []int{6, 8, 11}, func(n int) string { return chain("[1,2,3,4,5,6,7,8,9,10]", "+", 10, n) }),
		templateCase("string-plus-doubling", "", []int{20, 40, 64}, func(n int) string { return chain("'ab'", "+", 2, n) }),
		// template evaluation: many steps
		templateCase("nested-for", "", []int{3, 4, 6}, func(n int) string {
			return nested("{% for a in range(100) %}", "{% endfor %}", n)
		}),
		templateCase("range-huge", "", []int{10_000_000, 1_000_000_000, 1 << 62}, func(n int) string {
			return fmt.Sprintf("{%% for i in range(%d) %%}{%% endfor %%}{{ range(%d) | list | length }}", n, n)
		}),
		// template recursion
		templateCase("same-name-blocks", "", []int{2, 50, 2_000}, func(n int) string { return nested("{% block a %}", "{% endblock %}", n) }),
		templateCase("deep-parens", "", big, func(n int) string { return "{{ " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " }}" }),
		templateCase("deep-unary", "", big, func(n int) string { return "{{ " + strings.Repeat("not ", n) + "x }}" }),
		templateCase("deep-minus", "", big, func(n int) string { return "{{ " + strings.Repeat("-", n) + "1 }}" }),
		templateCase("deep-lists", "", big, func(n int) string { return "{{ " + nested("[", "]", n) + " }}" }),
		templateCase("deep-maps", "", big, func(n int) string { return "{{ " + strings.Repeat("{'a': ", n) + "1" + strings.Repeat("}", n) + " }}" }),
		templateCase("deep-ifs", "", []int{100, 1_000, 20_000}, func(n int) string { return nested("{% if x %}", "{% endif %}", n) }),
		templateCase("long-filter-chain", "", big, func(n int) string { return "{{ 'a'" + strings.Repeat(" | upper", n) + " }}" }),
		templateCase("long-attr-chain", "", big, func(n int) string { return "{{ x" + strings.Repeat(".a", n) + " }}" }),
		templateCase("int-overflow", "", []int{1, 100, 1_000}, func(n int) string {
			return strings.Repeat("{{ 9223372036854775807 + 1 }}{{ -9223372036854775807 - 10 }}{{ 9223372036854775807 * 3 }}"+
				"{{ (-9223372036854775807 - 1) // -1 }}{{ (-9223372036854775807 - 1) % -1 }}{{ 2 ** 100000 }}{{ 1 // 0 }}{{ 1 % 0 }}\n", n)
		}),
		{name: "include-self", sizes: []int{1}, build: func(t testing.TB, ws, _ string, _ int) string {
			return writeFile(t, ws, "r.yaml", header+"prompt: |\n  {% include 'r.yaml' %}\n")
		}},
		{name: "include-in-loop", sizes: []int{1_000, 100_000, 10_000_000}, build: func(t testing.TB, ws, _ string, n int) string {
			writeFile(t, ws, "part.txt", strings.Repeat("x", 100_000))
			return writeFile(t, ws, "r.yaml", header+fmt.Sprintf("prompt: |\n  {%% for i in range(%d) %%}{%% include 'part.txt' %%}{%% endfor %%}\n", n))
		}},
		{name: "extends-cycle", sizes: []int{1}, build: func(t testing.TB, ws, _ string, _ int) string {
			writeFile(t, ws, "a.yaml", "{% extends 'b.yaml' %}")
			writeFile(t, ws, "b.yaml", "{% extends 'a.yaml' %}")
			return writeFile(t, ws, "r.yaml", "{% extends 'a.yaml' %}\n"+header)
		}},
		{name: "super-chain", sizes: []int{10, 100, 1_000}, build: func(t testing.TB, ws, _ string, n int) string {
			writeFile(t, ws, "t0.yaml", header+"prompt: |\n  {% block p %}x{% endblock %}\n")
			for i := 1; i < n; i++ {
				writeFile(t, ws, fmt.Sprintf("t%d.yaml", i), fmt.Sprintf("{%% extends 't%d.yaml' %%}{%% block p %%}{{ super() }}{{ super() }}{%% endblock %%}", i-1))
			}
			return writeFile(t, ws, "r.yaml", fmt.Sprintf("{%% extends 't%d.yaml' %%}{%% block p %%}{{ super() }}{{ super() }}{%% endblock %%}", n-1))
		}},
		// YAML
		rawCase("flow-nesting", "", big, func(n int) string { return header + "prompt: " + nested("[", "]", n) + "\n" }),
		rawCase("flow-nesting-unclosed", "", big, func(n int) string { return header + "prompt: " + strings.Repeat("[", n) + "\n" }),
		rawCase("block-nesting", "", []int{100, 300, 1_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\nsettings:\n")
			for i := 1; i <= n; i++ {
				b.WriteString(strings.Repeat(" ", i) + "a:\n")
			}
			return b.String()
		}),
		rawCase("sequence-nesting", "", []int{100, 1_000, 100_000}, func(n int) string { return header + "prompt: hi\nactivities:\n" + strings.Repeat("- ", n) + "x\n" }),
		rawCase("billion-laughs", "", []int{5, 9, 12}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&b, "x%d: &a%d [", i, i)
				for j := 0; j < 9; j++ {
					if j > 0 {
						b.WriteString(", ")
					}
					fmt.Fprintf(&b, "*a%d", i-1)
				}
				b.WriteString("]\n")
			}
			return b.String()
		}),
		rawCase("many-keys", "", []int{1_000, 10_000, 60_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "k%d: v\n", i)
			}
			return b.String()
		}),
		rawCase("many-flow-keys", "", []int{1_000, 10_000, 60_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\nsettings: {")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "k%d: %d, ", i, i)
			}
			b.WriteString("}\n")
			return b.String()
		}),
		rawCase("long-flow-sequence", "", []int{1_000, 10_000, 100_000}, func(n int) string {
			return header + "prompt: hi\nactivities: [" + strings.Repeat("a, ", n) + "]\n"
		}),
		rawCase("many-aliases", "", []int{1_000, 10_000, 60_000}, func(n int) string {
			return header + "prompt: &p hi\nactivities:\n" + strings.Repeat("  - *p\n", n)
		}),
		rawCase("many-documents", "", []int{1_000, 10_000, 100_000}, func(n int) string { return header + "prompt: hi\n" + strings.Repeat("---\na: 1\n", n) }),
		rawCase("many-anchors-undefined", "", []int{1_000, 10_000, 60_000}, func(n int) string {
			return header + "prompt: hi\nactivities:\n" + strings.Repeat("  - *nope\n", n)
		}),
		// positions and many diagnostics
		templateCase("uses-on-one-line", "PARAM-UNDEFINED", []int{1_000, 10_000, 40_000}, func(n int) string { return strings.Repeat("{{ a }}", n) }),
		templateCase("distinct-uses-on-one-line", "PARAM-UNDEFINED", []int{1_000, 10_000, 40_000}, func(n int) string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "{{ v%d }}", i)
			}
			return b.String()
		}),
		templateCase("wide-chars-on-one-line", "PARAM-UNDEFINED", []int{1_000, 10_000, 40_000}, func(n int) string { return strings.Repeat("😀{{ a }}é", n) }),
		rawCase("many-unknown-keys", "", []int{1_000, 10_000, 60_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "unknown_%d: x\n", i)
			}
			return b.String()
		}),
		rawCase("many-parameters", "PARAM-UNUSED", []int{100, 1_000, 10_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\nparameters:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "  - key: p%d\n    input_type: string\n    requirement: required\n    description: d\n", i)
			}
			return b.String()
		}),
		rawCase("random-bytes", "", []int{1_000, 100_000, 1 << 20}, func(n int) string {
			r := rand.New(rand.NewSource(int64(n)))
			b := make([]byte, n)
			r.Read(b)
			return string(b)
		}),
		rawCase("long-line", "", []int{1_000, 100_000, 1 << 20}, func(n int) string { return header + "prompt: " + strings.Repeat("a", n) + "\n" }),
		rawCase("braces", "", []int{1_000, 100_000, 300_000}, func(n int) string { return header + "prompt: \"" + strings.Repeat("{{", n) + "\"\n" }),
		// goose's literal-brace pre-processing: n² wraps, overlapping texts replayed in goose's order
		rawCase("repeated-unparseable-braces", "TPL-", []int{100, 5_000, 50_000}, func(n int) string {
			return header + "prompt: hi\n" + strings.Repeat("k: \"{{ a b }}\"\n", n)
		}),
		rawCase("overlapping-unparseable-braces", "TPL-", []int{1_000, 10_000, 60_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: hi\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "k%d: \"%s a%d b }}\"\n", i, strings.Repeat("{", i%50+2), i%7)
			}
			return b.String()
		}),
		rawCase("long-line-of-unparseable-braces", "", []int{1_000, 20_000, 60_000}, func(n int) string {
			var b strings.Builder
			b.WriteString(header + "prompt: \"")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "{{ x %d y }} ", i)
			}
			return b.String() + "\"\n"
		}),
		rawCase("hidden-unicode", "", []int{1_000, 100_000, 300_000}, func(n int) string { return header + "prompt: \"" + strings.Repeat("a\u200b", n) + "\"\n" }),
		// files named by the recipe
		subRecipeCase("subrecipe-outside", "outside", func(t testing.TB, _, outside string) string { return outsideRecipe(t, outside) }),
		subRecipeCase("subrecipe-dotdot", "outside", func(t testing.TB, _, outside string) string {
			outsideRecipe(t, outside)
			return "../outside/secret.yaml"
		}),
		subRecipeCase("subrecipe-symlink-out", "outside", func(t testing.TB, ws, outside string) string {
			if err := os.Symlink(outsideRecipe(t, outside), filepath.Join(ws, "link.yaml")); err != nil {
				t.Fatal(err)
			}
			return "link.yaml"
		}),
		subRecipeCase("subrecipe-dev-zero", "", func(testing.TB, string, string) string { return "/dev/zero" }),
		subRecipeCase("subrecipe-proc-environ", "", func(testing.TB, string, string) string { return "/proc/self/environ" }),
		subRecipeCase("subrecipe-dev-stdin", "", func(testing.TB, string, string) string { return "/dev/stdin" }),
		subRecipeCase("subrecipe-fifo", "", func(t testing.TB, ws, _ string) string {
			if err := syscall.Mkfifo(filepath.Join(ws, "fifo.yaml"), 0o644); err != nil {
				t.Fatal(err)
			}
			return "fifo.yaml"
		}),
		subRecipeCase("subrecipe-symlink-to-fifo", "", func(t testing.TB, ws, outside string) string {
			if err := syscall.Mkfifo(filepath.Join(ws, "fifo"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("fifo", filepath.Join(ws, "child.yaml")); err != nil {
				t.Fatal(err)
			}
			return "child.yaml"
		}),
		subRecipeCase("subrecipe-directory", "", func(t testing.TB, ws, _ string) string {
			if err := os.Mkdir(filepath.Join(ws, "dir.yaml"), 0o755); err != nil {
				t.Fatal(err)
			}
			return "dir.yaml"
		}),
		subRecipeCase("subrecipe-symlink-loop", "", func(t testing.TB, ws, _ string) string {
			if err := os.Symlink("loop2.yaml", filepath.Join(ws, "loop1.yaml")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("loop1.yaml", filepath.Join(ws, "loop2.yaml")); err != nil {
				t.Fatal(err)
			}
			return "loop1.yaml"
		}),
		subRecipeCase("subrecipe-huge", "", func(t testing.TB, ws, _ string) string {
			return writeFile(t, ws, "huge.yaml", header+"prompt: "+strings.Repeat("x", 40<<20)+"\n")
		}),
		{name: "include-outside", sizes: []int{1}, build: func(t testing.TB, ws, outside string, _ int) string {
			outsideRecipe(t, outside)
			return writeFile(t, ws, "r.yaml", header+"prompt: |\n  {% include '../outside/secret.yaml' %}\n")
		}},
		{name: "include-symlink-out", sizes: []int{1}, build: func(t testing.TB, ws, outside string, _ int) string {
			if err := os.Symlink(outsideRecipe(t, outside), filepath.Join(ws, "part.txt")); err != nil {
				t.Fatal(err)
			}
			return writeFile(t, ws, "r.yaml", header+"prompt: |\n  {% include 'part.txt' %}\n")
		}},
		{name: "include-dev-zero-link", sizes: []int{1}, build: func(t testing.TB, ws, _ string, _ int) string {
			if err := os.Symlink("/dev/zero", filepath.Join(ws, "zero.txt")); err != nil {
				t.Fatal(err)
			}
			return writeFile(t, ws, "r.yaml", header+"prompt: |\n  {% include 'zero.txt' %}\n")
		}},
		schemaRefCase("ref-file-url", "", func(t testing.TB, _, outside string) string {
			writeFile(t, outside, "schema.json", `{"type":"string","description":"`+marker+`","enum":["`+marker+`"]}`)
			return "file://" + filepath.Join(outside, "schema.json")
		}),
		schemaRefCase("ref-relative", "", func(t testing.TB, _, outside string) string {
			writeFile(t, outside, "schema.json", `{"type":"string","enum":["`+marker+`"]}`)
			return "../outside/schema.json"
		}),
		schemaRefCase("ref-proc", "", func(testing.TB, string, string) string { return "file:///proc/self/environ" }),
		schemaRefCase("ref-http", "", func(testing.TB, string, string) string { return refURL }),
		{name: "check-dir-symlinked-file", dir: true, sizes: []int{1}, build: func(t testing.TB, ws, outside string, _ int) string {
			writeFile(t, outside, "secret.recipe.yaml", "title: "+marker+"\ndescription: "+marker+"\nprompt: {{ "+marker+" }}\n")
			if err := os.Symlink(filepath.Join(outside, "secret.recipe.yaml"), filepath.Join(ws, "evil.recipe.yaml")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(ws, "recipes")); err != nil {
				t.Fatal(err)
			}
			return writeFile(t, ws, "ok.recipe.yaml", header+"prompt: hi\n")
		}},
	}
}
