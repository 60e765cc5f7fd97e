// The VS Code extension in real VS Code: code-server with the vsix installed offline, driven by Debian's
// chromium through playwright-core (editors/vscode/e2e/vscode-e2e.mjs), against a scripted provider.
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

// vscodeTools finds code-server and playwright-core (installed by .ci/run into GOOSE_E2E_NODE_DIR) and
// the packaged extension (make vsix); in CI anything missing is a failure, locally a skip.
func vscodeTools(t *testing.T) (codeServer, nodeModules, vsix string) {
	t.Helper()
	requireTool(t, "chromium")
	requireTool(t, "node")
	missing := func(what string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing; .ci/run must install it", what)
		}
		t.Skipf("%s is missing (see .ci/run)", what)
	}
	dir := os.Getenv("GOOSE_E2E_NODE_DIR")
	if dir == "" {
		missing("GOOSE_E2E_NODE_DIR (code-server and playwright-core)")
	}
	nodeModules = filepath.Join(dir, "node_modules")
	codeServer = filepath.Join(nodeModules, ".bin", "code-server")
	if _, err := os.Stat(codeServer); err != nil {
		missing(codeServer)
	}
	if _, err := os.Stat(filepath.Join(nodeModules, "playwright-core")); err != nil {
		missing("playwright-core")
	}
	vsix, _ = filepath.Abs("../editors/vscode/goose-ls.vsix")
	if _, err := os.Stat(vsix); err != nil {
		missing("the vsix (make vsix)")
	}
	return codeServer, nodeModules, vsix
}

func TestVSCodeExtensionInCodeServer(t *testing.T) {
	codeServer, nodeModules, vsix := vscodeTools(t)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "recipes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.WriteFile(filepath.Join(root, "recipes", "write.yaml"), []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }} in notes.txt\"\n"), 0o644)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	shots := os.Getenv("GOOSE_E2E_ARTIFACTS")
	if shots == "" {
		shots, _ = filepath.Abs("artifacts")
	}
	shots = filepath.Join(shots, "vscode")
	os.RemoveAll(shots)
	script, _ := filepath.Abs("../editors/vscode/e2e/vscode-e2e.mjs")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "CODE_SERVER="+codeServer, "E2E_NODE_MODULES="+nodeModules, "VSIX="+vsix, "WORKSPACE="+root, "SHOTS="+shots,
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_DATA_HOME="+filepath.Join(home, ".local"),
		"GOOSE_PROVIDER=openai", "OPENAI_HOST="+srv.URL, "OPENAI_API_KEY=sk-e2e", "GOOSE_PATH_ROOT="+filepath.Join(home, "goose"))
	out, err := cmd.CombinedOutput()
	t.Logf("screenshots in %s", shots)
	if err != nil || !strings.Contains(string(out), "[vscode-e2e] OK") {
		t.Fatalf("VS Code run failed: %v\n%s", err, out)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the scripted provider was never called")
	}
	msgs, _ := json.Marshal(reqs[0]["messages"])
	if !strings.Contains(string(msgs), "Write about agents in notes.txt") {
		t.Errorf("the model saw %s", msgs)
	}
	for _, shot := range []string{"1-problems.png", "2-quickfix-menu.png", "3-after-quickfix.png", "4-run-transcript.png", "5-run-edited-notes.png", "6-completion.png"} {
		if st, err := os.Stat(filepath.Join(shots, shot)); err != nil || st.Size() < 10_000 {
			t.Errorf("screenshot %s missing or empty: %v", shot, err)
		}
	}
}
