package hugepages

import (
	"runtime"
	"testing"
)

// TestPopulateImageMapsTheCode: afterwards the whole mapping of this test binary's code is resident in
// the process's page tables (without it only the windows the test touched are).
func TestPopulateImageMapsTheCode(t *testing.T) {
	pc, _, _, _ := runtime.Caller(0)
	before := mappingAt(t, pc)
	advised := PopulateImage()
	after := mappingAt(t, pc)
	if advised < after.sizeKB<<10 {
		t.Fatalf("advised %d bytes, less than the code mapping's %d kB", advised, after.sizeKB)
	}
	if after.residentKB < after.sizeKB*95/100 {
		t.Errorf("the code mapping has %d of %d kB resident after PopulateImage", after.residentKB, after.sizeKB)
	}
	t.Logf("code mapping: %d kB; resident %d kB before, %d kB after; %d bytes advised in all", after.sizeKB, before.residentKB, after.residentKB, advised)
}
