//go:build unix

// Sessions over ACP are goose sessions: stored, listed, loaded (replayed) by another connection, one the
// CLI made loads too, a closed session takes no prompt; recipes run as slash commands; MCP servers map.

package acp

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/session"
)

func TestSessionsAreStoredListedAndLoaded(t *testing.T) {
	m := newModel(call("c1", "write", `{"path":"n.txt","content":"one\n"}`), text("Wrote it."), text("Second answer."))
	h := newHarness(t, m, harnessOptions{caps: fullCaps})
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("first question"))
	h.prompt(sess.SessionId, sdk.TextBlock("second question"))
	// the second prompt continued the conversation
	if got := m.lastUserText(t); got != "second question" || len(m.reqs[len(m.reqs)-1].Messages) < 4 {
		t.Fatalf("second request: %q with %d messages", got, len(m.reqs[len(m.reqs)-1].Messages))
	}
	list, err := h.conn.ListSessions(context.Background(), sdk.ListSessionsRequest{Cwd: sdk.Ptr(h.root)})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != sess.SessionId || list.Sessions[0].Cwd != h.root {
		t.Fatalf("session/list: %+v %v", list, err)
	}

	// the store holds it as goose does: `goose-ls run --resume ID` reads the same rows
	cfg, _ := config.Load(func(k string) (string, bool) { v, ok := h.env[k]; return v, ok })
	store, err := session.Open(session.DefaultPath(cfg.DataDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	stored, msgs, err := store.Get(context.Background(), string(sess.SessionId))
	store.Close()
	if err != nil || stored.WorkingDir != h.root || len(msgs) != 6 {
		t.Fatalf("stored session: %+v, %d messages, %v", stored, len(msgs), err)
	}

	// a second client loads it: the conversation is replayed, then it goes on
	h2 := newHarness(t, m, harnessOptions{home: h.home, root: h.root})
	if _, err := h2.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: h.root, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	got := h2.client.kinds(sess.SessionId)
	want := []string{"user_message_chunk", "tool_call:in_progress", "tool_call_update:completed", "agent_message_chunk",
		"user_message_chunk", "agent_message_chunk"}
	if diff := cmp.Diff(want, got[:len(want)]); diff != "" {
		t.Fatalf("replay (-want +got):\n%s", diff)
	}
	replayed := h2.client.toolUpdates("c1")[0].ToolCall
	if replayed.Title != "developer: write · n.txt" || replayed.Locations[0].Path != filepath.Join(h.root, "n.txt") {
		t.Fatalf("replayed tool call %+v", replayed)
	}
	if h2.client.agentText(sess.SessionId) != "Wrote it.Second answer." {
		t.Fatalf("replayed text %q", h2.client.agentText(sess.SessionId))
	}
	h2.prompt(sess.SessionId, sdk.TextBlock("third"))
	if n := len(m.reqs[len(m.reqs)-1].Messages); n != 7 {
		t.Fatalf("the loaded session's next request had %d messages, want 7", n)
	}

	if _, err := h2.conn.CloseSession(context.Background(), sdk.CloseSessionRequest{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	if _, err := h2.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("x")}}); err == nil {
		t.Fatal("a closed session took a prompt")
	}
}

func TestASessionTheCLIStoredLoads(t *testing.T) {
	h := newHarness(t, newModel(text("ok")), harnessOptions{})
	cfg, _ := config.Load(func(k string) (string, bool) { v, ok := h.env[k]; return v, ok })
	store, err := session.Open(session.DefaultPath(cfg.DataDir), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &session.Recorder{Store: store, Meta: session.Session{Name: "cli run", WorkingDir: h.root}}
	rec.Record(provider.Message{Role: provider.User, Text: "from the CLI"})
	rec.Record(provider.Message{Role: provider.Assistant, Thinking: "CLI reasoning", Text: "CLI answer"})
	store.Close()
	if rec.Err() != nil {
		t.Fatal(rec.Err())
	}
	if _, err := h.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: sdk.SessionId(rec.SessionID()), Cwd: h.root, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	if thoughts := h.client.thoughts(sdk.SessionId(rec.SessionID())); !slices.Contains(thoughts, "CLI reasoning") {
		t.Errorf("the stored reasoning was not replayed as a thought: %q", thoughts)
	}
	if got := h.client.agentText(sdk.SessionId(rec.SessionID())); got != "CLI answer" {
		t.Fatalf("replayed %q", got)
	}
	if _, err := h.conn.LoadSession(context.Background(), sdk.LoadSessionRequest{SessionId: "20990101_1", Cwd: h.root, McpServers: []sdk.McpServer{}}); err == nil {
		t.Fatal("an unknown session loaded")
	}
}

func TestRecipesAreSlashCommands(t *testing.T) {
	m := newModel(text("notes written"))
	h := newHarness(t, m, harnessOptions{})
	os.WriteFile(filepath.Join(h.root, "release-notes.yaml"), []byte(`title: Release notes
description: Notes for a version
parameters:
  - key: version
    input_type: string
    requirement: required
    description: the version
prompt: Write the release notes for {{ version }}
`), 0o644)
	sess := h.newSession()
	h.client.awaitCommands()
	var cmds []sdk.AvailableCommand
	for _, n := range h.client.updates {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			cmds = u.AvailableCommands
		}
	}
	if len(cmds) != 2 || cmds[0].Name != "clear" || cmds[1].Name != "release-notes" || cmds[1].Description != "Release notes: Notes for a version" ||
		cmds[1].Input == nil || cmds[1].Input.Unstructured.Hint != "version=…" {
		t.Fatalf("commands %+v", cmds)
	}
	if resp := h.prompt(sess.SessionId, sdk.TextBlock("/release-notes version=v2.1")); resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", resp.StopReason)
	}
	if got := m.lastUserText(t); !strings.HasSuffix(got, "\n\nWrite the release notes for v2.1") {
		t.Fatalf("the model got %q", got)
	}
	calls := len(m.reqs)
	h.prompt(sess.SessionId, sdk.TextBlock("/release-notes"))
	if len(m.reqs) != calls {
		t.Fatal("the recipe ran without its required value")
	}
	if got := h.client.agentText(sess.SessionId); !strings.HasSuffix(got, "Please provide the following parameters in the command line: --params version=your_value") {
		t.Fatalf("reply %q", got)
	}
}

