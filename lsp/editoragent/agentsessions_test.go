// Editor runs stored as sessions: goose.listSessions lists them; goose.resume continues one with its history.
package editoragent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/session"
)

func TestSessionsListAndResume(t *testing.T) {
	root := t.TempDir()
	var mu sync.Mutex
	var second string // the conversation the model saw on the resumed run
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		if n == 1 {
			msgs, _ := json.Marshal(body["messages"])
			mu.Lock()
			second = string(msgs)
			mu.Unlock()
			return wiretest.Reply{Text: "Second answer."}
		}
		return wiretest.Reply{Text: "First answer."}
	})
	defer srv.Close()
	c := newEditor(t, root, srv, "GOOSE_MODE", "smart_approve")
	id := c.run("goose.ask", map[string]any{"prompt": "what is the first thing?"})
	c.waitDone(id)
	created := c.WaitFor("goose/runEvent", func(p json.RawMessage) bool { return strings.Contains(string(p), `"kind":"session"`) })
	var ev struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(created, &ev)

	type listed struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		WorkingDir string `json:"workingDir"`
		Messages   int    `json:"messages"`
		Mode       string `json:"mode"`
	}
	var list []listed
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.listSessions"}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != ev.SessionID || list[0].Messages != 2 || list[0].WorkingDir != root || list[0].Mode != "smart_approve" || !strings.HasPrefix(list[0].Name, "what is the first") {
		t.Fatalf("sessions %+v (created %q)", list, ev.SessionID)
	}

	var res struct {
		RunID     string `json:"runId"`
		SessionID string `json:"sessionId"`
	}
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.resume", "arguments": []any{map[string]any{"sessionId": ev.SessionID, "prompt": "and the second?"}}}, &res); err != nil {
		t.Fatal(err)
	}
	if done := c.waitDone(res.RunID); done["status"] != "completed" || res.SessionID != ev.SessionID {
		t.Fatalf("resume %+v done %v", res, done)
	}
	mu.Lock()
	seen := second
	mu.Unlock()
	if !strings.Contains(seen, "what is the first thing?") || !strings.Contains(seen, "First answer.") || !strings.Contains(seen, "and the second?") {
		t.Errorf("the resumed run did not carry the history: %s", seen)
	}
	list = nil
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.listSessions"}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Messages != 4 {
		t.Errorf("after resume %+v", list)
	}
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.resume", "arguments": []any{map[string]any{"sessionId": "19990101_9"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no such session") {
		t.Errorf("unknown session: %v", err)
	}
}

func TestNoSessionsSettingStoresNothing(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	c := newEditorWith(t, root, srv, editorCaps, map[string]any{"noSessions": true})
	c.waitDone(c.run("goose.ask", map[string]any{"prompt": "hi"}))
	var list []map[string]any
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.listSessions"}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("noSessions stored %v", list)
	}
}

// The store is opened once per server; every run's secrets must still be redacted in it, also when a
// listing opened the store before any run registered a secret.
func TestSessionsRedactSecretsWhoeverOpenedTheStore(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "your key is sk-lsp-test, keep it safe"}))
	defer srv.Close()
	c := newEditor(t, root, srv)
	var list []map[string]any
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.listSessions"}, &list); err != nil {
		t.Fatal(err)
	}
	c.waitDone(c.run("goose.ask", map[string]any{"prompt": "what is my key?"}))
	files, _ := filepath.Glob(filepath.Join(root, ".goose-home", "*", "sessions", "sessions.db*"))
	if len(files) == 0 {
		t.Fatal("no sessions database")
	}
	stored := false
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), "sk-lsp-test") {
			t.Errorf("%s holds the API key", f)
		}
		stored = stored || strings.Contains(string(data), "keep it safe")
	}
	if !stored {
		t.Error("the reply was not stored (the check above proves nothing)")
	}
}

// A session goose made from a recipe stores the rendered recipe (recipe_json) and no file: resuming it in the
// editor runs that recipe again (its instructions reach the model), not the bare history.
func TestResumeRunsTheRecipeStoredWithTheSession(t *testing.T) {
	root := t.TempDir()
	var mu sync.Mutex
	var system string
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		msgs, _ := body["messages"].([]any)
		if len(msgs) > 0 {
			first, _ := msgs[0].(map[string]any)
			mu.Lock()
			system = fmt.Sprint(first["content"])
			mu.Unlock()
		}
		return wiretest.Reply{Text: "resumed"}
	})
	defer srv.Close()
	c := newEditor(t, root, srv)
	store, err := session.Open(session.DefaultPath(filepath.Join(root, ".goose-home", "data")), nil)
	if err != nil {
		t.Fatal(err)
	}
	recipeJSON := `{"title":"Stored","description":"d","instructions":"Answer only in haiku, stored-recipe-marker.","prompt":"go"}`
	id, err := store.Create(context.Background(), session.Session{Name: "from goose", WorkingDir: root, Recipe: json.RawMessage(recipeJSON)})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []provider.Message{
		{Role: provider.User, Text: "go"},
		{Role: provider.Assistant, Text: "first haiku"},
	} {
		if err := store.Append(context.Background(), id, m); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	var res struct {
		RunID string `json:"runId"`
	}
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.resume", "arguments": []any{map[string]any{"sessionId": id, "prompt": "another"}}}, &res); err != nil {
		t.Fatal(err)
	}
	if done := c.waitDone(res.RunID); done["status"] != "completed" {
		t.Fatalf("resume: %v", done)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(system, "stored-recipe-marker") {
		t.Errorf("the stored recipe's instructions did not reach the model; system prompt: %.300s", system)
	}
}
