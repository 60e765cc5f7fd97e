// The analyze tool's call graph (goose's analyze/graph.rs): definitions keyed by file, name and line,
// callers resolved to the nearest enclosing definition, callees same-file first, then same-language files.

package platform

import (
	"sort"
)

// maxChains bounds one focus view's walk (a dense graph has exponentially many chains).
const maxChains = 20000

type nodeKey struct {
	file string
	name string
	line int
}

type callGraph struct {
	nodes    map[nodeKey]bool
	incoming map[nodeKey]map[nodeKey]bool
	outgoing map[nodeKey]map[nodeKey]bool
}

func buildCallGraph(analyses []*fileAnalysis) *callGraph {
	g := &callGraph{nodes: map[nodeKey]bool{}, incoming: map[nodeKey]map[nodeKey]bool{}, outgoing: map[nodeKey]map[nodeKey]bool{}}
	for _, a := range analyses {
		for _, f := range a.functions {
			g.nodes[nodeKey{a.path, f.name, f.line}] = true
		}
		for _, c := range a.classes {
			g.nodes[nodeKey{a.path, c.name, c.line}] = true
		}
		g.nodes[nodeKey{a.path, "<module>", 0}] = true
	}
	byName := map[string][]nodeKey{}
	defLines := map[[2]string][]int{}
	for k := range g.nodes {
		byName[k.name] = append(byName[k.name], k)
		defLines[[2]string{k.file, k.name}] = append(defLines[[2]string{k.file, k.name}], k.line)
	}
	for _, lines := range defLines {
		sort.Ints(lines)
	}
	lang := map[string]string{}
	for _, a := range analyses {
		lang[a.path] = a.language
	}
	for _, a := range analyses {
		for _, c := range a.calls {
			caller, ok := resolveCaller(a.path, c, defLines)
			if !ok {
				caller = nodeKey{a.path, "<module>", 0}
			}
			for _, callee := range resolveCallee(a, c, byName, lang) {
				addEdge(g.incoming, callee, caller)
				addEdge(g.outgoing, caller, callee)
			}
		}
	}
	return g
}

func addEdge(m map[nodeKey]map[nodeKey]bool, from, to nodeKey) {
	if m[from] == nil {
		m[from] = map[nodeKey]bool{}
	}
	m[from][to] = true
}

// resolveCaller picks the caller's definition whose line is the largest at or before the call.
func resolveCaller(file string, c call, defLines map[[2]string][]int) (nodeKey, bool) {
	lines := defLines[[2]string{file, c.caller}]
	i := sort.SearchInts(lines, c.line)
	switch {
	case i < len(lines) && lines[i] == c.line:
		return nodeKey{file, c.caller, lines[i]}, true
	case i == 0:
		return nodeKey{}, false
	default:
		return nodeKey{file, c.caller, lines[i-1]}, true
	}
}

func resolveCallee(a *fileAnalysis, c call, byName map[string][]nodeKey, lang map[string]string) []nodeKey {
	keys := byName[c.callee]
	var same []nodeKey
	for _, k := range keys {
		if k.file == a.path {
			same = append(same, k)
		}
	}
	if len(same) > 0 {
		best := same[0]
		for _, k := range same[1:] {
			if abs(c.line-k.line) < abs(c.line-best.line) || (abs(c.line-k.line) == abs(c.line-best.line) && k.line < best.line) {
				best = k
			}
		}
		return []nodeKey{best}
	}
	var out []nodeKey
	for _, k := range keys {
		if lang[k.file] == a.language {
			out = append(out, k)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (g *callGraph) definitions(symbol string) []nodeKey {
	var out []nodeKey
	for k := range g.nodes {
		if k.name == symbol {
			out = append(out, k)
		}
	}
	sortKeys(out)
	return out
}

func sortKeys(ks []nodeKey) {
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].file != ks[j].file {
			return ks[i].file < ks[j].file
		}
		if ks[i].line != ks[j].line {
			return ks[i].line < ks[j].line
		}
		return ks[i].name < ks[j].name
	})
}

// chains walks edges breadth-first from every definition of symbol up to depth links, without revisiting
// a node on the same chain (goose's bfs_chains).
func (g *callGraph) chains(symbol string, depth int, edges map[nodeKey]map[nodeKey]bool) [][]nodeKey {
	if depth == 0 {
		return nil
	}
	type item struct {
		path []nodeKey
		d    int
	}
	var queue []item
	for _, start := range g.definitions(symbol) {
		for _, n := range sortedNeighbours(edges[start]) {
			queue = append(queue, item{[]nodeKey{start, n}, 1})
		}
	}
	var out [][]nodeKey
	for len(queue) > 0 && len(out)+len(queue) < maxChains {
		it := queue[0]
		queue = queue[1:]
		if it.d >= depth {
			out = append(out, it.path)
			continue
		}
		tip := it.path[len(it.path)-1]
		extended := false
		for _, n := range sortedNeighbours(edges[tip]) {
			if containsKey(it.path, n) {
				continue
			}
			next := append(append([]nodeKey(nil), it.path...), n)
			queue = append(queue, item{next, it.d + 1})
			extended = true
		}
		if !extended {
			out = append(out, it.path)
		}
	}
	return out
}

func sortedNeighbours(m map[nodeKey]bool) []nodeKey {
	out := make([]nodeKey, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

func containsKey(path []nodeKey, k nodeKey) bool {
	for _, p := range path {
		if p == k {
			return true
		}
	}
	return false
}
