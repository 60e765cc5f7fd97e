// The official TypeScript SDK's client (@agentclientprotocol/sdk under node --test, acp_sdk.test.mjs)
// against the built `goose-ls acp` and the scripted provider.
package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestACPTypeScriptSDKClient(t *testing.T) {
	nm := acpNodeModules(t, filepath.Join("@agentclientprotocol", "sdk"))
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"notes.md","content":"alpha\nbeta\n"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.md","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Notes edited."},
	))
	t.Cleanup(srv.Close)
	home := t.TempDir()
	env := append(agentEnv(srv, home), "HOME="+home, "GOOSE_LS_BIN="+buildServer(t), "ACP_SDK_DIR="+filepath.Join(nm, "@agentclientprotocol", "sdk"))
	test, _ := filepath.Abs("acp_sdk.test.mjs")
	out := runScript(t, 2*time.Minute, t.TempDir(), env, "# pass 1", "node", "--test", "--test-reporter=tap", test)
	if !strings.Contains(out, "# fail 0") {
		t.Fatalf("node --test:\n%s", out)
	}
}
