// Shared pieces of the end-to-end tests: the server binary, required tools, running an editor script,
// and the writer workspace with its scripted model.
package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// shared holds what every test of the process uses: goose-ls built once, and a copy of the editor
// scripts, the Neovim plugin and the README where an editor inside a root filesystem can read them.
var shared struct {
	once  sync.Once
	dir   string
	bin   string
	err   error
	build []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// prepare builds goose-ls and goose-ls-agent (statically linked: it runs in any root filesystem) and stages the files.
func prepare(t *testing.T) {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "goose-e2e-"); shared.err != nil {
			return
		}
		shared.bin = filepath.Join(shared.dir, "bin", "goose-ls")
		// goose-ls and, beside it as installed, goose-ls-agent (the agent's commands and the server's runs)
		for _, name := range []string{"goose-ls", "goose-ls-agent"} {
			cmd := exec.Command("go", "build", "-o", filepath.Join(shared.dir, "bin", name), "../cmd/"+name)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if shared.build, shared.err = cmd.CombinedOutput(); shared.err != nil {
				return
			}
		}
		shared.err = stageFiles(filepath.Join(shared.dir, "stage"))
	})
	if shared.err != nil {
		t.Fatalf("build or stage: %v\n%s", shared.err, shared.build)
	}
}

// stageFiles copies e2e's scripts, editors/nvim and README.md into dir (the module's layout kept).
func stageFiles(dir string) error {
	scripts, err := filepath.Glob("*.lua")
	if err != nil {
		return err
	}
	els, _ := filepath.Glob("*.el")
	for _, f := range append(scripts, els...) {
		if err := copyFile(f, filepath.Join(dir, "e2e", f)); err != nil {
			return err
		}
	}
	if err := copyFile("../README.md", filepath.Join(dir, "README.md")); err != nil {
		return err
	}
	return filepath.WalkDir("../editors/nvim", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return copyFile(path, filepath.Join(dir, strings.TrimPrefix(path, "../")))
	})
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// buildServer returns goose-ls built once for the test process (CGO_ENABLED=0).
func buildServer(t *testing.T) string {
	t.Helper()
	prepare(t)
	return shared.bin
}

// staged is the path of a staged file (relative to the module root, e.g. "e2e/nvim_plugin.lua").
func staged(t *testing.T, rel string) string {
	t.Helper()
	prepare(t)
	return filepath.Join(shared.dir, "stage", rel)
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
