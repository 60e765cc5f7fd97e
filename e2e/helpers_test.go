// Shared pieces of the end-to-end tests: the server binary, required tools, running an editor script,
// and the writer workspace with its scripted model.
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

// missing reports an absent prerequisite: in CI a failure (.ci/run must install it), locally a skip.
func missing(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is missing; .ci/run must install it", what)
	}
	t.Skipf("%s is missing (see .ci/run)", what)
}

// requireTool finds an editor or tool on PATH.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missing(t, name)
	}
	return p
}

// runScript runs an editor (or driver) in dir with env added, and fails unless it ends well and prints
// ok; it returns the output.
func runScript(t *testing.T, timeout time.Duration, dir string, env []string, ok string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), ok) {
		t.Fatalf("%s failed: %v\n%s", filepath.Base(name), err, out)
	}
	return string(out)
}

// agentEnv points goose-ls's agent at the scripted server, in auto mode, with its files under home.
func agentEnv(srv *wiretest.Server, home string) []string {
	return []string{"GOOSE_PROVIDER=openai", "OPENAI_HOST=" + srv.URL, "OPENAI_API_KEY=sk-e2e", "GOOSE_MODE=auto",
		"GOOSE_PATH_ROOT=" + filepath.Join(home, "goose")}
}

// writerWorkspace is a folder with notes.txt and recipes/write.yaml (which uses {{ topic }} without
// declaring it), and a model that edits beta to gamma in notes.txt, then finishes.
func writerWorkspace(t *testing.T) (string, *wiretest.Server) {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "recipes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.WriteFile(filepath.Join(root, "recipes", "write.yaml"), []byte("title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }} in notes.txt\"\n"), 0o644)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	t.Cleanup(srv.Close)
	return root, srv
}

// checkTopicReachedModel checks the value the user gave for topic reached the model in the prompt.
func checkTopicReachedModel(t *testing.T, srv *wiretest.Server, topic string) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the scripted provider was never called")
	}
	msgs, _ := json.Marshal(reqs[0]["messages"])
	if !strings.Contains(string(msgs), "Write about "+topic+" in notes.txt") {
		t.Errorf("the model saw %s", msgs)
	}
}
