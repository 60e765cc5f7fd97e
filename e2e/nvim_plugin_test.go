// The Neovim plugin (editors/nvim) end to end in Debian's headless Neovim.
package e2e

import (
	"path/filepath"
	"testing"
	"time"
)

func TestNeovimPluginFromACleanConfig(t *testing.T) {
	nvim := requireTool(t, "nvim")
	bin := buildServer(t)
	root, srv := writerWorkspace(t)
	plugin, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("nvim_plugin.lua")
	home := t.TempDir() // a clean config: no user init, no plugins but ours
	env := append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "XDG_DATA_HOME=" + home,
		"GOOSE_LS_BIN=" + bin, "PLUGIN_DIR=" + plugin, "WORK_DIR=" + root}, agentEnv(srv, home)...)
	runScript(t, 90*time.Second, root, env, "OK", nvim, "--headless", "--clean", "-i", "NONE", "-n", "-c", "luafile "+script)
	// the parameter the user typed reached the model through the rendered prompt
	checkTopicReachedModel(t, srv, "agents")
}
