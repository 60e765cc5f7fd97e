// Where the server's resident memory is (-smaps): its executable's pages, shared libraries, anonymous
// memory (the Go heap arena above all), from /proc/PID/smaps once the edits are done.

package main

import (
	"fmt"
	"os"
	"strings"
)

// smapsOut is where -smaps writes the server's memory map (empty: nowhere).
var smapsOut string

// saveSmaps copies /proc/PID/smaps to path and prints where the resident memory is, to account for
// what lies beyond the Go heap.
func saveSmaps(pid int, path string) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lspbench: smaps:", err)
		return
	}
	exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	r := residentByKind(string(data), exe)
	fmt.Printf("goose-ls resident after the edits: %d KiB: executable %d, shared libraries %d, anonymous %d (largest mapping %d: the Go heap arena), other %d\n",
		r.total, r.exe, r.libs, r.anon, r.largestAnon, r.total-r.exe-r.libs-r.anon)
}

// resident is a process's resident KiB by kind of mapping.
type resident struct{ total, exe, libs, anon, largestAnon int }

// residentByKind sums the Rss lines of smaps by the mapping they follow: the executable's file, other
// files (shared libraries), anonymous memory.
func residentByKind(smaps, exe string) resident {
	var r resident
	name := ""
	for _, l := range strings.Split(smaps, "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			name = ""
			if len(f) >= 6 {
				name = f[5]
			}
			continue
		}
		if len(f) != 3 || f[0] != "Rss:" {
			continue
		}
		var kib int
		fmt.Sscanf(f[1], "%d", &kib)
		r.total += kib
		switch {
		case name == exe:
			r.exe += kib
		case strings.HasPrefix(name, "/"):
			r.libs += kib
		case name == "" || name == "[heap]" || name == "[stack]":
			r.anon += kib
			r.largestAnon = max(r.largestAnon, kib)
		}
	}
	return r
}
