// Package heapstart puts goose-ls-agent's heap on transparent huge pages from its first initialisers on:
// the SDKs' registries and the runtime's per-size-class spans touch ~1.4 MiB of heap before the first
// provider request, ~350 page faults of 16–20 µs each on CI's virtual machines (ARCHITECTURE.md,
// "Performance"). For a one-shot command (run, sessions) it also maps the binary's read-only segments at
// once (hugepages.PopulateImage): ~190 packages' initialisers touch pages all over them, and a mapping
// fault costs as much as a heap fault. The long-lived commands (acp, relay) skip that: the whole image
// would count in their resident size. main imports it first; its path and its imports (internal/hugepages
// and syscall only) make it initialise right after syscall, before the heavy packages.
package heapstart

import (
	"syscall"

	"github.com/goose-ls/goose-ls/internal/hugepages"
)

func init() {
	if !hugepages.Disabled() {
		hugepages.AdviseHeapStart()
	}
	if cmd := command(); cmd != "acp" && cmd != "relay" {
		hugepages.PopulateImage()
	}
}

// command is the process's first argument, read from /proc/self/cmdline (os.Args is set later, by os's
// initialiser); "" when there is none or it cannot be read.
func command() string {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return ""
	}
	defer syscall.Close(fd)
	var buf [256]byte
	n, _ := syscall.Read(fd, buf[:])
	return secondField(buf[:max(n, 0)])
}

// secondField returns the second NUL-terminated field of b.
func secondField(b []byte) string {
	start := -1
	for i, c := range b {
		if c != 0 {
			continue
		}
		if start >= 0 {
			return string(b[start:i])
		}
		start = i + 1
	}
	return ""
}
