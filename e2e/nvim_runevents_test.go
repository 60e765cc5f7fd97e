// The Neovim plugin's goose/runEvent handling against the shared fixtures the Go host is tested against
// (agent/host/testdata/runevents), in the host's Neovim; no server needed.
package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

func TestNvimTranscriptReadsTheSharedRunEvents(t *testing.T) {
	nvim := requireTool(t, "nvim")
	abs := func(rel string) string {
		p, err := filepath.Abs(rel)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	runScript(t, 2*time.Minute, t.TempDir(), []string{"RUNEVENTS=" + abs("../agent/host/testdata/runevents")}, "runevents ok",
		nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "set rtp+="+abs("../editors/nvim"), "-c", "luafile "+abs("nvim_runevents.lua"))
}
