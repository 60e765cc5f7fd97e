package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"
)

func TestIsBatch(t *testing.T) {
	// few: batchFiles-1 recipe names, plus names the walk skips (other extensions, node_modules, .git)
	few := t.TempDir()
	write := func(dir, name string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("title: t\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for i := range batchFiles - 1 {
		write(few, filepath.Join("sub", strconv.Itoa(i)+".yaml"))
	}
	write(few, "notes.txt")
	write(few, filepath.Join("node_modules", "x.yaml"))
	write(few, filepath.Join(".git", "y.json"))
	enough := t.TempDir()
	for i := range batchFiles {
		write(enough, strconv.Itoa(i)+[]string{".yaml", ".yml", ".JSON"}[i%3])
	}
	file := write(t.TempDir(), "one.yaml")
	many := make([]string, batchFiles)
	for i := range many {
		many[i] = write(t.TempDir(), strconv.Itoa(i)+".yaml")
	}
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"one file", []string{file}, false},
		{"a folder of batchFiles-1 recipes and skipped names", []string{few}, false},
		{"that folder and one more file", []string{few, file}, true},
		{"a folder of batchFiles recipes", []string{enough}, true},
		{"batchFiles files", many, true},
		{"batchFiles-1 files", many[1:], false},
		{"a missing path", []string{filepath.Join(few, "missing")}, false},
	} {
		if got := isBatch(c.args); got != c.want {
			t.Errorf("%s: isBatch = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCountRecipeNamesStopsAtTheLimit(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".yaml"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := countRecipeNames(dir, 3); got != 3 {
		t.Errorf("countRecipeNames(limit 3) = %d", got)
	}
	if got := countRecipeNames(dir, 100); got != 50 {
		t.Errorf("countRecipeNames(limit 100) = %d, want 50", got)
	}
}

func TestPrepareBatchHeapSetsTheGCTarget(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(-1)
	defer debug.SetGCPercent(old)
	defer debug.SetMemoryLimit(oldLimit)
	prepareBatchHeap()
	if got := debug.SetGCPercent(100); got != batchGCPercent {
		t.Errorf("GC percent after prepareBatchHeap = %d, want %d", got, batchGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != batchMemoryLimit {
		t.Errorf("memory limit after prepareBatchHeap = %d, want %d", got, batchMemoryLimit)
	}
}

func TestPrepareBatchHeapLeavesTheUsersGOGC(t *testing.T) {
	t.Setenv("GOGC", "150")
	old := debug.SetGCPercent(150)
	defer debug.SetGCPercent(old)
	prepareBatchHeap()
	if got := debug.SetGCPercent(old); got != 150 {
		t.Errorf("GC percent after prepareBatchHeap with GOGC=150 = %d, want 150", got)
	}
}
