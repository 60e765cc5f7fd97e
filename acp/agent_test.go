//go:build unix

// Protocol flows over pipes with the SDK's client side: capabilities, writes and edits through the
// client with their diffs, the disk workspace, terminals, permissions, cancel, plans, recipe review.

package acp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestInitializeIsHonest(t *testing.T) {
	h := newHarness(t, newModel(text("hi")), harnessOptions{})
	resp, err := h.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatal(err)
	}
	c := resp.AgentCapabilities
	if resp.ProtocolVersion != 1 || !c.LoadSession || c.SessionCapabilities.List == nil || c.SessionCapabilities.Close == nil ||
		c.SessionCapabilities.Resume != nil || !c.PromptCapabilities.EmbeddedContext || c.PromptCapabilities.Image ||
		c.PromptCapabilities.Audio || !c.McpCapabilities.Http || c.McpCapabilities.Sse || resp.AgentInfo.Name != "goose-ls" {
		t.Fatalf("capabilities: %+v", resp)
	}
	if _, err := h.conn.ResumeSession(context.Background(), sdk.ResumeSessionRequest{SessionId: "x", Cwd: h.root}); err == nil {
		t.Fatal("session/resume is not advertised and must fail")
	}
	if _, err := h.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: "relative/dir", McpServers: []sdk.McpServer{}}); err == nil {
		t.Fatal("a relative cwd was accepted")
	}
}

func TestWriteAndEditGoThroughTheClientWithDiffs(t *testing.T) {
	m := newModel(
		call("c1", "write", `{"path":"notes.md","content":"alpha\nbeta\n"}`),
		call("c2", "edit", `{"path":"draft.md","before":"unsaved","after":"edited"}`),
		text("Done."),
	)
	h := newHarness(t, m, harnessOptions{caps: fullCaps})
	draft := filepath.Join(h.root, "draft.md")
	os.WriteFile(draft, []byte("on disk\n"), 0o644)
	h.client.buffers[draft] = "an unsaved line\n" // the editor's text wins over the disk's
	sess := h.newSession()
	if got := h.prompt(sess.SessionId, sdk.TextBlock("write the notes")); got.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got.StopReason)
	}
	notes := filepath.Join(h.root, "notes.md")
	var writes []string
	for _, w := range h.client.writes {
		writes = append(writes, w.Path+"="+w.Content)
	}
	if diff := cmp.Diff([]string{notes + "=alpha\nbeta\n", draft + "=an edited line\n"}, writes); diff != "" {
		t.Fatalf("fs/write_text_file calls (-want +got):\n%s", diff)
	}
	start := h.client.toolUpdates("c1")[0].ToolCall
	if start.Title != "developer: write · notes.md" || start.Kind != sdk.ToolKindEdit || start.Status != sdk.ToolCallStatusInProgress ||
		len(start.Locations) != 1 || start.Locations[0].Path != notes {
		t.Fatalf("tool_call: %+v", start)
	}
	checkDiff := func(id, path string, oldText *string, newText string) {
		t.Helper()
		ups := h.client.toolUpdates(id)
		end := ups[len(ups)-1].ToolCallUpdate
		if end == nil || end.Status == nil || *end.Status != sdk.ToolCallStatusCompleted || len(end.Content) == 0 || end.Content[0].Diff == nil {
			t.Fatalf("%s: last update %+v", id, ups[len(ups)-1])
		}
		d := end.Content[0].Diff
		if d.Path != path || d.NewText != newText || !cmp.Equal(d.OldText, oldText) {
			t.Fatalf("%s: diff %s old=%v new=%q", id, d.Path, d.OldText, d.NewText)
		}
	}
	checkDiff("c1", notes, nil, "alpha\nbeta\n")
	old := "an unsaved line\n"
	checkDiff("c2", draft, &old, "an edited line\n")
	// (the thought is the notice naming the default profile's extensions goose-ls lacks)
	want := []string{"agent_thought_chunk", "usage_update", "tool_call:in_progress", "tool_call_update:completed",
		"usage_update", "tool_call:in_progress", "tool_call_update:completed", "agent_message_chunk", "usage_update"}
	got := h.client.kinds(sess.SessionId)
	got = slices.DeleteFunc(got, func(k string) bool { return k == "available_commands_update" }) // sent on its own goroutine
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("update sequence (-want +got):\n%s", diff)
	}
	if h.client.agentText(sess.SessionId) != "Done." {
		t.Fatalf("agent text %q", h.client.agentText(sess.SessionId))
	}
}

