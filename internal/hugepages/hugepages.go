// Package hugepages puts a process's Go heap on transparent huge pages where the kernel offers them only
// on request (THP mode "madvise", Debian's default). Each first touch of a 4 KiB page is a page fault, and
// on the virtual machines goose-ls and CI run on one costs 16–20 µs (ARCHITECTURE.md, "Performance"): a process
// that touches a few MiB of heap pays milliseconds for it. With huge pages a 2 MiB region costs one fault.
//
// The Go runtime stopped advising its heap for huge pages in Go 1.21.1 and leaves the choice to the
// kernel's mode; GODEBUG=disablethp=1, the runtime's switch against huge pages, turns this package off
// too. This package imports only syscall and unsafe, so an initialiser that uses it runs among a binary's
// first (see cmd/goose-ls-agent/internal/heapstart).
package hugepages

import "syscall"

// Disabled says whether GODEBUG turns transparent huge pages off (its last disablethp setting wins, as
// in the runtime).
func Disabled() bool {
	godebug, _ := syscall.Getenv("GODEBUG")
	return disabledBy(godebug)
}

// disabledBy reads a GODEBUG value: a comma-separated list of name=value settings.
func disabledBy(godebug string) bool {
	const key = "disablethp="
	off := false
	for start := 0; start <= len(godebug); {
		end := start
		for end < len(godebug) && godebug[end] != ',' {
			end++
		}
		kv := trimSpace(godebug[start:end])
		if len(kv) >= len(key) && kv[:len(key)] == key {
			off = kv[len(key):] == "1"
		}
		start = end + 1
	}
	return off
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
