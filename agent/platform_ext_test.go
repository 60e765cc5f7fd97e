// platformExtension: the extensions goose-ls implements by goose's names, wired to the run's workspace,
// goose's folders and the session (the todo list is stored under todo.v0 and restored on resume).

package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/agent/tools"
)

func TestPlatformExtensionsByName(t *testing.T) {
	home, pathRoot, ws := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, ".goose/skills/local/SKILL.md"), "---\nname: local\ndescription: from the workspace\n---\nLocal body.")
	write(filepath.Join(pathRoot, "config/skills/configured/SKILL.md"), "---\nname: configured\ndescription: from goose's config folder\n---\nConfigured body.")
	write(filepath.Join(home, ".agents/skills/personal/SKILL.md"), "---\nname: personal\ndescription: from the home\n---\nPersonal body.")
	write(filepath.Join(ws, "main.go"), "package main\n\nfunc main() {}\n")
	opts := &RunOptions{Workspace: tools.Disk{Dir: ws}, Lookup: func(k string) (string, bool) {
		if k == "GOOSE_PATH_ROOT" {
			return pathRoot, true
		}
		return "", false
	}}
	for _, name := range []string{"todo", "tom", "skills", "analyze"} {
		ext, ok := platformExtension(name, opts)
		if !ok || ext.Name() != name {
			t.Fatalf("%s: %v %v", name, ext, ok)
		}
		defer ext.Close()
	}
	for _, name := range []string{"apps", "extensionmanager", "developer", "summon", "chatrecall"} {
		if _, ok := platformExtension(name, opts); ok {
			t.Errorf("%s is not implemented here but was returned", name)
		}
	}
	skills, _ := platformExtension("skills", opts)
	defer skills.Close()
	ins := skills.Instructions()
	for _, want := range []string{"• local - from the workspace", "• configured - from goose's config folder", "• personal - from the home"} {
		if !strings.Contains(ins, want) {
			t.Errorf("skills instructions lack %q: %q", want, ins)
		}
	}
	analyze, _ := platformExtension("analyze", opts)
	defer analyze.Close()
	if res := analyze.Call(context.Background(), "analyze", json.RawMessage(`{"path":"main.go"}`)); res.IsError || !strings.HasPrefix(res.Text, "main.go [3L, 1F]") {
		t.Errorf("analyze in the workspace: %+v", res)
	}
}

func TestTodoIsStoredInTheSessionAndRestoredOnResume(t *testing.T) {
	store, err := session.Open(session.DefaultPath(t.TempDir()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rec := &session.Recorder{Store: store, Meta: session.Session{Name: "todo run"}}
	rec.Record(provider.Message{Role: provider.User, Text: "plan"})
	opts := &RunOptions{Workspace: tools.Disk{Dir: t.TempDir()}, Recorder: rec}
	todo, _ := platformExtension("todo", opts)
	if res := todo.Call(context.Background(), "todo_write", json.RawMessage(`{"content":"- [ ] stored"}`)); res.IsError || res.Text != "Updated (12 chars)" {
		t.Fatalf("todo_write: %+v", res)
	}
	// a resumed run starts with the stored list in its per-turn context
	resumed := &RunOptions{Workspace: tools.Disk{Dir: t.TempDir()}, Recorder: &session.Recorder{Store: store, ID: rec.SessionID()}}
	again, _ := platformExtension("todo", resumed)
	tc, ok := again.(TurnContexter)
	if !ok || tc.TurnContext() != "Current tasks and notes:\n- [ ] stored\n" {
		t.Errorf("resumed todo context: %v", again)
	}
}
