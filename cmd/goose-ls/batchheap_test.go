package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"testing"
)

func TestIsBatch(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(file, []byte("title: t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	many := make([]string, batchFileArgs)
	for i := range many {
		many[i] = filepath.Join(dir, strconv.Itoa(i)+".yaml")
	}
	for _, c := range []struct {
		name string
		args []string
		want bool
	}{
		{"one file", []string{file}, false},
		{"a folder", []string{dir}, true},
		{"a file and a folder", []string{file, dir}, true},
		{"a missing path", []string{filepath.Join(dir, "missing")}, false},
		{"many files", many, true},
		{"one file fewer than many", many[1:], false},
	} {
		if got := isBatch(c.args); got != c.want {
			t.Errorf("%s: isBatch = %v, want %v", c.name, got, c.want)
		}
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
