// The analyze tool's three views in goose's compact text format (analyze/format.rs): a directory's tree
// with line/function/type counts, one file's symbols, and a symbol's call graph.

package platform

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// analyzeSizeLimit is the output size (bytes) past which goose asks for force.
const analyzeSizeLimit = 50000

const multilineThreshold = 10

func displayPath(path, root string) string {
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}

func formatStructure(analyses []*fileAnalysis, root string, depth, totalFiles int) string {
	var b strings.Builder
	loc, funcs, classes := 0, 0, 0
	langLoc := map[string]int{}
	for _, a := range analyses {
		loc += a.loc
		funcs += len(a.functions)
		classes += len(a.classes)
		if a.language != "" && a.loc > 0 {
			langLoc[a.language] += a.loc
		}
	}
	depthText := "unlimited"
	if depth > 0 {
		depthText = fmt.Sprintf("depth=%d", depth)
	}
	fmt.Fprintf(&b, "%d files, %dL, %dF, %dC (%s)\n", len(analyses), loc, funcs, classes, depthText)
	if skipped := totalFiles - len(analyses); skipped > 0 {
		fmt.Fprintf(&b, "(%d files skipped: no parser)\n", skipped)
	}
	if len(langLoc) > 0 && loc > 0 {
		langs := make([]string, 0, len(langLoc))
		for l := range langLoc {
			langs = append(langs, l)
		}
		sort.Slice(langs, func(i, j int) bool { return langLoc[langs[i]] > langLoc[langs[j]] })
		parts := make([]string, len(langs))
		for i, l := range langs {
			parts[i] = fmt.Sprintf("%s %d%%", l, langLoc[l]*100/loc)
		}
		b.WriteString(strings.Join(parts, " | ") + "\n")
	}
	b.WriteByte('\n')
	type entry struct {
		parts []string
		a     *fileAnalysis
	}
	var entries []entry
	for _, a := range analyses {
		rel, err := filepath.Rel(root, a.path)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		entries = append(entries, entry{strings.Split(filepath.ToSlash(rel), "/"), a})
	}
	sort.Slice(entries, func(i, j int) bool {
		return strings.Join(entries[i].parts, "\x00") < strings.Join(entries[j].parts, "\x00")
	})
	var render func(es []entry, level int)
	render = func(es []entry, level int) {
		indent := strings.Repeat("  ", level)
		var dirs, files []string
		groups := map[string][]entry{}
		for _, e := range es {
			name := e.parts[level]
			if level+1 == len(e.parts) {
				files = append(files, fmt.Sprintf("%s%s [%dL, %dF%s]\n", indent, name, e.a.loc, len(e.a.functions), classCount(len(e.a.classes))))
				continue
			}
			if _, ok := groups[name]; !ok {
				dirs = append(dirs, name)
			}
			groups[name] = append(groups[name], e)
		}
		for _, d := range dirs {
			fmt.Fprintf(&b, "%s%s/\n", indent, d)
			render(groups[d], level+1)
		}
		for _, f := range files {
			b.WriteString(f)
		}
	}
	render(entries, 0)
	return b.String()
}

func classCount(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", %dC", n)
}

func formatSemantic(a *fileAnalysis, root string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s [%dL, %dF%s]\n\n", displayPath(a.path, root), a.loc, len(a.functions), classCount(len(a.classes)))
	if len(a.classes) > 0 {
		items := make([]string, len(a.classes))
		for i, c := range a.classes {
			items[i] = fmt.Sprintf("%s:%d%s", c.name, c.line, c.detail)
		}
		symbolList(&b, "C:", items)
	}
	if len(a.functions) > 0 {
		counts := map[string]int{}
		for _, c := range a.calls {
			counts[c.callee]++
		}
		items := make([]string, len(a.functions))
		for i, f := range a.functions {
			label := f.name + f.detail
			if f.parent != "" {
				label = f.parent + "." + label
			}
			if n := counts[f.name]; n > 3 {
				items[i] = fmt.Sprintf("%s:%d•%d", label, f.line, n)
			} else {
				items[i] = fmt.Sprintf("%s:%d", label, f.line)
			}
		}
		symbolList(&b, "F:", items)
	}
	if len(a.imports) > 0 {
		items := make([]string, len(a.imports))
		for i, imp := range a.imports {
			items[i] = imp.module
			if imp.count > 1 {
				items[i] = fmt.Sprintf("%s(%d)", imp.module, imp.count)
			}
		}
		b.WriteString("I: " + strings.Join(items, "; ") + "\n")
	}
	return b.String()
}

