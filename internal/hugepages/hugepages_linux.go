// Transparent huge pages through madvise(2) on Linux.

package hugepages

import (
	"syscall"
	"unsafe"
)

const (
	hugePage = 2 << 20
	// heapChunk is the unit in which the runtime maps its heap (the page allocator's chunk): the
	// mapping holding a young process's heap is this size and this aligned.
	heapChunk = 4 << 20
	// madvCollapse is MADV_COLLAPSE (Linux 6.1): make the range's pages one huge page now.
	madvCollapse = 25
)

// Advise marks b's memory for transparent huge pages: later first touches of each 2 MiB region in it
// fault in a huge page. It changes nothing when the kernel's mode is "always", and fails harmlessly
// (ignored) when the mode is "never" or the kernel has no THP. The advice outlives b: memory the runtime
// frees and hands out again keeps it.
func Advise(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}

// probe is the allocation AdviseHeapStart locates the heap by (kept, so it stays where it was found).
var probe *[16]byte

// AdviseHeapStart puts the heap's first chunk on huge pages: it advises the 4 MiB chunk that holds a new
// allocation, and collapses the 2 MiB the runtime has already used (its 4 KiB pages become one huge page,
// so the allocations that follow there fault no more). It reports whether the collapse took place. Call
// it early (an initialiser): what the runtime has touched by then was faulted in 4 KiB at a time anyway.
func AdviseHeapStart() (collapsed bool) {
	probe = new([16]byte)
	at := uintptr(unsafe.Pointer(probe))
	chunk := at &^ (heapChunk - 1)
	// Parts of the chunk the runtime has not mapped yet are skipped by the kernel (ENOMEM, ignored).
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, chunk, heapChunk, syscall.MADV_HUGEPAGE)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, at&^(hugePage-1), hugePage, madvCollapse)
	return errno == 0
}
