// Files.Remove deletes inside the workspace only, and removes a link itself, never what it points at.
package tools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRemoveStaysInside(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(outside, "keep.txt")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "made.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	files, err := OpenFiles(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	if err := files.Remove(filepath.Join(ws, "made.txt")); err != nil {
		t.Errorf("removing a file inside: %v", err)
	}
	if err := files.Remove(filepath.Join(ws, "link.txt")); err != nil {
		t.Errorf("removing a link inside: %v", err)
	}
	for _, p := range []string{target, filepath.Join(ws, "out", "keep.txt"), "../outside/keep.txt"} {
		if err := files.Remove(p); err == nil {
			t.Errorf("removed %s, outside the workspace", p)
		}
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != "keep" {
		t.Errorf("the file outside changed: %q %v", data, err)
	}
	for _, p := range []string{"made.txt", "link.txt"} {
		if _, err := os.Lstat(filepath.Join(ws, p)); !os.IsNotExist(err) {
			t.Errorf("%s still there: %v", p, err)
		}
	}
}
