// The tree tool: a directory listing with line counts that honours .gitignore/.ignore files and skips
// hidden entries, in goose's format (dirs first, `name/  [lines]`, thousands as `[NK]`).

package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/goose-ls/goose-ls/recipe"
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

// Tree lists path (relative to the workspace root) to depth levels (0: unlimited), reading the disk
// through files only.
func Tree(ctx context.Context, files *Files, path string, depth int) Result {
	if path == "" {
		path = "."
	}
	rel, err := files.Local(path)
	if err != nil {
		return errorf("%v", err)
	}
	st, err := files.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorf("Path does not exist: %s", path)
	case err != nil:
		return errorf("Cannot list %s: %v", path, err)
	case !st.IsDir():
		return errorf("Path is not a directory: %s", path)
	}
	var domain []string
	if rel != "." {
		domain = strings.Split(filepath.ToSlash(rel), "/")
	}
	// patterns of the folders above path, from the root down
	var patterns []gitignore.Pattern
	for i := 0; i < len(domain); i++ {
		patterns = append(patterns, ignorePatterns(files, domain[:i])...)
	}
	w := &treeWalk{ctx: ctx, files: files, depth: depth}
	root := w.walk(domain, patterns, 1)
	if len(root.kids) == 0 {
		return Result{Text: "(empty directory)"}
	}
	var b strings.Builder
	printTree(&b, root.kids, 0)
	if w.count >= maxTreeEntries {
		fmt.Fprintf(&b, "... (listing stopped after %d entries; pass a deeper path or a smaller depth)\n", maxTreeEntries)
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

// relPath is the workspace-relative path of slash-separated components ("." for none).
func relPath(domain []string) string {
	if len(domain) == 0 {
		return "."
	}
	return filepath.Join(domain...)
}

// ignorePatterns reads the .gitignore/.ignore files of a folder: regular files under a size cap,
// through files (a link out, to /dev/zero or to a FIFO is skipped).
func ignorePatterns(files *Files, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, name := range []string{".gitignore", ".ignore"} {
		p := filepath.Join(relPath(domain), name)
		data, err := files.ReadFile(p, maxIgnoreFileBytes)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				slog.Debug("tree: ignore file skipped", "path", p, "err", err)
			}
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

type treeWalk struct {
	ctx   context.Context
	files *Files
	depth int
	count int
}

func (w *treeWalk) walk(domain []string, patterns []gitignore.Pattern, level int) *treeNode {
	node := &treeNode{dir: true}
	patterns = append(patterns[:len(patterns):len(patterns)], ignorePatterns(w.files, domain)...)
	matcher := gitignore.NewMatcher(patterns)
	entries, err := w.files.ReadDir(relPath(domain))
	if err != nil || w.ctx.Err() != nil {
		return node
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || w.count >= maxTreeEntries {
			continue
		}
		path := append(domain[:len(domain):len(domain)], e.Name())
		isDir := e.IsDir() // a symbolic link is neither a folder nor a regular file here: not listed
		if matcher.Match(path, isDir) {
			continue
		}
		if isDir {
			w.count++
			kid := &treeNode{name: e.Name(), dir: true}
			if w.depth == 0 || level < w.depth {
				sub := w.walk(path, patterns, level+1)
				kid.kids, kid.lines = sub.kids, sub.lines
			} else {
				kid.lines = countLinesUnder(w.files, matcher, path)
			}
			node.kids = append(node.kids, kid)
			node.lines += kid.lines
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		w.count++
		n := countLines(w.files, relPath(path))
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
func countLinesUnder(files *Files, m gitignore.Matcher, domain []string) int {
	total, seen := 0, 0
	top := filepath.ToSlash(relPath(domain))
	_ = fs.WalkDir(files.FS(), top, func(p string, d fs.DirEntry, err error) error {
		if err != nil || seen > 20000 {
			return fs.SkipDir
		}
		if p == top {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		path := strings.Split(p, "/")
		if m.Match(path, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		seen++
		if d.Type().IsRegular() {
			total += countLines(files, filepath.FromSlash(p))
		}
		return nil
	})
	return total
}

// maxCountBytes bounds how much of one file tree reads to count its lines.
const maxCountBytes = 64 << 20

// countLines counts the lines of a regular file (opened so it cannot block, through files).
func countLines(files *Files, rel string) int {
	f, err := files.root.OpenFile(rel, os.O_RDONLY|recipe.OpenNonBlocking, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	if recipe.CheckRegular(f) != nil {
		return 0
	}
	buf := make([]byte, 64<<10)
	n, last, read := 0, byte('\n'), 0
	for read < maxCountBytes {
		k, err := f.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
			read += k
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