// A write the client made is the tool call's result and diff even when the cancel reached the agent
// before the client's answer: the request is not abandoned, so the user sees what changed.
func TestCancelBeforeTheWriteAnswerKeepsTheWrite(t *testing.T) {
	m := newModel(call("w1", "write", `{"path":"a.txt","content":"written\n"}`), text("never"))
	h := newHarness(t, m, harnessOptions{caps: fullCaps})
	h.client.writeGate, h.client.wrote = make(chan struct{}), make(chan struct{})
	sess := h.newSession()
	done := make(chan sdk.PromptResponse)
	go func() { done <- h.prompt(sess.SessionId, sdk.TextBlock("go")) }()
	<-h.client.wrote
	if err := h.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	close(h.client.writeGate) // the answer follows the cancel on the wire
	if resp := <-done; resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	ups := h.client.toolUpdates("w1")
	end := ups[len(ups)-1].ToolCallUpdate
	if end == nil || end.Status == nil || *end.Status != sdk.ToolCallStatusCompleted || len(end.Content) == 0 || end.Content[0].Diff == nil || end.Content[0].Diff.NewText != "written\n" {
		t.Fatalf("the write's last update: %+v", ups[len(ups)-1])
	}
}

func TestWithoutClientFilesTheDiskIsUsed(t *testing.T) {
	m := newModel(call("c1", "write", `{"path":"sub/out.txt","content":"x\n"}`), call("c2", "write", `{"path":"../escape.txt","content":"x"}`), text("ok"))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("go"))
	if b, err := os.ReadFile(filepath.Join(h.root, "sub", "out.txt")); err != nil || string(b) != "x\n" {
		t.Fatalf("disk write: %q %v", b, err)
	}
	if len(h.client.writes) != 0 || len(h.client.reads) != 0 {
		t.Fatalf("the client did not advertise fs but was called: %v %v", h.client.writes, h.client.reads)
	}
	ups := h.client.toolUpdates("c1")
	if d := ups[len(ups)-1].ToolCallUpdate.Content[0].Diff; d == nil || d.OldText != nil || d.NewText != "x\n" {
		t.Fatalf("diff of a disk write: %+v", ups[len(ups)-1])
	}
	ups = h.client.toolUpdates("c2")
	if end := ups[len(ups)-1].ToolCallUpdate; *end.Status != sdk.ToolCallStatusFailed {
		t.Fatalf("a write outside the workspace: %+v", end)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(h.root), "escape.txt")); err == nil {
		t.Fatal("a file was written outside the workspace")
	}
}

func TestShellRunsInTheClientsTerminal(t *testing.T) {
	m := newModel(call("s1", "shell", `{"command":"echo from-terminal; exit 3"}`), text("ran"))
	h := newHarness(t, m, harnessOptions{caps: fullCaps})
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("run it"))
	if diff := cmp.Diff([]string{"create", "wait", "output", "release"}, h.client.termCalls); diff != "" {
		t.Fatalf("terminal calls (-want +got):\n%s", diff)
	}
	ups := h.client.toolUpdates("s1")
	if ups[0].ToolCall.Kind != sdk.ToolKindExecute || ups[0].ToolCall.Title != "developer: shell · echo from-terminal; exit 3" {
		t.Fatalf("tool_call: %+v", ups[0].ToolCall)
	}
	live := ups[1].ToolCallUpdate
	if live == nil || len(live.Content) != 1 || live.Content[0].Terminal == nil || live.Content[0].Terminal.TerminalId != "term-1" {
		t.Fatalf("the terminal was not shown while running: %+v", ups[1])
	}
	end := ups[len(ups)-1].ToolCallUpdate
	result := end.Content[len(end.Content)-1].Content.Content.Text.Text
	if *end.Status != sdk.ToolCallStatusFailed || !strings.Contains(result, "from-terminal") || !strings.Contains(result, "Command exited with code 3") {
		t.Fatalf("result %q (%s)", result, *end.Status)
	}
}

