//go:build !linux

// Outside Linux the heap is left to the system.

package hugepages

// Advise does nothing outside Linux.
func Advise([]byte) {}

// AdviseHeapStart does nothing outside Linux.
func AdviseHeapStart() bool { return false }

// PopulateImage does nothing outside Linux.
func PopulateImage() int { return 0 }
