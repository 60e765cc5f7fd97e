package hugepages

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// thpMode is the kernel's THP mode ("always", "madvise", "never"; "" without THP).
func thpMode(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	s := string(b)
	if i, j := strings.IndexByte(s, '['), strings.IndexByte(s, ']'); i >= 0 && j > i {
		return s[i+1 : j]
	}
	t.Fatalf("unreadable THP mode %q", s)
	return ""
}

// TestAdviseMarksTheMemory reads the kernel's view of advised memory: where THP can be used (mode
// always or madvise) the mapping that holds it carries the "hg" flag, and elsewhere nothing changes.
func TestAdviseMarksTheMemory(t *testing.T) {
	mode := thpMode(t)
	b := make([]byte, 8<<20)
	Advise(b)
	m := mappingAt(t, uintptr(unsafe.Pointer(&b[0])))
	usable := mode == "always" || mode == "madvise"
	if usable != m.hugeAdvised() {
		t.Errorf("THP mode %q: the advised mapping's flags are %q", mode, m.flags)
	}
}

// TestAdviseHeapStart: the mapping that holds a new allocation is advised afterwards, and a collapse it
// reports left a huge page there (the kernel's count of anonymous huge pages in that mapping).
func TestAdviseHeapStart(t *testing.T) {
	mode := thpMode(t)
	collapsed := AdviseHeapStart()
	m := mappingAt(t, uintptr(unsafe.Pointer(probe)))
	usable := mode == "always" || mode == "madvise"
	if usable != m.hugeAdvised() {
		t.Errorf("THP mode %q: the heap mapping's flags are %q", mode, m.flags)
	}
	if collapsed && m.anonHugeKB < 2048 {
		t.Errorf("the collapse was reported, but the heap mapping has %d kB in huge pages", m.anonHugeKB)
	}
	if !usable && collapsed {
		t.Errorf("THP mode %q, yet a collapse was reported", mode)
	}
	t.Logf("THP mode %q: collapsed %v, %d kB of the heap mapping in huge pages", mode, collapsed, m.anonHugeKB)
}

// mapping is what /proc/self/smaps says of one mapping.
type mapping struct {
	flags              string
	anonHugeKB         int
	sizeKB, residentKB int
}

func (m mapping) hugeAdvised() bool { return strings.Contains(" "+m.flags+" ", " hg ") }

// mappingAt is the smaps entry of this process's mapping that holds addr.
func mappingAt(t *testing.T, addr uintptr) mapping {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var m mapping
	inside := false
	for _, line := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := mappingRange(line); ok {
			inside = lo <= addr && addr < hi
			continue
		}
		if !inside {
			continue
		}
		for field, to := range map[string]*int{"AnonHugePages:": &m.anonHugeKB, "Size:": &m.sizeKB, "Rss:": &m.residentKB} {
			if kb, ok := strings.CutPrefix(line, field); ok {
				*to, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			}
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			m.flags = strings.TrimSpace(flags)
			return m
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return m
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