func TestPermissionsInApproveMode(t *testing.T) {
	m := newModel(
		call("w1", "write", `{"path":"a.txt","content":"a"}`),
		call("w2", "write", `{"path":"b.txt","content":"b"}`),
		call("s1", "shell", `{"command":"touch shell-ran"}`),
		call("s2", "shell", `{"command":"touch shell-ran-again"}`),
		call("w3", "write", `{"path":"c.txt","content":"c"}`),
		text("finished"),
	)
	h := newHarness(t, m, harnessOptions{env: map[string]string{"GOOSE_MODE": "approve"}})
	h.client.answers = []string{"allow_always", "reject_always", "reject_once"}
	sess := h.newSession()
	if sess.Modes.CurrentModeId != "approve" {
		t.Fatalf("mode %q", sess.Modes.CurrentModeId)
	}
	h.prompt(sess.SessionId, sdk.TextBlock("go"))
	var asked []string
	for _, a := range h.client.asked {
		var kinds []string
		for _, o := range a.Options {
			kinds = append(kinds, string(o.Kind))
		}
		if strings.Join(kinds, ",") != "allow_once,allow_always,reject_once,reject_always" {
			t.Fatalf("options %v", kinds)
		}
		asked = append(asked, string(a.ToolCall.ToolCallId)+" "+*a.ToolCall.Title)
	}
	// w2 is allowed by w1's "always", s2 refused by s1's "always" without asking; w3's write tool is still
	// allowed (always is per tool)
	want := []string{"w1 developer: write · a.txt", "s1 developer: shell · touch shell-ran"}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Fatalf("permission requests (-want +got):\n%s", diff)
	}
	for f, exists := range map[string]bool{"a.txt": true, "b.txt": true, "c.txt": true, "shell-ran": false, "shell-ran-again": false} {
		if _, err := os.Stat(filepath.Join(h.root, f)); (err == nil) != exists {
			t.Errorf("%s exists=%v, want %v", f, err == nil, exists)
		}
	}
	if ups := h.client.toolUpdates("w1"); ups[0].ToolCall.Status != sdk.ToolCallStatusPending {
		t.Fatalf("a call waiting for permission is pending first: %+v", ups[0].ToolCall)
	}
	for _, id := range []string{"s1", "s2"} {
		ups := h.client.toolUpdates(id)
		end := ups[len(ups)-1].ToolCallUpdate
		if *end.Status != sdk.ToolCallStatusFailed || !strings.Contains(end.Content[0].Content.Content.Text.Text, "declined") {
			t.Fatalf("%s: %+v", id, end)
		}
	}
}

func TestCancelEndsThePromptAndKillsTheCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps sdk.ClientCapabilities
		// the client answers terminal/create only after the cancel reached the agent: the command it
		// started must still be killed
		answerCreateLate bool
	}{{"disk shell", sdk.ClientCapabilities{}, false}, {"client terminal", fullCaps, false},
		{"client terminal cancelled before the create answer", fullCaps, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(call("s1", "shell", `{"command":"echo $$ > pid; exec sleep 300"}`), text("never"))
			h := newHarness(t, m, harnessOptions{caps: tc.caps})
			if tc.answerCreateLate {
				h.client.createGate = make(chan struct{})
			}
			sess := h.newSession()
			// the command tells its pid through a FIFO: reading it waits until the command runs
			if err := syscall.Mkfifo(filepath.Join(h.root, "pid"), 0o600); err != nil {
				t.Fatal(err)
			}
			done := make(chan sdk.PromptResponse)
			go func() { done <- h.prompt(sess.SessionId, sdk.TextBlock("sleep")) }()
			b, err := os.ReadFile(filepath.Join(h.root, "pid"))
			if err != nil {
				t.Fatal(err)
			}
			var pid int
			if _, err := fmtSscan(string(b), &pid); err != nil {
				t.Fatal(err)
			}
			if err := h.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
				t.Fatal(err)
			}
			if tc.answerCreateLate { // the answer follows the cancel on the wire: the agent reads the cancel first
				close(h.client.createGate)
			}
			if resp := <-done; resp.StopReason != sdk.StopReasonCancelled {
				t.Fatalf("stop reason %q", resp.StopReason)
			}
			if err := syscall.Kill(pid, 0); err == nil {
				t.Fatalf("the command (pid %d) still runs after the cancel", pid)
			}
			if tc.caps.Terminal && !slices.Contains(h.client.termCalls, "kill") {
				t.Fatalf("terminal calls %v: no kill", h.client.termCalls)
			}
		})
	}
}

func TestCancelWhileAskingPermission(t *testing.T) {
	m := newModel(call("w1", "write", `{"path":"a.txt","content":"a"}`), text("never"))
	h := newHarness(t, m, harnessOptions{env: map[string]string{"GOOSE_MODE": "approve"}})
	h.client.answers = []string{"wait"}
	sess := h.newSession()
	done := make(chan sdk.PromptResponse)
	go func() { done <- h.prompt(sess.SessionId, sdk.TextBlock("go")) }()
	h.client.await(func() bool { return len(h.client.asked) == 1 })
	h.conn.Cancel(context.Background(), sdk.CancelNotification{SessionId: sess.SessionId})
	if resp := <-done; resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	if _, err := os.Stat(filepath.Join(h.root, "a.txt")); err == nil {
		t.Fatal("the write ran after the cancel")
	}
}