func TestMCPServersBecomeExtensions(t *testing.T) {
	got, err := extensionsFor([]sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "files", Command: "/bin/srv", Args: []string{"-v"}, Env: []sdk.EnvVariable{{Name: "TOKEN", Value: "t"}}}},
		{Http: &sdk.McpServerHttpInline{Type: "http", Name: "web", Url: "http://127.0.0.1:9/mcp", Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer x"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []agent.ExtensionDoc{
		{Type: "stdio", Name: "files", Cmd: "/bin/srv", Args: []string{"-v"}, Envs: map[string]string{"TOKEN": "t"}},
		{Type: "streamable_http", Name: "web", URI: "http://127.0.0.1:9/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	if _, err := extensionsFor([]sdk.McpServer{{Sse: &sdk.McpServerSseInline{Name: "old"}}}); err == nil {
		t.Fatal("sse was accepted though not advertised")
	}
}

func TestParseSlash(t *testing.T) {
	for _, c := range []struct {
		in     string
		name   string
		values map[string]string
		ok     bool
		err    bool
	}{
		{"/notes version=v2 title='a b'", "notes", map[string]string{"version": "v2", "title": "a b"}, true, false},
		{"  /notes", "notes", map[string]string{}, true, false},
		{"/notes stray", "notes", nil, true, true},
		{"/notes a='open", "", nil, false, true},
		{"not a command", "", nil, false, false},
	} {
		name, values, ok, err := parseSlash(c.in)
		if name != c.name || ok != c.ok || (err != nil) != c.err || !cmp.Equal(values, c.values) {
			t.Errorf("%q: %q %v %v %v", c.in, name, values, ok, err)
		}
	}
}

// elicitingClient answers elicitation/create forms with topic=answer (or declines when answer is "").
type elicitingClient struct {
	*testClient
	answer string
	asked  []sdk.UnstableCreateElicitationRequest
}

func (c *elicitingClient) UnstableCreateElicitation(_ context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	c.asked = append(c.asked, p)
	if c.answer == "" {
		return sdk.NewUnstableCreateElicitationResponseDecline(), nil
	}
	resp := sdk.NewUnstableCreateElicitationResponseAccept()
	resp.Accept.Content = map[string]any{"topic": c.answer}
	return resp, nil
}

func (c *elicitingClient) UnstableCompleteElicitation(context.Context, sdk.UnstableCompleteElicitationNotification) error {
	return nil
}

func TestUserPromptValuesAreElicited(t *testing.T) {
	m := newModel(text("written"))
	h := newHarness(t, m, harnessOptions{caps: sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}}})
	os.WriteFile(filepath.Join(h.root, "essay.yaml"), []byte("title: Essay\ndescription: d\nparameters:\n  - key: topic\n    input_type: string\n    requirement: user_prompt\n    description: what about\nprompt: Write about {{ topic }}\n"), 0o644)
	// a second connection whose client answers elicitations
	ec := &elicitingClient{testClient: h.client, answer: "otters"}
	h.conn = reconnect(t, h, ec, sdk.ClientCapabilities{Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}}})
	sess := h.newSession()
	h.client.awaitCommands()
	h.prompt(sess.SessionId, sdk.TextBlock("/essay"))
	if len(ec.asked) != 1 || ec.asked[0].Form == nil || ec.asked[0].Form.RequestedSchema.Required[0] != "topic" {
		t.Fatalf("elicitations %+v", ec.asked)
	}
	if got := m.lastUserText(t); !strings.HasSuffix(got, "Write about otters") {
		t.Fatalf("the model got %q", got)
	}
	ec.answer = ""
	h.prompt(sess.SessionId, sdk.TextBlock("/essay"))
	if got := h.client.agentText(sess.SessionId); !strings.HasSuffix(got, "the recipe was not run: no value for topic") {
		t.Fatalf("reply %q", got)
	}
}

