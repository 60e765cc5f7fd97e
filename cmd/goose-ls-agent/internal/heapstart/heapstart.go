// Package heapstart puts goose-ls-agent's heap on transparent huge pages from its first initialisers on:
// the SDKs' registries and the runtime's per-size-class spans touch ~1.4 MiB of heap before the first
// provider request, ~350 page faults of 16–20 µs each on CI's virtual machines (ARCHITECTURE.md,
// "Performance"). main imports it first; its path and its imports (internal/hugepages: syscall and
// unsafe only) make it initialise right after syscall, before the heavy packages.
package heapstart

import "github.com/goose-ls/goose-ls/internal/hugepages"

func init() {
	if !hugepages.Disabled() {
		hugepages.AdviseHeapStart()
	}
}
