// Transparent huge pages for a batch check's heap on Linux.
package main

import "syscall"

// adviseHugePages marks b's pages for transparent huge pages. On a kernel whose THP mode is "madvise"
// (Debian's default) this is what makes the heap use them; with "always" it changes nothing, with "never"
// or without THP it fails and is ignored. The advice stays on the memory after the runtime frees b.
func adviseHugePages(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
