// End-to-end: Debian's headless Neovim (stock vim.lsp) drives the built goose-ls binary.
package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNeovimDiagnosticsCompletionFixRename(t *testing.T) {
	nvim := requireTool(t, "nvim")
	bin := buildServer(t)
	dir := filepath.Join(t.TempDir(), "recipes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	recipe := filepath.Join(dir, "write.yaml")
	if err := os.WriteFile(recipe, []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }}, then summarise {{ topic }}.\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("nvim_e2e.lua")
	runScript(t, 60*time.Second, "", []string{"GOOSE_LS_BIN=" + bin, "RECIPE_FILE=" + recipe}, "OK",
		nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
}
