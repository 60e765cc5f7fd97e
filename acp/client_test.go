//go:build unix

// The test harness: the SDK's client side over pipes against the agent, a client that serves fs/* and
// terminal/* from a temporary folder and answers permissions from a script, and a scripted model.

package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
)

// model is a scripted provider shared by every run of a test: the n-th model call of the test gets the
// n-th reply (the last one repeats), and each request and the settings it was built for are kept.
type model struct {
	replies []provider.Message
	cycle   bool // after the last reply, start again at the first
	n       atomic.Int32
	mu      sync.Mutex
	reqs    []provider.Request
	models  []string // the model each run asked for
}

func newModel(replies ...provider.Message) *model { return &model{replies: replies} }

func (m *model) factory(s provider.Settings) (provider.Setup, error) {
	m.mu.Lock()
	m.models = append(m.models, s.Model)
	m.mu.Unlock()
	name := s.Model
	if name == "" {
		name = "scripted-1"
	}
	p := &scripted.Provider{Script: func(_ int, req provider.Request) provider.Message {
		m.mu.Lock()
		m.reqs = append(m.reqs, req)
		m.mu.Unlock()
		i := int(m.n.Add(1)) - 1
		if m.cycle {
			i %= len(m.replies)
		}
		if i >= len(m.replies) {
			i = len(m.replies) - 1
		}
		return m.replies[i]
	}}
	return provider.Setup{Provider: p, Name: "scripted", Model: name, ContextLimit: 128_000}, nil
}

// lastUserText is the text of the newest user message the model was sent.
func (m *model) lastUserText(t testing.TB) string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.reqs) == 0 {
		t.Fatal("the model was never called")
	}
	msgs := m.reqs[len(m.reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == provider.User && msgs[i].Text != "" {
			return msgs[i].Text
		}
	}
	return ""
}

func call(id, name, args string) provider.Message {
	return provider.Message{ToolCalls: []provider.ToolCall{{ID: id, Name: name, Arguments: json.RawMessage(args)}}}
}

func text(s string) provider.Message { return provider.Message{Text: s} }

// testClient is an editor: buffers over the disk of its folder, terminals as real processes.
type testClient struct {
	t    testing.TB
	root string

	mu         sync.Mutex
	cond       *sync.Cond
	updates    []sdk.SessionNotification
	buffers    map[string]string // unsaved text, preferred to the disk by fs/read_text_file
	writes     []sdk.WriteTextFileRequest
	reads      []string
	answers    []string // permission answers in order ("" → cancelled)
	asked      []sdk.RequestPermissionRequest
	terminals  map[string]*testTerminal
	termCalls  []string // "create", "wait", "output", "kill", "release"
	terminalSq int
	createGate chan struct{} // when set, terminal/create answers only once it is closed (the command runs already)
	writeGate  chan struct{} // when set, fs/write_text_file answers only once it is closed (the file is written)
	wrote      chan struct{} // closed by the first write when writeGate is set
}

type testTerminal struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	done chan struct{}
	err  error
}

func newTestClient(t testing.TB, root string) *testClient {
	c := &testClient{t: t, root: root, buffers: map[string]string{}, terminals: map[string]*testTerminal{}}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *testClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.cond.Broadcast()
	c.mu.Unlock()
	return nil
}

func (c *testClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	c.reads = append(c.reads, p.Path)
	buf, ok := c.buffers[p.Path]
	c.mu.Unlock()
	if ok {
		return sdk.ReadTextFileResponse{Content: buf}, nil
	}
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

// WriteTextFile keeps the text as the buffer and saves it (as an editor that saves on write).
func (c *testClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	c.writes = append(c.writes, p)
	c.buffers[p.Path] = p.Content
	c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(p.Path), 0o755); err != nil {
		return sdk.WriteTextFileResponse{}, err
	}
	err := os.WriteFile(p.Path, []byte(p.Content), 0o644)
	if c.writeGate != nil {
		close(c.wrote)
		<-c.writeGate
	}
	return sdk.WriteTextFileResponse{}, err
}

