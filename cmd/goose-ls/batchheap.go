// The heap policy of a batch check (batchFiles files or more): a larger GC target and, on Linux, a heap
// region advised for transparent huge pages, so a run that touches tens of MiB does not pay a page fault
// per 4 KiB (internal/hugepages).
package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/goose-ls/goose-ls/internal/hugepages"
)

// batchGCPercent is the GC target of a batch check: a one-shot process whose heap is the files' texts
// and results, where collecting at 5× the live heap instead of 2× halves the collections.
const batchGCPercent = 400

// batchMemoryLimit bounds what batchGCPercent may cost: above it the collector runs as often as needed.
const batchMemoryLimit = 1 << 30

// batchHeapBytes is the heap region prepared for huge pages (a check of the 192-recipe corpus peaks at
// 33 MB resident at batchGCPercent).
const batchHeapBytes = 32 << 20

// batchFiles is the number of files from which a check is a batch (a check of one file, or of a folder
// of a few, does not pay for preparing the policy: ~5 ms).
const batchFiles = 8

// isBatch says whether a check of args is a batch: batchFiles files or more among the files named and
// those a folder's walk would find by name (counted the way the walk goes, stopping at batchFiles). It is
// decided before the check starts: preparing the heap while the checks run was measured ~5 ms slower
// over the corpus.
func isBatch(args []string) bool {
	n := 0
	for _, a := range args {
		st, err := os.Stat(a)
		switch {
		case err != nil:
		case st.IsDir():
			n += countRecipeNames(a, batchFiles-n)
		default:
			n++
		}
		if n >= batchFiles {
			return true
		}
	}
	return false
}

// countRecipeNames counts the files below dir the check's walk would read, up to limit.
func countRecipeNames(dir string, limit int) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			if p != dir && skippedFolder(d.Name()) {
				return filepath.SkipDir
			}
		case recipeExtension(p):
			if n++; n >= limit {
				return filepath.SkipAll
			}
		}
		return nil
	})
	return n
}

// prepareBatchHeap applies the batch heap policy; the user's GOGC or GOMEMLIMIT, when set, wins, and
// GODEBUG=disablethp=1 (the Go runtime's switch against huge pages) leaves the heap's pages alone.
func prepareBatchHeap() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(batchGCPercent)
		debug.SetMemoryLimit(batchMemoryLimit)
	}
	if hugepages.Disabled() {
		return
	}
	region := make([]byte, batchHeapBytes) // fresh pages from the OS: untouched, so not yet resident
	hugepages.Advise(region)
	runtime.KeepAlive(region)
	region = nil
	runtime.GC() // free the region: the runtime hands its advised pages to the allocations that follow
}