func TestStdioMCPServerFromTheClientServesTools(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "testserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../agent/mcp/testserver").CombinedOutput(); err != nil {
		t.Fatalf("building the MCP test server: %v\n%s", err, out)
	}
	m := newModel(call("e1", "files__echo", `{"text":"hello"}`), text("echoed"))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession(sdk.McpServer{Stdio: &sdk.McpServerStdio{Name: "files", Command: bin, Args: []string{}, Env: []sdk.EnvVariable{}}})
	h.prompt(sess.SessionId, sdk.TextBlock("echo"))
	ups := h.client.toolUpdates("e1")
	if ups[0].ToolCall.Title != "files: echo" {
		t.Fatalf("tool_call %+v", ups[0].ToolCall)
	}
	end := ups[len(ups)-1].ToolCallUpdate
	if *end.Status != sdk.ToolCallStatusCompleted || !strings.Contains(end.Content[0].Content.Content.Text.Text, "echo: hello") {
		t.Fatalf("result %+v", end)
	}
}

// A recipe that would execute commands (here a retry check) runs as a slash command only after the client
// allows them in a permission round; a refusal ends the turn without calling the model.
func TestRecipeCommandsNeedConsent(t *testing.T) {
	m := newModel(text("checked"))
	h := newHarness(t, m, harnessOptions{})
	os.WriteFile(filepath.Join(h.root, "checked.yaml"), []byte(`title: Checked
description: Runs a check
prompt: Do the work
retry:
  max_retries: 1
  checks:
    - type: shell
      command: touch check-ran
`), 0o644)
	h.client.answers = []string{"reject_once", "allow_once"}
	sess := h.newSession()
	h.client.awaitCommands()
	h.prompt(sess.SessionId, sdk.TextBlock("/checked"))
	if len(m.reqs) != 0 {
		t.Fatal("the recipe ran although its commands were refused")
	}
	if len(h.client.asked) != 1 || !strings.Contains(*h.client.asked[0].ToolCall.Title, "touch check-ran") {
		t.Fatalf("consent asked: %+v", h.client.asked)
	}
	if got := h.client.agentText(sess.SessionId); !strings.Contains(got, "the recipe was not run") {
		t.Fatalf("reply %q", got)
	}
	if resp := h.prompt(sess.SessionId, sdk.TextBlock("/checked")); resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", resp.StopReason)
	}
	if len(m.reqs) == 0 {
		t.Fatal("the recipe did not run after its commands were allowed")
	}
	if _, err := os.Stat(filepath.Join(h.root, "check-ran")); err != nil {
		t.Fatalf("the allowed check did not run: %v", err)
	}
}

// goose's /clear: the stored conversation is replaced by the command and its answer, both for the user
// only, the token counts are zeroed, and the next prompt starts from nothing.
func TestClearEmptiesTheStoredConversation(t *testing.T) {
	m := newModel(text("First answer."), text("After the clear."))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("first question"))
	if resp := h.prompt(sess.SessionId, sdk.TextBlock("/clear")); resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", resp.StopReason)
	}
	if got := h.client.agentText(sess.SessionId); !strings.HasSuffix(got, "Conversation cleared") {
		t.Fatalf("agent text %q", got)
	}
	if len(m.reqs) != 1 {
		t.Fatalf("/clear reached the model: %d requests", len(m.reqs))
	}
	cfg, _ := config.Load(func(k string) (string, bool) { v, ok := h.env[k]; return v, ok })
	path := session.DefaultPath(cfg.DataDir)
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows []string
	r, err := db.Query(`SELECT role, content_json, metadata_json FROM messages WHERE session_id = ? ORDER BY id`, string(sess.SessionId))
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var role, content, md string
		r.Scan(&role, &content, &md)
		rows = append(rows, role+" "+content+" "+md)
	}
	r.Close()
	want := []string{
		`user [{"type":"text","text":"/clear"}] {"userVisible":true,"agentVisible":false}`,
		`assistant [{"type":"text","text":"Conversation cleared"}] {"userVisible":true,"agentVisible":false}`,
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Fatalf("stored rows (-want +got):\n%s", diff)
	}
	var total, in, out sql.NullInt64
	if err := db.QueryRow(`SELECT total_tokens, input_tokens, output_tokens FROM sessions WHERE id = ?`, string(sess.SessionId)).Scan(&total, &in, &out); err != nil ||
		total.Int64 != 0 || in.Int64 != 0 || out.Int64 != 0 || !total.Valid {
		t.Errorf("tokens %v %v %v %v", total, in, out, err)
	}
	h.prompt(sess.SessionId, sdk.TextBlock("a fresh start"))
	if msgs := m.reqs[len(m.reqs)-1].Messages; len(msgs) != 1 || !strings.HasSuffix(m.lastUserText(t), "a fresh start") {
		t.Errorf("after /clear the model got %d messages, the last user text %q", len(msgs), m.lastUserText(t))
	}
}
