package hugepages

import "testing"

func TestDisabledBy(t *testing.T) {
	for godebug, want := range map[string]bool{
		"":                          false,
		"disablethp=1":              true,
		"disablethp=0":              false,
		"gctrace=1, disablethp=1":   true,
		"disablethp=1,disablethp=0": false,
		"disablethp=0,disablethp=1": true,
		"madvdontneed=1":            false,
		"xdisablethp=1":             false,
		"disablethp=10":             false,
		",,disablethp=1,":           true,
	} {
		if got := disabledBy(godebug); got != want {
			t.Errorf("disabledBy(%q) = %v, want %v", godebug, got, want)
		}
	}
}

func TestDisabledReadsGODEBUG(t *testing.T) {
	t.Setenv("GODEBUG", "disablethp=1")
	if !Disabled() {
		t.Error("GODEBUG=disablethp=1: Disabled() = false")
	}
	t.Setenv("GODEBUG", "")
	if Disabled() {
		t.Error("GODEBUG empty: Disabled() = true")
	}
}
