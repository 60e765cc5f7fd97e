// goose names the session to everything a run talks to: each provider request carries the stored
// session's id in agent-session-id, each extension call carries it in MCP _meta with the working folder
// and the model's tool call id, and a stdio extension starts with it in AGENT_SESSION_ID.
package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/session"
)

func TestRunNamesItsSessionToProviderAndExtensions(t *testing.T) {
	_, server := binaries(t)
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{c("calc__meta", `{}`), c("calc__env", `{"name":"AGENT_SESSION_ID"}`)}},
		wiretest.Reply{Text: "Seen."},
	))
	defer srv.Close()
	r := runGoose(t, srv, nil, example("mcp-tool.yaml"), "--params", "server="+server)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	headers := srv.Headers()
	if len(headers) != 2 {
		t.Fatalf("%d provider requests", len(headers))
	}
	id := headers[0].Get("agent-session-id")
	if id == "" || headers[1].Get("agent-session-id") != id {
		t.Fatalf("agent-session-id %q then %q", id, headers[1].Get("agent-session-id"))
	}
	store, err := session.Open(session.DefaultPath(filepath.Join(r.root, "goose", "data")), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if sess, _, err := store.Get(context.Background(), id); err != nil || sess.Messages != 4 {
		t.Errorf("the header names no stored session of this run: %+v %v", sess, err)
	}
	results := toolMessages(srv.Requests()[1])
	var meta map[string]any
	if len(results) != 2 || json.Unmarshal([]byte(results[0]), &meta) != nil {
		t.Fatalf("tool results %q", results)
	}
	if results[1] != id {
		t.Errorf("AGENT_SESSION_ID %q, want %s", results[1], id)
	}
	work, _ := filepath.EvalSymlinks(r.work)
	if meta["agent-session-id"] != id || meta["agent-working-dir"] != work || meta["agent-tool-call-request-id"] != "call_0_0" {
		t.Errorf("extension _meta %v (session %s, folder %s)", meta, id, work)
	}
}

// goose's thinking effort setting reaches a reasoning model's request.
func TestRunSendsTheConfiguredThinkingEffort(t *testing.T) {
	srv := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "Thought about it."}))
	defer srv.Close()
	r := runGoose(t, srv, []string{"GOOSE_MODEL=gpt-5-mini", "GOOSE_THINKING_EFFORT=low"}, "--text", "think")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reasoning, _ := srv.Requests()[0]["reasoning"].(map[string]any)
	if reasoning["effort"] != "low" {
		t.Errorf("reasoning %v", srv.Requests()[0]["reasoning"])
	}
}
