// Tests for the file tools and path confinement.
package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openFiles opens dir as the workspace for one test.
func openFiles(t *testing.T, dir string) *Files {
	t.Helper()
	f, err := OpenFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestLocalRefusesPathsOutside(t *testing.T) {
	root := t.TempDir()
	files := openFiles(t, root)
	for _, c := range []struct {
		path, want string // want "" means accepted
	}{
		{"a.txt", ""}, {"sub/new/file.go", ""}, {filepath.Join(root, "x"), ""}, {".", ""}, {root, ""},
		{"sub/../a.txt", ""},
		{"../escape", "outside the workspace"}, {"sub/../../escape", "outside the workspace"},
		{"/etc/passwd", "outside the workspace"}, {root + "-sibling/x", "outside the workspace"},
		{"file:///etc/passwd", "is a URI"}, {"", "path is empty"},
	} {
		_, err := files.Local(c.path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Local(%q): %v", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Local(%q) error = %v, want %q", c.path, err, c.want)
		}
	}
}

func TestWriteEditRead(t *testing.T) {
	ctx := context.Background()
	ws := Disk{Dir: t.TempDir()}
	files := openFiles(t, ws.Dir)
	if r := Write(ctx, ws, files, "src/app.py", "def main():\n    print('hi')\n"); r.IsError || r.Text != "Created src/app.py (2 lines)" {
		t.Fatalf("write: %+v", r)
	}
	if r := Write(ctx, ws, files, "src/app.py", "a\nb\nc"); r.IsError || r.Text != "Wrote src/app.py (3 lines)" {
		t.Fatalf("overwrite: %+v", r)
	}
	if r := Edit(ctx, ws, files, "src/app.py", "b", "B1\nB2"); r.IsError || r.Text != "Edited src/app.py (1 lines -> 2 lines)" {
		t.Fatalf("edit: %+v", r)
	}
	data, _ := os.ReadFile(filepath.Join(ws.Dir, "src/app.py"))
	if string(data) != "a\nB1\nB2\nc" {
		t.Fatalf("file = %q", data)
	}
	r := Edit(ctx, ws, files, "src/app.py", "zzz", "y")
	if !r.IsError || !strings.HasPrefix(r.Text, "No match found for the specified text.") || !strings.Contains(r.Text, "File preview:\n   1: a") {
		t.Errorf("no match: %+v", r)
	}
	Write(ctx, ws, files, "dup.txt", "x\ny\nx\nx\n")
	r = Edit(ctx, ws, files, "dup.txt", "x", "z")
	if !r.IsError || !strings.HasPrefix(r.Text, "Found 3 matches. Please provide more context to identify a unique match:") || !strings.Contains(r.Text, "Match 2 (line 3):") || !strings.HasSuffix(r.Text, "...and 1 more") {
		t.Errorf("many matches: %+v", r)
	}
	if r := Read(ctx, ws, files, "src/app.py", 2, 3); r.IsError || r.Text != "   2: B1\n   3: B2" {
		t.Errorf("read range: %+v", r)
	}
	if r := Read(ctx, ws, files, "../outside", 0, 0); !r.IsError || !strings.Contains(r.Text, "outside the workspace") {
		t.Errorf("read outside: %+v", r)
	}
	if r := Write(ctx, ws, files, "/tmp/evil", "x"); !r.IsError {
		t.Errorf("write outside: %+v", r)
	}
}
