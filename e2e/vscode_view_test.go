// The goose view in real VS Code (code-server + chromium, editors/vscode/e2e/view-e2e.mjs): a recipe run
// whose edit is approved in the view, a tool call expanded, Review's diff editor, Undo turn, sessions, a
// run from the view's parameters form, Cancel and Resume.
package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestVSCodeGooseView(t *testing.T) {
	codeServer, nodeModules, vsix := vscodeTools(t)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "recipes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.WriteFile(filepath.Join(root, "recipes", "write.yaml"), []byte("title: Writer\ndescription: Writes about a topic\n"+
		"parameters:\n  - key: topic\n    input_type: string\n    requirement: optional\n    default: agents\n    description: the topic\n"+
		"prompt: \"Write about {{ topic }} in notes.txt\"\n"), 0o644)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Text: "I will **edit** `notes.txt`.", Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Done."},
		wiretest.Reply{Text: "Noted."},               // the second run, from the view's parameters form
		wiretest.Reply{Text: "Thinking", Hang: true}, // the third, cancelled in the view
		wiretest.Reply{Text: "Resumed."},             // a session resumed from the view
	))
	t.Cleanup(srv.Close)
	shots := os.Getenv("GOOSE_E2E_ARTIFACTS")
	if shots == "" {
		shots, _ = filepath.Abs("artifacts")
	}
	shots = filepath.Join(shots, "vscode-view")
	os.RemoveAll(shots)
	script, _ := filepath.Abs("../editors/vscode/e2e/view-e2e.mjs")
	home := t.TempDir()
	env := []string{"CODE_SERVER=" + codeServer, "E2E_NODE_MODULES=" + nodeModules, "VSIX=" + vsix, "WORKSPACE=" + root, "SHOTS=" + shots,
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local"),
		"GOOSE_PROVIDER=openai", "OPENAI_HOST=" + srv.URL, "OPENAI_API_KEY=sk-e2e", "GOOSE_MODE=approve", "GOOSE_PATH_ROOT=" + filepath.Join(home, "goose")}
	t.Logf("screenshots in %s", shots)
	out := runScript(t, 4*time.Minute, "", env, "[view-e2e] OK", "node", script)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "CSP:") {
			t.Log(line)
		}
	}
	checkTopicReachedModel(t, srv, "agents") // the parameter's default, no question asked
	if reqs := srv.Requests(); len(reqs) != 5 {
		t.Errorf("the model got %d requests, want 5 (the approved edit's run: 2, the form's, the cancelled, the resumed)", len(reqs))
	} else {
		if msgs, _ := json.Marshal(reqs[2]["messages"]); !strings.Contains(string(msgs), "Write about geese in notes.txt") {
			t.Errorf("the form's value did not reach the model: %s", msgs)
		}
		if msgs, _ := json.Marshal(reqs[4]["messages"]); !strings.Contains(string(msgs), "Continue where you left off.") {
			t.Errorf("the resumed session did not send goose's prompt: %s", msgs)
		}
	}
	for _, shot := range []string{"10-view-approval.png", "11-view-tool-expanded.png", "12-view-review-diff.png", "13-view-undone.png", "14-view-sessions.png", "15-view-params-form.png",
		"16-view-cancelled.png", "17-view-resumed.png"} {
		if st, err := os.Stat(filepath.Join(shots, shot)); err != nil || st.Size() < 10_000 {
			t.Errorf("screenshot %s missing or empty: %v", shot, err)
		}
	}
}