// todo is off on a fresh goose config; a config that has it on (an older goose's) keeps it.
func TestTodoBecomesAPlan(t *testing.T) {
	m := newModel(call("t1", "todo__todo_write", `{"content":"- [x] read the code\n- [~] write tests\n- [ ] ship"}`), text("ok"))
	h := newHarness(t, m, harnessOptions{})
	if err := os.MkdirAll(filepath.Join(h.home, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.home, "config", "config.yaml"), []byte("extensions:\n  todo:\n    enabled: true\n    type: platform\n    name: todo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("plan"))
	var plan []sdk.PlanEntry
	for _, n := range h.client.updates {
		if n.Update.Plan != nil {
			plan = n.Update.Plan.Entries
		}
	}
	want := []sdk.PlanEntry{
		{Content: "read the code", Priority: "medium", Status: "completed"},
		{Content: "write tests", Priority: "medium", Status: "in_progress"},
		{Content: "ship", Priority: "medium", Status: "pending"},
	}
	if diff := cmp.Diff(want, plan); diff != "" {
		t.Fatalf("plan (-want +got):\n%s", diff)
	}
}

func TestWritingARecipeReturnsItsDiagnostics(t *testing.T) {
	m := newModel(call("r1", "write", `{"path":"broken.yaml","content":"title: T\ndescription: d\nprompt: hi {{ who }}\n"}`), text("ok"))
	h := newHarness(t, m, harnessOptions{caps: fullCaps})
	sess := h.newSession()
	h.prompt(sess.SessionId, sdk.TextBlock("write a recipe"))
	ups := h.client.toolUpdates("r1")
	end := ups[len(ups)-1].ToolCallUpdate
	result := end.Content[len(end.Content)-1].Content.Content.Text.Text
	if !strings.Contains(result, "goose-ls found problems in this recipe:") || !strings.Contains(result, "who") {
		t.Fatalf("result %q", result)
	}
}

func TestPromptBlocksMakeTheUserMessage(t *testing.T) {
	m := newModel(text("seen"))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession()
	file := filepath.Join(h.root, "main.go")
	h.prompt(sess.SessionId, sdk.TextBlock("explain this"), sdk.ResourceLinkBlock("main.go", "file://"+file),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file://" + file + "#L3", Text: "func main() {}\n"}}))
	want := "explain this\n\nThe user refers to " + file + " (main.go).\n\nContext from " + file + ":\n```\nfunc main() {}\n```"
	if got := m.lastUserText(t); !strings.Contains(got, want) {
		t.Fatalf("user message %q, want it to hold %q", got, want)
	}
}

func TestModesAndModelOptions(t *testing.T) {
	m := newModel(text("a"), text("b"))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession()
	var ids []string
	for _, md := range sess.Modes.AvailableModes {
		ids = append(ids, string(md.Id))
	}
	if strings.Join(ids, ",") != "auto,approve,smart_approve,chat" || sess.Modes.CurrentModeId != "auto" {
		t.Fatalf("modes %+v", sess.Modes)
	}
	// goose's order: provider, mode, model
	if len(sess.ConfigOptions) != 3 || sess.ConfigOptions[0].Select.Id != optionProvider || sess.ConfigOptions[1].Select.Id != optionMode ||
		sess.ConfigOptions[2].Select.Id != optionModel || sess.ConfigOptions[2].Select.CurrentValue != "scripted-1" {
		t.Fatalf("config options %+v", sess.ConfigOptions)
	}
	if _, err := h.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "chat"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "yolo"}); err == nil {
		t.Fatal("an unknown mode was accepted")
	}
	resp, err := h.conn.SetSessionConfigOption(context.Background(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: optionModel, Value: "other-model"}})
	if err != nil || resp.ConfigOptions[2].Select.CurrentValue != "other-model" || resp.ConfigOptions[1].Select.CurrentValue != "chat" {
		t.Fatalf("set_config_option: %+v %v", resp, err)
	}
	h.prompt(sess.SessionId, sdk.TextBlock("hi"))
	if got := m.models[len(m.models)-1]; got != "other-model" {
		t.Fatalf("the run used model %q", got)
	}
	if !slices.Contains(h.client.kinds(sess.SessionId), "current_mode_update") {
		t.Fatal("no current_mode_update")
	}
	if !strings.Contains(m.reqs[len(m.reqs)-1].System, agent.ChatModeSystem) && len(m.reqs[len(m.reqs)-1].Tools) != 0 {
		t.Fatal("chat mode did not reach the run")
	}
}

// The model's reasoning reaches the client as agent thought chunks, its answer as the message.
func TestReasoningIsAThought(t *testing.T) {
	h := newHarness(t, newModel(provider.Message{Thinking: "The user greets; greet back.", Text: "Hello."}), harnessOptions{caps: fullCaps})
	sess := h.newSession()
	if got := h.prompt(sess.SessionId, sdk.TextBlock("hi")); got.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop reason %q", got.StopReason)
	}
	thoughts := h.client.thoughts(sess.SessionId)
	if !slices.Contains(thoughts, "The user greets; greet back.") || h.client.agentText(sess.SessionId) != "Hello." {
		t.Errorf("thoughts %q, message %q", thoughts, h.client.agentText(sess.SessionId))
	}
}
