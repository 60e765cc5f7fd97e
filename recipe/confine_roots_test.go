// OpenRoots: a root is opened once per job and reused (a folder replaced meanwhile is still read as it was
// opened), confinement holds through a kept root, Close releases every root, and a check leaks no handle.

//go:build linux

package recipe_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestOpenRootsKeepsOneRootUntilClose(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	mustWrite(t, filepath.Join(ws, "a.yaml"), "first")
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	if data, err := opened.ReadLimitedIn(ws, filepath.Join(ws, "a.yaml"), 100); err != nil || string(data) != "first" {
		t.Fatalf("first read: %q, %v", data, err)
	}
	// the folder is swapped for another one of the same name: the kept root still reads the first folder
	if err := os.Rename(ws, filepath.Join(base, "old")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(ws, "a.yaml"), "second")
	if data, err := opened.ReadLimitedIn(ws, filepath.Join(ws, "a.yaml"), 100); err != nil || string(data) != "first" {
		t.Errorf("read through the kept root: %q, %v (want the folder as it was opened)", data, err)
	}
	opened.Close()
	if data, err := opened.ReadLimitedIn(ws, filepath.Join(ws, "a.yaml"), 100); err != nil || string(data) != "second" {
		t.Errorf("read after Close: %q, %v (want a fresh root on the new folder)", data, err)
	}
	if data, err := recipe.ReadLimitedIn(ws, filepath.Join(ws, "a.yaml"), 100); err != nil || string(data) != "second" {
		t.Errorf("read without a set: %q, %v", data, err)
	}
}

func TestOpenRootsStayConfined(t *testing.T) {
	h := newHostileTree(t)
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { // concurrent readers share the set
			defer wg.Done()
			_, errs[i] = opened.ReadLimitedIn(h.ws, filepath.Join(h.ws, "link-out.yaml"), 1<<20)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, recipe.ErrOutsideRoots) {
			t.Errorf("reader %d: symlink out through a kept root: %v", i, err)
		}
	}
	for name, want := range map[string]error{"pipe.yaml": recipe.ErrNotRegular, "environ.yaml": recipe.ErrOutsideRoots,
		"loop.yaml": recipe.ErrSymlinkLoop, "outdir/secret.yaml": recipe.ErrOutsideRoots} {
		data, err := opened.ReadLimitedIn(h.ws, filepath.Join(h.ws, name), 1<<20)
		if !errors.Is(err, want) || strings.Contains(string(data), secretMarker) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	data, err := opened.ReadLimitedIn(h.ws, filepath.Join(h.ws, "big.yaml"), 10)
	if err != nil || len(data) != 10 {
		t.Errorf("limit through a kept root: %d bytes, %v", len(data), err)
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func TestCheckClosesSubRecipeRoots(t *testing.T) {
	ws := t.TempDir()
	var src strings.Builder
	src.WriteString("title: T\ndescription: D\nprompt: hi\nsub_recipes:\n")
	for _, n := range []string{"a", "b", "c"} {
		mustWrite(t, filepath.Join(ws, n+".yaml"), "title: "+n+"\ndescription: d\nprompt: p\n")
		src.WriteString("  - name: " + n + "\n    path: ./" + n + ".yaml\n")
	}
	check := func() *recipe.File {
		return recipe.Check(filepath.Join(ws, "main.yaml"), []byte(src.String()), &recipe.Options{Roots: []string{ws}})
	}
	check() // warm every lazy initialisation that may keep a handle (schema, caches)
	before := openFDs(t)
	for range 5 {
		if f := check(); len(f.Diags) != 0 {
			t.Fatalf("diagnostics: %v", f.Diags)
		}
	}
	if after := openFDs(t); after != before {
		t.Errorf("open descriptors %d before 5 checks, %d after: a root or file was left open", before, after)
	}
}

func TestOpenRootsFolderReadsAnswerAsTheRoot(t *testing.T) {
	h := newHostileTree(t)
	sub := filepath.Join(h.ws, "sub", "deeper")
	mustWrite(t, filepath.Join(sub, "own.yaml"), "own")
	mustWrite(t, filepath.Join(h.ws, "top.yaml"), "top")
	mustSymlink(t, "../../top.yaml", filepath.Join(sub, "up.yaml"))                // leaves sub/deeper, stays in ws
	mustSymlink(t, "../../../outside/secret.yaml", filepath.Join(sub, "out.yaml")) // leaves ws
	mustSymlink(t, "../../outdir", filepath.Join(sub, "outdir"))                   // a folder link that leaves ws
	mustSymlink(t, "sub", filepath.Join(h.ws, "sublink"))                          // a folder link inside ws
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	for _, tc := range []struct {
		rel, want string
		err       error
	}{
		{"sub/deeper/own.yaml", "own", nil},
		{"sub/deeper/up.yaml", "top", nil},
		{"sublink/deeper/own.yaml", "own", nil},
		{"sub/deeper/out.yaml", "", recipe.ErrOutsideRoots},
		{"sub/deeper/outdir/secret.yaml", "", recipe.ErrOutsideRoots},
		{"sub/deeper/missing.yaml", "", os.ErrNotExist},
		{"sub/deeper/own.yaml", "own", nil}, // again, through the kept folder
	} {
		data, err := opened.ReadLimitedIn(h.ws, filepath.Join(h.ws, tc.rel), 100)
		if string(data) != tc.want || (tc.err == nil) != (err == nil) || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("%s: %q, %v; want %q, %v", tc.rel, data, err, tc.want, tc.err)
		}
	}
}
