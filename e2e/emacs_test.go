// Emacs + Eglot (Debian's emacs-nox and elpa-eglot) in batch mode: goose-ls's diagnostics arrive with
// their ranges.
package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestEmacsEglotDiagnostics(t *testing.T) {
	emacs := requireTool(t, "emacs")
	bin := buildServer(t)
	dir := filepath.Join(t.TempDir(), "recipes")
	os.MkdirAll(dir, 0o755)
	recipe := filepath.Join(dir, "write.yaml")
	os.WriteFile(recipe, []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }}\"\n"), 0o644)
	script, _ := filepath.Abs("emacs_eglot.el")
	runScript(t, 60*time.Second, dir, []string{"GOOSE_LS_BIN=" + bin, "RECIPE_FILE=" + recipe, "HOME=" + t.TempDir()}, "OK",
		emacs, "--batch", "-Q", "-l", script)
}
