// End-to-end agent run from headless Neovim 0.7.2, 0.10 and 0.12 against the built binary and a scripted
// OpenAI-format server: edits arrive in an open buffer while the user types in it.
package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestNeovimRunRecipeEditsABufferWhileTheUserTypes(t *testing.T) {
	for _, nv := range neovims {
		t.Run(nv.name, func(t *testing.T) { runRecipeWhileTheUserTypes(t, nv) })
	}
}

func runRecipeWhileTheUserTypes(t *testing.T, nv editor) {
	nv.require(t)
	bin := buildServer(t)
	root := t.TempDir()
	marker := filepath.Join(t.TempDir(), "typed")
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	recipe := filepath.Join(root, "tidy.yaml")
	os.WriteFile(recipe, []byte("version: 1.0.0\ntitle: Tidy notes\ndescription: Edits notes.txt and writes created.txt\nprompt: Tidy notes.txt and write created.txt\n"), 0o644)

	srv := wiretest.OpenAI(func(n int, _ map[string]any) wiretest.Reply {
		switch n {
		case 0:
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}}
		case 1: // go on once the user has typed
			deadline := time.Now().Add(15 * time.Second)
			for time.Now().Before(deadline) {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			return wiretest.Reply{Calls: []wiretest.Call{
				{Name: "write", Args: `{"path":"created.txt","content":"created by goose\n"}`},
				{Name: "edit", Args: `{"path":"notes.txt","before":"alpha","after":"ALPHA"}`},
			}}
		}
		return wiretest.Reply{Text: "Done."}
	})
	defer srv.Close()

	home := t.TempDir()
	env := append([]string{"HOME=" + home, "GOOSE_LS_BIN=" + bin, "WORK_DIR=" + root, "RECIPE_FILE=" + recipe, "TYPED_MARKER=" + marker}, agentEnv(srv, home)...)
	nv.run(t, 90*time.Second, bin, root, env, "OK", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+staged(t, "e2e/nvim_agent.lua"))
}
