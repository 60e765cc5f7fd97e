// The VS Code extension in real VS Code: code-server with the vsix installed offline, driven by Debian's
// chromium through playwright-core (editors/vscode/e2e/vscode-e2e.mjs), against a scripted provider.
package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// vscodeTools finds code-server and playwright-core (installed by .ci/run into GOOSE_E2E_NODE_DIR) and
// the packaged extension (make vsix); in CI anything missing is a failure, locally a skip.
func vscodeTools(t *testing.T) (codeServer, nodeModules, vsix string) {
	t.Helper()
	requireTool(t, "chromium")
	requireTool(t, "node")
	dir := os.Getenv("GOOSE_E2E_NODE_DIR")
	if dir == "" {
		missing(t, "GOOSE_E2E_NODE_DIR (code-server and playwright-core)")
	}
	nodeModules = filepath.Join(dir, "node_modules")
	codeServer = filepath.Join(nodeModules, ".bin", "code-server")
	if _, err := os.Stat(codeServer); err != nil {
		missing(t, codeServer)
	}
	if _, err := os.Stat(filepath.Join(nodeModules, "playwright-core")); err != nil {
		missing(t, "playwright-core")
	}
	vsix, _ = filepath.Abs("../editors/vscode/goose-ls.vsix")
	if _, err := os.Stat(vsix); err != nil {
		missing(t, "the vsix (make vsix)")
	}
	return codeServer, nodeModules, vsix
}

func TestVSCodeExtensionInCodeServer(t *testing.T) {
	codeServer, nodeModules, vsix := vscodeTools(t)
	root, srv := writerWorkspace(t)
	shots := os.Getenv("GOOSE_E2E_ARTIFACTS")
	if shots == "" {
		shots, _ = filepath.Abs("artifacts")
	}
	shots = filepath.Join(shots, "vscode")
	os.RemoveAll(shots)
	script, _ := filepath.Abs("../editors/vscode/e2e/vscode-e2e.mjs")
	home := t.TempDir()
	env := append([]string{"CODE_SERVER=" + codeServer, "E2E_NODE_MODULES=" + nodeModules, "VSIX=" + vsix, "WORKSPACE=" + root, "SHOTS=" + shots,
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local")}, agentEnv(srv, home)...)
	t.Logf("screenshots in %s", shots)
	runScript(t, 4*time.Minute, "", env, "[vscode-e2e] OK", "node", script)
	checkTopicReachedModel(t, srv, "agents")
	for _, shot := range []string{"1-problems.png", "2-quickfix-menu.png", "3-after-quickfix.png", "4-run-transcript.png", "5-run-edited-notes.png", "6-completion.png",
		"7-highlight-dark.png", "8-preview-after-typing.png", "9-highlight-light.png"} {
		if st, err := os.Stat(filepath.Join(shots, shot)); err != nil || st.Size() < 10_000 {
			t.Errorf("screenshot %s missing or empty: %v", shot, err)
		}
	}
}