func symbolList(b *strings.Builder, prefix string, items []string) {
	if len(items) > multilineThreshold {
		b.WriteString(prefix + "\n")
		for _, it := range items {
			b.WriteString("  " + it + "\n")
		}
		return
	}
	b.WriteString(prefix + " " + strings.Join(items, " ") + "\n")
}

func formatFocused(symbol string, g *callGraph, followDepth, filesAnalyzed int, root string) string {
	defs := g.definitions(symbol)
	in1, out1 := g.chains(symbol, 1, g.incoming), g.chains(symbol, 1, g.outgoing)
	if len(defs) == 0 && len(in1) == 0 && len(out1) == 0 {
		return fmt.Sprintf("Symbol '%s' not found in %d analyzed files.\n", symbol, filesAnalyzed)
	}
	direct := func(chains [][]nodeKey) int {
		set := map[nodeKey]bool{}
		for _, c := range chains {
			if len(c) > 1 {
				set[c[1]] = true
			}
		}
		return len(set)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "FOCUS: %s (%d defs, %d refs)\n\n", symbol, len(defs), direct(in1)+direct(out1))
	link := func(k nodeKey) string { return fmt.Sprintf("%s:%s:%d", displayPath(k.file, root), k.name, k.line) }
	for _, d := range defs {
		b.WriteString("DEF " + link(d) + "\n")
	}
	if len(defs) > 0 {
		b.WriteByte('\n')
	}
	group := func(label string, chains [][]nodeKey) {
		if len(chains) == 0 {
			return
		}
		formatted := make([][]string, len(chains))
		for i, c := range chains {
			for _, k := range c {
				formatted[i] = append(formatted[i], link(k))
			}
		}
		sort.Slice(formatted, func(i, j int) bool { return lessStrings(formatted[i], formatted[j]) })
		b.WriteString(label + ":\n")
		for i := 0; i < len(formatted); {
			chain := formatted[i]
			end := i + 1
			if len(chain) >= 2 {
				prefix := chain[:len(chain)-1]
				for end < len(formatted) && len(formatted[end]) >= 2 && equalStrings(formatted[end][:len(formatted[end])-1], prefix) {
					end++
				}
			}
			if end-i > 1 {
				b.WriteString("  " + strings.Join(chain[:len(chain)-1], " → ") + "\n")
				for _, e := range formatted[i:end] {
					b.WriteString("    → " + e[len(e)-1] + "\n")
				}
			} else {
				b.WriteString("  " + strings.Join(chain, " → ") + "\n")
			}
			i = end
		}
		b.WriteByte('\n')
	}
	inProd, inTest := partitionTests(g.chains(symbol, followDepth, g.incoming))
	group("IN", inProd)
	group("IN (tests)", inTest)
	outProd, outTest := partitionTests(g.chains(symbol, followDepth, g.outgoing))
	group("OUT", outProd)
	group("OUT (tests)", outTest)
	fmt.Fprintf(&b, "%d files analyzed\n", filesAnalyzed)
	return b.String()
}

func lessStrings(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// partitionTests separates chains that touch test code (goose's is_test_chain, Go's and others' conventions).
func partitionTests(chains [][]nodeKey) (prod, test [][]nodeKey) {
	for _, c := range chains {
		if isTestChain(c) {
			test = append(test, c)
		} else {
			prod = append(prod, c)
		}
	}
	return prod, test
}

func isTestChain(chain []nodeKey) bool {
	for _, k := range chain {
		if strings.HasPrefix(k.name, "test_") || strings.Contains(k.name, "_test") {
			return true
		}
		f := filepath.ToSlash(k.file)
		for _, suffix := range []string{"_test.rs", "_test.py", ".test.ts", ".test.js", ".test.tsx", ".test.jsx", "_test.go",
			"Test.java", "Tests.java", "Test.kt", "_spec.rb", "_test.rb", "Test.swift", "Tests.swift"} {
			if strings.HasSuffix(f, suffix) {
				return true
			}
		}
		for _, part := range []string{"/tests/", "/test/", "/src/test/", "/spec/", "/Tests/"} {
			if strings.Contains(f, part) {
				return true
			}
		}
	}
	return false
}
