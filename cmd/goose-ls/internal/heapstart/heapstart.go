// Package heapstart puts the heap of goose-ls's one-shot commands (check, recipe) on transparent huge
// pages from their first initialisers on: `check` of a small recipe touches ~1 MiB of heap, a page fault
// per 4 KiB otherwise (internal/hugepages). The language server is left alone: its resident memory is
// budgeted, and a huge page is resident whole. main imports it beside earlyexec; it imports only os and
// internal/hugepages (syscall), so it initialises right after os, before the heavy packages.
package heapstart

import (
	"os"

	"github.com/goose-ls/goose-ls/internal/hugepages"
)

func init() {
	if len(os.Args) > 1 && oneShot(os.Args[1]) && !hugepages.Disabled() {
		hugepages.AdviseHeapStart()
	}
}

// oneShot says whether goose-ls's first argument is a command that runs and exits on its own heap.
func oneShot(command string) bool {
	return command == "check" || command == "recipe"
}
