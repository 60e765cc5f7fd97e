// The heap policy of a batch check (a folder, or many files): a larger GC target and, on Linux, a heap
// region advised for transparent huge pages, so a run that touches tens of MiB does not pay a page fault
// per 4 KiB (internal/hugepages).
package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/goose-ls/goose-ls/internal/hugepages"
)

// batchGCPercent is the GC target of a batch check: a one-shot process whose heap is the files' texts
// and results, where collecting at 5× the live heap instead of 2× halves the collections.
const batchGCPercent = 400

// batchMemoryLimit bounds what batchGCPercent may cost: above it the collector runs as often as needed.
const batchMemoryLimit = 1 << 30

// batchHeapBytes is the heap region prepared for huge pages (the corpus of 192 recipes peaks near 25 MiB
// at batchGCPercent).
const batchHeapBytes = 32 << 20

// batchFileArgs is the number of file arguments from which a check is a batch (a pre-commit hook passes
// the changed files one by one).
const batchFileArgs = 16

// isBatch says whether a check of args is a batch: a folder among them, or batchFileArgs files or more.
func isBatch(args []string) bool {
	if len(args) >= batchFileArgs {
		return true
	}
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			return true
		}
	}
	return false
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
