// tree: format, depth, gitignore, hidden files, confinement.
package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTree(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"main.go":            "package main\n\nfunc main() {}\n",
		"README.md":          "# hi",
		"src/a/deep.go":      "a\nb\n",
		"src/b.go":           strings.Repeat("x\n", 1500),
		"build/out.bin":      "ignored\n",
		"logs/app.log":       "ignored\n",
		"src/gen/x.go":       "ignored by nested .gitignore\n",
		"src/.gitignore":     "gen/\n",
		".gitignore":         "build/\n*.log\n",
		".hidden/secret.txt": "hidden\n",
	})
	files := openFiles(t, root)
	got := Tree(context.Background(), files, ".", 2)
	want := "logs/  [0]\nsrc/  [1K]\n  a/  [2]\n  b.go  [1K]\nREADME.md  [1]\nmain.go  [3]"
	if got.IsError || got.Text != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got.Text, want)
	}
	unlimited := Tree(context.Background(), files, "src", 0)
	if !strings.Contains(unlimited.Text, "a/  [2]\n  deep.go  [2]") || strings.Contains(unlimited.Text, "gen") {
		t.Errorf("unlimited depth:\n%s", unlimited.Text)
	}
	for _, c := range []struct{ path, want string }{
		{"nope", "Path does not exist: nope"},
		{"main.go", "Path is not a directory: main.go"},
		{"../", "outside the workspace"},
	} {
		r := Tree(context.Background(), files, c.path, 2)
		if !r.IsError || !strings.Contains(r.Text, c.want) {
			t.Errorf("%s: %+v", c.path, r)
		}
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	if r := Tree(context.Background(), files, "empty", 2); r.Text != "(empty directory)" {
		t.Errorf("empty: %q", r.Text)
	}
}
