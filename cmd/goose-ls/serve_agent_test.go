// The goose-ls binary's language server runs the editor's agent in goose-ls-agent: started on the first
// agent command (not before), its edits reaching the client as workspace edits, ended with the server.

package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/testbin"
	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

// processPipe joins a process's stdout (read) and stdin (write).
type processPipe struct {
	io.Reader
	io.WriteCloser
}

// agentChildren lists the goose-ls-agent processes whose parent is pid (from Linux's /proc).
func agentChildren(t *testing.T, pid int) []int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …
		s := string(stat)
		close := strings.LastIndexByte(s, ')')
		open := strings.IndexByte(s, '(')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(pid) && s[open+1:close] == "goose-ls-agent" {
			kids = append(kids, child)
		}
	}
	return kids
}

func TestServerRunsTheAgentInGooseLSAgent(t *testing.T) {
	bins := testbin.Build(t)
	srv := wiretest.OpenAI(func(n int, _ map[string]any) wiretest.Reply {
		if n == 0 {
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"notes.md","content":"from the agent\n"}`}}}
		}
		return wiretest.Reply{Text: "done"}
	})
	defer srv.Close()
	home, root := t.TempDir(), t.TempDir()
	cmd := exec.Command(bins.GooseLS, "serve")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOSE_PROVIDER=openai", "OPENAI_HOST="+srv.URL, "OPENAI_API_KEY=sk-serve-test",
		"GOOSE_MODE=auto", "GOOSE_PATH_ROOT="+home, "HOME="+home)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	c := lsptest.Connect(t, processPipe{Reader: out, WriteCloser: in})
	edits := make(chan json.RawMessage, 4)
	c.Handle("workspace/applyEdit", func(p json.RawMessage) (any, error) {
		edits <- p
		return map[string]any{"applied": true}, nil
	})
	c.Initialize(map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}}})
	c.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []any{map[string]any{"uri": uri.File(root), "name": "w"}}, "removed": []any{}}})
	recipeURI := protocol.DocumentURI(uri.File(filepath.Join(root, "a.recipe.yaml")))
	c.Open(recipeURI, "yaml", "title: t\ndescription: d\ninstructions: i\n")
	c.Diagnostics(recipeURI, 1)
	if kids := agentChildren(t, cmd.Process.Pid); len(kids) != 0 {
		t.Fatalf("goose-ls started goose-ls-agent %v before any agent command", kids)
	}

	var reply map[string]any
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.ask", "arguments": []any{map[string]any{"prompt": "write notes"}}}, &reply); err != nil {
		t.Fatalf("goose.ask: %v\nserver stderr:\n%s", err, stderr.String())
	}
	if reply["runId"] == nil {
		t.Fatalf("goose.ask answered %v, want a runId", reply)
	}
	if kids := agentChildren(t, cmd.Process.Pid); len(kids) != 1 {
		t.Fatalf("goose-ls runs %d goose-ls-agent processes during a run, want 1", len(kids))
	}
	select {
	case e := <-edits:
		if !strings.Contains(string(e), "notes.md") || !strings.Contains(string(e), "from the agent") {
			t.Errorf("the agent's write reached the client as %s", e)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("no workspace/applyEdit from the agent\nserver stderr:\n%s", stderr.String())
	}
	done := c.WaitFor("goose/runEvent", func(p json.RawMessage) bool {
		var e struct{ Kind, Status, Agent string }
		return json.Unmarshal(p, &e) == nil && e.Kind == "done" && e.Agent == ""
	})
	if !strings.Contains(string(done), `"completed"`) {
		t.Errorf("the run ended %s, want completed", done)
	}

	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.Notify("exit", nil)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("goose-ls exited with %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("goose-ls did not exit after exit")
	}
	if strings.Contains(stderr.String(), "sk-serve-test") {
		t.Errorf("the API key reached stderr:\n%s", stderr.String())
	}
}
