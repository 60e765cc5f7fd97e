// Tests for the file tools and path confinement.
package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfine(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{"a.txt", true}, {"sub/new/file.go", true}, {filepath.Join(root, "x"), true},
		{"../escape", false}, {"sub/../../escape", false}, {"/etc/passwd", false},
		{"out/secret", false}, {"out", false}, {"file:///etc/passwd", false}, {"", false},
	} {
		_, err := Confine(root, c.path)
		if (err == nil) != c.ok {
			t.Errorf("Confine(%q) error = %v, want ok=%v", c.path, err, c.ok)
		}
	}
}

func TestWriteEditRead(t *testing.T) {
	ctx := context.Background()
	ws := Disk{Dir: t.TempDir()}
	if r := Write(ctx, ws, "src/app.py", "def main():\n    print('hi')\n"); r.IsError || r.Text != "Created src/app.py (2 lines)" {
		t.Fatalf("write: %+v", r)
	}
	if r := Write(ctx, ws, "src/app.py", "a\nb\nc"); r.IsError || r.Text != "Wrote src/app.py (3 lines)" {
		t.Fatalf("overwrite: %+v", r)
	}
	if r := Edit(ctx, ws, "src/app.py", "b", "B1\nB2"); r.IsError || r.Text != "Edited src/app.py (1 lines -> 2 lines)" {
		t.Fatalf("edit: %+v", r)
	}
	data, _ := os.ReadFile(filepath.Join(ws.Dir, "src/app.py"))
	if string(data) != "a\nB1\nB2\nc" {
		t.Fatalf("file = %q", data)
	}
	r := Edit(ctx, ws, "src/app.py", "zzz", "y")
	if !r.IsError || !strings.HasPrefix(r.Text, "No match found for the specified text.") || !strings.Contains(r.Text, "File preview:\n   1: a") {
		t.Errorf("no match: %+v", r)
	}
	Write(ctx, ws, "dup.txt", "x\ny\nx\nx\n")
	r = Edit(ctx, ws, "dup.txt", "x", "z")
	if !r.IsError || !strings.HasPrefix(r.Text, "Found 3 matches. Please provide more context to identify a unique match:") || !strings.Contains(r.Text, "Match 2 (line 3):") || !strings.HasSuffix(r.Text, "...and 1 more") {
		t.Errorf("many matches: %+v", r)
	}
	if r := Read(ctx, ws, "src/app.py", 2, 3); r.IsError || r.Text != "   2: B1\n   3: B2" {
		t.Errorf("read range: %+v", r)
	}
	if r := Read(ctx, ws, "../outside", 0, 0); !r.IsError || !strings.Contains(r.Text, "outside the workspace") {
		t.Errorf("read outside: %+v", r)
	}
	if r := Write(ctx, ws, "/tmp/evil", "x"); !r.IsError {
		t.Errorf("write outside: %+v", r)
	}
}
