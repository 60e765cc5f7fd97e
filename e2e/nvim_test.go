// End-to-end: Debian's headless Neovim (stock vim.lsp) drives the built goose-ls binary.
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

// buildServer compiles goose-ls into a temporary folder.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "goose-ls")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/goose-ls")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// requireTool finds an editor; in CI a missing editor is a failure, locally a skip.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run must install it", name)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "GOOSE_LS_BIN="+bin, "RECIPE_FILE="+recipe)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("neovim run failed: %v\n%s", err, out)
	}
}