func (c *testClient) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asked = append(c.asked, p)
	answer := "reject_once"
	if len(c.answers) > 0 {
		answer, c.answers = c.answers[0], c.answers[1:]
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	if answer == "wait" { // answered only when the prompt is cancelled
		<-ctx.Done()
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	if answer == "" {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(answer))}, nil
}

func (c *testClient) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	term := &testTerminal{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = &lockedWriter{mu: &c.mu, w: &term.out}, &lockedWriter{mu: &c.mu, w: &term.out}
	if err := cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, err
	}
	go func() { term.err = cmd.Wait(); close(term.done) }()
	if c.createGate != nil {
		<-c.createGate
	}
	c.mu.Lock()
	c.terminalSq++
	id := fmt.Sprintf("term-%d", c.terminalSq)
	c.terminals[id] = term
	c.termCalls = append(c.termCalls, "create")
	c.mu.Unlock()
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

func (c *testClient) terminal(id, what string) *testTerminal {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.termCalls = append(c.termCalls, what)
	c.cond.Broadcast()
	return c.terminals[id]
}

func (c *testClient) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	term := c.terminal(p.TerminalId, "wait")
	select {
	case <-term.done:
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	code := term.cmd.ProcessState.ExitCode()
	return sdk.WaitForTerminalExitResponse{ExitCode: &code}, nil
}

func (c *testClient) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	term := c.terminal(p.TerminalId, "output")
	c.mu.Lock()
	defer c.mu.Unlock()
	return sdk.TerminalOutputResponse{Output: term.out.String()}, nil
}

func (c *testClient) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	term := c.terminal(p.TerminalId, "kill")
	_ = syscall.Kill(-term.cmd.Process.Pid, syscall.SIGKILL)
	<-term.done
	return sdk.KillTerminalResponse{}, nil
}

func (c *testClient) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	c.terminal(p.TerminalId, "release")
	return sdk.ReleaseTerminalResponse{}, nil
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// await blocks until cond holds over the client's state (checked on every update, answer and terminal
// call); the test's own deadline bounds it.
func (c *testClient) await(cond func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		c.cond.Wait()
	}
}

// awaitCommands waits for the first available_commands_update (the recipes advertised as slash commands).
func (c *testClient) awaitCommands() {
	c.await(func() bool {
		for _, n := range c.updates {
			if n.Update.AvailableCommandsUpdate != nil {
				return true
			}
		}
		return false
	})
}

// kinds lists the session's updates as "kind" strings, tool calls with their status.
func (c *testClient) kinds(session sdk.SessionId) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, n := range c.updates {
		if n.SessionId != session {
			continue
		}
		out = append(out, updateKind(n.Update))
	}
	return out
}

func updateKind(u sdk.SessionUpdate) string {
	switch {
	case u.AgentMessageChunk != nil:
		return "agent_message_chunk"
	case u.UserMessageChunk != nil:
		return "user_message_chunk"
	case u.AgentThoughtChunk != nil:
		return "agent_thought_chunk"
	case u.ToolCall != nil:
		return "tool_call:" + string(u.ToolCall.Status)
	case u.ToolCallUpdate != nil:
		if u.ToolCallUpdate.Status != nil {
			return "tool_call_update:" + string(*u.ToolCallUpdate.Status)
		}
		return "tool_call_update"
	case u.Plan != nil:
		return "plan"
	case u.AvailableCommandsUpdate != nil:
		return "available_commands_update"
	case u.CurrentModeUpdate != nil:
		return "current_mode_update"
	case u.UsageUpdate != nil:
		return "usage_update"
	}
	return "other"
}

// toolUpdates are the updates of one tool call.
func (c *testClient) toolUpdates(id string) []sdk.SessionUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []sdk.SessionUpdate
	for _, n := range c.updates {
		u := n.Update
		if (u.ToolCall != nil && string(u.ToolCall.ToolCallId) == id) || (u.ToolCallUpdate != nil && string(u.ToolCallUpdate.ToolCallId) == id) {
			out = append(out, u)
		}
	}
	return out
}

