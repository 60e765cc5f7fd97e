// The tree tool: a directory listing with line counts that honours .gitignore/.ignore files and skips
// hidden entries, in goose's format (dirs first, `name/  [lines]`, thousands as `[NK]`).

package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// DefaultTreeDepth is goose's default depth.
const DefaultTreeDepth = 2

// maxTreeEntries bounds the listing so a huge folder cannot flood the model.
const maxTreeEntries = 2000

type treeNode struct {
	name  string
	dir   bool
	lines int
	kids  []*treeNode
}

// Tree lists path (relative to the workspace root) to depth levels (0: unlimited).
func Tree(ctx context.Context, ws Workspace, path string, depth int) Result {
	if path == "" {
		path = "."
	}
	abs, err := Confine(ws.Root(), path)
	if err != nil {
		return errorf("%v", err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return errorf("Path does not exist: %s", path)
	}
	if !st.IsDir() {
		return errorf("Path is not a directory: %s", path)
	}
	rel, _ := filepath.Rel(ws.Root(), abs)
	var domain []string
	if rel != "." {
		domain = strings.Split(filepath.ToSlash(rel), "/")
	}
	// patterns of the folders above path, from the root down
	var patterns []gitignore.Pattern
	for i := 0; i < len(domain); i++ {
		patterns = append(patterns, ignorePatterns(filepath.Join(ws.Root(), filepath.Join(domain[:i]...)), domain[:i])...)
	}
	count := 0
	root := walkTree(ctx, abs, domain, patterns, depth, 1, &count)
	if len(root.kids) == 0 {
		return Result{Text: "(empty directory)"}
	}
	var b strings.Builder
	printTree(&b, root.kids, 0)
	if count >= maxTreeEntries {
		fmt.Fprintf(&b, "... (listing stopped after %d entries; pass a deeper path or a smaller depth)\n", maxTreeEntries)
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

func ignorePatterns(dir string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, name := range []string{".gitignore", ".ignore"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}

func walkTree(ctx context.Context, dir string, domain []string, patterns []gitignore.Pattern, depth, level int, count *int) *treeNode {
	node := &treeNode{dir: true}
	patterns = append(patterns[:len(patterns):len(patterns)], ignorePatterns(dir, domain)...)
	matcher := gitignore.NewMatcher(patterns)
	entries, err := os.ReadDir(dir)
	if err != nil || ctx.Err() != nil {
		return node
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || *count >= maxTreeEntries {
			continue
		}
		path := append(domain[:len(domain):len(domain)], e.Name())
		isDir := e.IsDir()
		if matcher.Match(path, isDir) {
			continue
		}
		*count++
		full := filepath.Join(dir, e.Name())
		if isDir {
			kid := &treeNode{name: e.Name(), dir: true}
			if depth == 0 || level < depth {
				sub := walkTree(ctx, full, path, patterns, depth, level+1, count)
				kid.kids, kid.lines = sub.kids, sub.lines
			} else {
				kid.lines = countLinesUnder(full, matcher, path)
			}
			node.kids = append(node.kids, kid)
			node.lines += kid.lines
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		n := countLines(full)
		node.kids = append(node.kids, &treeNode{name: e.Name(), lines: n})
		node.lines += n
	}
	sort.Slice(node.kids, func(i, j int) bool {
		a, b := node.kids[i], node.kids[j]
		if a.dir != b.dir {
			return a.dir
		}
		return a.name < b.name
	})
	return node
}

// countLinesUnder sums the lines below a folder that is not listed (past the depth).
func countLinesUnder(dir string, m gitignore.Matcher, domain []string) int {
	total, seen := 0, 0
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || seen > 20000 {
			return filepath.SkipDir
		}
		if p == dir {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		path := append(domain[:len(domain):len(domain)], strings.Split(filepath.ToSlash(rel), "/")...)
		if m.Match(path, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		seen++
		if d.Type().IsRegular() {
			total += countLines(p)
		}
		return nil
	})
	return total
}

func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if err != nil {
			break
		}
	}
	if last != '\n' {
		n++
	}
	return n
}

func formatLines(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("[%dK]", n/1000)
	}
	return fmt.Sprintf("[%d]", n)
}

func printTree(b *strings.Builder, nodes []*treeNode, indent int) {
	pad := strings.Repeat("  ", indent)
	for _, n := range nodes {
		if n.dir {
			fmt.Fprintf(b, "%s%s/  %s\n", pad, n.name, formatLines(n.lines))
			printTree(b, n.kids, indent+1)
		} else {
			fmt.Fprintf(b, "%s%s  %s\n", pad, n.name, formatLines(n.lines))
		}
	}
}
