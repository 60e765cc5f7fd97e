//go:build unix

// The built `goose-ls run`, killed (SIGTERM, and SIGKILL) as its second provider request arrives: goose,
// reading the store as it does, finds the user's message and the assistant's first reply, each
// committed before the next request was sent.
package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/testbin"
)

func TestKilledRunKeepsWhatWasSaid(t *testing.T) {
	bins := testbin.Build(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			arrived := make(chan struct{}, 1)
			srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Text: "Creating notes.txt.", Calls: []wiretest.Call{{Name: "write", Args: `{"path":"notes.txt","content":"hello\n"}`}},
						Usage: [2]int{1200, 40}}
				}
				arrived <- struct{}{}
				return wiretest.Reply{Text: "never finished", Hang: true} // until the client is gone
			})
			defer srv.Close()
			root := t.TempDir()
			work := filepath.Join(root, "work")
			os.MkdirAll(work, 0o755)
			recipe := filepath.Join(work, "kill.yaml")
			os.WriteFile(recipe, []byte("version: 1.0.0\ntitle: Killed\ndescription: A run killed half way.\n"+
				"prompt: Create notes.txt with one line, then check it.\nextensions:\n  - type: builtin\n    name: developer\n"), 0o644)
			cmd := exec.Command(bins.GooseLS, "run", recipe)
			cmd.Dir = work
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GOOSE_PATH_ROOT=" + filepath.Join(root, "goose"),
				"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_API_KEY=sk-test-key-0001", "OPENAI_HOST=" + srv.URL}
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-arrived:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the second request never came\n%s", out.String())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()

			// goose opens the store as it finds it (its WAL not checkpointed) and lists the run
			goose := openAsGoose(t, DefaultPath(filepath.Join(root, "goose", "data")))
			if created, ran := gooseStartAt(t, goose, CreateSchemaVersion, ""); created || len(ran) > 0 {
				t.Fatalf("goose's start: created %v, migrations %v\n%s", created, ran, out.String())
			}
			list := gooseListingAt(t, goose, CreateSchemaVersion)
			if len(list) != 1 {
				t.Fatalf("goose lists %v\n%s", list, out.String())
			}
			rows := gooseConversation(t, goose, list[0].id)
			if len(rows) < 2 || !strings.HasPrefix(rows[0], `user [{"type":"text","text":"Create notes.txt with one line, then check it."`) ||
				!strings.HasPrefix(rows[1], `assistant [{"type":"text","text":"Creating notes.txt."},{"type":"toolRequest"`) {
				t.Fatalf("goose reads %q\n%s", rows, out.String())
			}
			if len(rows) != 3 || !strings.Contains(rows[2], `"toolResponse"`) {
				t.Errorf("the tool's result, recorded before the second request, is missing: %q", rows)
			}
			if got := ledgerRows(t, goose, list[0].id); len(got) != 1 || !strings.HasPrefix(got[0], "model=gpt-4o|input_tokens=1200|output_tokens=40|") {
				t.Errorf("the first request's usage: %q", got)
			}
		})
	}
}