// agentText joins the session's agent message chunks.
func (c *testClient) agentText(session sdk.SessionId) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, n := range c.updates {
		if n.SessionId == session && n.Update.AgentMessageChunk != nil && n.Update.AgentMessageChunk.Content.Text != nil {
			b.WriteString(n.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// thoughts are the agent thought chunks a session sent, in order.
func (c *testClient) thoughts(session sdk.SessionId) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, n := range c.updates {
		if t := n.Update.AgentThoughtChunk; n.SessionId == session && t != nil && t.Content.Text != nil {
			out = append(out, t.Content.Text.Text)
		}
	}
	return out
}

// harness is one agent and one client connected by pipes.
type harness struct {
	t      testing.TB
	root   string // the session folder
	home   string // GOOSE_PATH_ROOT and HOME
	model  *model
	client *testClient
	conn   *sdk.ClientSideConnection
	env    map[string]string

	noSessions bool
}

type harnessOptions struct {
	caps       sdk.ClientCapabilities
	env        map[string]string
	noSessions bool
	home       string // shared with another harness (the same store)
	root       string
}

func newHarness(t testing.TB, m *model, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, root: o.root, home: o.home, model: m}
	if h.root == "" {
		h.root = t.TempDir()
	}
	if h.home == "" {
		h.home = t.TempDir()
	}
	h.env = map[string]string{"GOOSE_PATH_ROOT": h.home, "HOME": h.home, "GOOSE_MODE": "auto", "GOOSE_PROVIDER": "openai",
		"OPENAI_API_KEY": "sk-test-not-used", "PATH": os.Getenv("PATH")}
	for k, v := range o.env {
		h.env[k] = v
	}
	h.noSessions = o.noSessions
	h.client = newTestClient(t, h.root)
	h.conn = reconnect(t, h, h.client, o.caps)
	return h
}

// reconnect starts an agent for h and connects client to it.
func reconnect(t testing.TB, h *harness, client sdk.Client, caps sdk.ClientCapabilities) *sdk.ClientSideConnection {
	t.Helper()
	lookup := func(k string) (string, bool) { v, ok := h.env[k]; return v, ok }
	agentIn, clientOut := io.Pipe()
	clientIn, agentOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = Serve(ctx, agentIn, agentOut, Options{Version: "test", Lookup: lookup, Providers: h.model.factory, NoSessions: h.noSessions})
	}()
	conn := sdk.NewClientSideConnection(client, clientOut, clientIn)
	conn.SetLogger(slog.New(slog.DiscardHandler)) // "connection closed" at the end is expected
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		agentOut.Close()
		<-served
	})
	if _, err := conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return conn
}

func (h *harness) newSession(servers ...sdk.McpServer) sdk.NewSessionResponse {
	h.t.Helper()
	if servers == nil {
		servers = []sdk.McpServer{}
	}
	resp, err := h.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: h.root, McpServers: servers})
	if err != nil {
		h.t.Fatalf("session/new: %v", err)
	}
	return resp
}

func (h *harness) prompt(id sdk.SessionId, blocks ...sdk.ContentBlock) sdk.PromptResponse {
	h.t.Helper()
	resp, err := h.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: blocks})
	if err != nil {
		h.t.Fatalf("session/prompt: %v", err)
	}
	return resp
}

// fullCaps is a client that edits and runs commands itself.
var fullCaps = sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true}

// the test harness's agent satisfies the SDK's interfaces
var (
	_ sdk.Agent       = (*Agent)(nil)
	_ sdk.AgentLoader = (*Agent)(nil)
	_ agent.Approver  = (*approver)(nil)
	_ host.KnownText  = (*sessionWorkspace)(nil)
	_ host.Frontend   = (*promptFrontend)(nil)
	_ host.Terminal   = (*terminalFrontend)(nil)
)

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(strings.TrimSpace(s), v) }
