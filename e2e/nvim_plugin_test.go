// The Neovim plugin (editors/nvim) end to end in Debian's headless Neovim.
package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestNeovimPluginFromACleanConfig(t *testing.T) {
	nvim := requireTool(t, "nvim")
	bin := buildServer(t)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "recipes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.WriteFile(filepath.Join(root, "recipes", "write.yaml"), []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }} in notes.txt\"\n"), 0o644)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	plugin, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("nvim_plugin.lua")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	home := t.TempDir() // a clean config: no user init, no plugins but ours
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home,
		"GOOSE_LS_BIN="+bin, "PLUGIN_DIR="+plugin, "WORK_DIR="+root,
		"GOOSE_PROVIDER=openai", "OPENAI_HOST="+srv.URL, "OPENAI_API_KEY=sk-e2e", "GOOSE_MODE=auto",
		"GOOSE_PATH_ROOT="+filepath.Join(home, "goose"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "OK") {
		t.Fatalf("neovim run failed: %v\n%s", err, out)
	}
	// the parameter the user typed reached the model through the rendered prompt
	msgs, _ := json.Marshal(srv.Requests()[0]["messages"])
	if !strings.Contains(string(msgs), "Write about agents in notes.txt") {
		t.Errorf("the model saw %s", msgs)
	}
}
