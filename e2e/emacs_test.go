// Emacs + Eglot (Debian's emacs-nox and elpa-eglot) in batch mode: goose-ls's diagnostics arrive with
// their ranges.
package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, emacs, "--batch", "-Q", "-l", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOSE_LS_BIN="+bin, "RECIPE_FILE="+recipe, "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("emacs run failed: %v\n%s", err, out)
	}
}
