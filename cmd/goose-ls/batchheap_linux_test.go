package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAdviseHugePagesMarksTheMemory reads the kernel's view of the advised memory: where THP can be
// used (mode always or madvise) the mapping holding it carries the "hg" flag.
func TestAdviseHugePagesMarksTheMemory(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	thp := err == nil && !strings.Contains(string(mode), "[never]")
	b := make([]byte, 8<<20)
	adviseHugePages(b)
	flags := vmFlagsAt(t, uintptr(unsafe.Pointer(&b[0])))
	hg := strings.Contains(" "+flags+" ", " hg ")
	if thp && !hg {
		t.Errorf("THP mode %q: the advised mapping's flags are %q, want hg among them", strings.TrimSpace(string(mode)), flags)
	}
	if !thp && hg {
		t.Errorf("no THP here, but the mapping's flags are %q", flags)
	}
}

// vmFlagsAt is the VmFlags line of the mapping of this process that holds addr.
func vmFlagsAt(t *testing.T, addr uintptr) string {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	inside := false
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := mappingRange(line); ok {
			inside = lo <= addr && addr < hi
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && inside {
			return strings.TrimSpace(flags)
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return ""
}

// mappingRange parses the address range that starts an smaps entry ("7f12…-7f13… rw-p …").
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	field, _, _ := strings.Cut(line, " ")
	l, h, found := strings.Cut(field, "-")
	if !found {
		return 0, 0, false
	}
	a, err1 := strconv.ParseUint(l, 16, 64)
	b, err2 := strconv.ParseUint(h, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(a), uintptr(b), true
}
