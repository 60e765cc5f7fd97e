package hugepages

import (
	"syscall"
	"testing"
	"unsafe"
)

// BenchmarkFirstTouch is what a fresh page costs this machine: the first write to each 4 KiB page of
// 64 MiB of new anonymous memory, on 4 KiB pages and advised for huge pages (ns/op is per 4 KiB page).
func BenchmarkFirstTouch(b *testing.B) {
	for _, c := range []struct {
		name string
		huge bool
	}{{"4KiB-pages", false}, {"huge-pages", true}} {
		b.Run(c.name, func(b *testing.B) {
			const size, page = 64 << 20, 4 << 10
			pages := 0
			for b.Loop() {
				b.StopTimer()
				// 2 MiB more, so the advised range can start on a 2 MiB boundary
				mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
				if err != nil {
					b.Fatal(err)
				}
				start := hugePage - int(uintptrOf(mem)%hugePage)
				region := mem[start : start+size]
				if c.huge {
					Advise(region)
				}
				b.StartTimer()
				for i := 0; i < size; i += page {
					region[i] = 1
				}
				pages += size / page
				b.StopTimer()
				if err := syscall.Munmap(mem); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(pages), "ns/page")
		})
	}
}

// uintptrOf is the address of b's first byte.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
