// The run's recorder: every message is in goose's store (read through a connection of its own) before
// the next provider request, and a delegated sub-agent is stored as goose stores one, under its parent.

package host

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/session"
)

// the todo extension keeps its list through the run's recorder
var _ interface {
	SetExtensionData(key string, value any) error
	ExtensionData(key string) (json.RawMessage, bool)
} = &runRecorder{}

// storedRows reads a session's messages as another process would, through its own connection.
func storedRows(t *testing.T, path, id string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT role, content_json FROM messages WHERE session_id = ? ORDER BY created_timestamp, id`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var role, content string
		if err := rows.Scan(&role, &content); err != nil {
			t.Fatal(err)
		}
		out = append(out, role+" "+content)
	}
	return out
}

func storePath(t *testing.T, env func(string) (string, bool)) string {
	t.Helper()
	cfg, err := config.Load(env)
	if err != nil {
		t.Fatal(err)
	}
	return session.DefaultPath(cfg.DataDir)
}

func TestEveryMessageIsStoredBeforeTheNextRequest(t *testing.T) {
	env := testEnv(t)
	path := storePath(t, env)
	fe := &recordingFrontend{consent: true}
	var mu sync.Mutex
	var seenAt [][]string // what the store held when each request was made
	h := New(Options{Env: env, Providers: func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			ids := fe.of(KindSession)
			if len(ids) != 1 {
				t.Errorf("request %d: the session was not created before it (%d session events)", n, len(ids))
				return provider.Message{Text: "stop"}
			}
			rows := storedRows(t, path, ids[0].SessionID)
			mu.Lock()
			seenAt = append(seenAt, rows)
			mu.Unlock()
			if n == 0 {
				return provider.Message{Text: "Looking.", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "tree", Arguments: json.RawMessage(`{"path":"."}`)}}}
			}
			return provider.Message{Text: "Done."}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m"}, nil
	}})
	defer h.Close()
	root := t.TempDir()
	recipe := writeFile(t, root, "r.yaml", "version: 1.0.0\ntitle: Look\ndescription: d\nprompt: look around\nextensions:\n- type: builtin\n  name: developer\n")
	r, out := runToEnd(t, h, Request{RecipePath: recipe, Root: root}, fe)
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s %v", out.Status, out.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seenAt) != 2 {
		t.Fatalf("%d requests", len(seenAt))
	}
	if len(seenAt[0]) != 1 || !strings.Contains(seenAt[0][0], `"text":"look around"`) {
		t.Errorf("at the first request the store held %q, want the user's message", seenAt[0])
	}
	if len(seenAt[1]) != 3 || !strings.Contains(seenAt[1][1], `"text":"Looking."`) || !strings.Contains(seenAt[1][2], `"toolResponse"`) {
		t.Errorf("at the second request the store held %q, want the prompt, the reply and the tool's result", seenAt[1])
	}
	if rows := storedRows(t, path, r.SessionID()); len(rows) != 4 || !strings.Contains(rows[3], `"text":"Done."`) {
		t.Errorf("stored at the end: %q", rows)
	}
}

func TestSubAgentIsStoredUnderItsParent(t *testing.T) {
	env := testEnv(t)
	path := storePath(t, env)
	h := New(Options{Env: env, Providers: func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			switch {
			case strings.HasPrefix(req.System, "You are a specialized subagent"):
				return provider.Message{Text: "sub-agent's answer"}
			case len(req.Messages) > 0 && len(req.Messages[len(req.Messages)-1].ToolResults) > 0:
				return provider.Message{Text: "The sub-agent answered."}
			}
			return provider.Message{ToolCalls: []provider.ToolCall{{ID: "d1", Name: "delegate", Arguments: json.RawMessage(`{"instructions":"count the files"}`)}}}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m"}, nil
	}})
	defer h.Close()
	root := t.TempDir()
	r, out := runToEnd(t, h, Request{Prompt: "delegate it", Root: root}, &recordingFrontend{consent: true})
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s %v", out.Status, out.Err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var id, name, mode, workDir string
	var parent sql.NullString
	err = db.QueryRow(`SELECT id, name, goose_mode, working_dir, parent_session_id FROM sessions WHERE session_type = 'sub_agent'`).Scan(&id, &name, &mode, &workDir, &parent)
	if err != nil {
		t.Fatalf("no sub-agent session: %v", err)
	}
	if name != session.SubAgentName || mode != "auto" || workDir != root || parent.String != r.SessionID() {
		t.Errorf("sub-agent session %s: name %q mode %q folder %s parent %v (run %s)", id, name, mode, workDir, parent, r.SessionID())
	}
	rows := storedRows(t, path, id)
	if len(rows) != 2 || !strings.Contains(rows[0], "count the files") || !strings.Contains(rows[1], "sub-agent's answer") {
		t.Errorf("sub-agent rows %q", rows)
	}
	// each session's own requests are in its ledger: two for the run, one for the sub-agent
	for sid, want := range map[string]int{r.SessionID(): 2, id: 1} {
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM usage_ledger WHERE session_id = ? AND cost_source IS NULL AND model = 'm'`, sid).Scan(&n); err != nil || n != want {
			t.Errorf("session %s has %d ledger rows, want %d (%v)", sid, n, want, err)
		}
	}
	list, err := h.Sessions(context.Background())
	if err != nil || len(list) != 1 || list[0].ID != r.SessionID() {
		t.Errorf("listed %v %v: a sub-agent's session is not listed", fmt.Sprint(list), err)
	}
}
