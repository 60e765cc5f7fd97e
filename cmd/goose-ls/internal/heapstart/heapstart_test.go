package heapstart

import "testing"

func TestOneShot(t *testing.T) {
	for command, want := range map[string]bool{
		"check": true, "recipe": true,
		"serve": false, "": false, "run": false, "acp": false, "sessions": false, "schema": false, "version": false, "Check": false,
	} {
		if got := oneShot(command); got != want {
			t.Errorf("oneShot(%q) = %v, want %v", command, got, want)
		}
	}
}
