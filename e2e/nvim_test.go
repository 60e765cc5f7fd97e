// End-to-end: headless Neovim 0.7.2, 0.10 and 0.12 (stock vim.lsp) drive the built goose-ls binary.
package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestNeovimDiagnosticsCompletionFixRename(t *testing.T) {
	for _, nv := range neovims {
		t.Run(nv.name, func(t *testing.T) {
			nv.require(t)
			bin := buildServer(t)
			dir := filepath.Join(t.TempDir(), "recipes")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			recipe := filepath.Join(dir, "write.yaml")
			if err := os.WriteFile(recipe, []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }}, then summarise {{ topic }}.\"\ninstructions: Write in short, plain sentences.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			nv.run(t, 60*time.Second, bin, dir, []string{"GOOSE_LS_BIN=" + bin, "RECIPE_FILE=" + recipe, "HOME=" + t.TempDir()}, "OK",
				"--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+staged(t, "e2e/nvim_e2e.lua"))
		})
	}
}
