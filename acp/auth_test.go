// The terminal auth method on the wire (type and args, as the ACP registry requires them), auth_required
// for a session without a usable provider (none configured, or its key missing) with the method named,
// authenticate's answers, and a session that works once goose's configuration holds the provider and
// its key. The agent resolves providers for real here, against a local server speaking Anthropic's wire.

package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider/setup"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// wire is a JSON-RPC client on the agent's stdin/stdout pipes, as raw as a client sees it.
type wire struct {
	t      *testing.T
	in     io.Writer
	out    *bufio.Reader
	nextID int
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

func startWire(t *testing.T, env map[string]string) *wire {
	t.Helper()
	agentIn, clientOut := io.Pipe()
	clientIn, agentOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	go func() {
		defer close(served)
		_ = Serve(ctx, agentIn, agentOut, Options{Version: "test", Lookup: lookup, NoSessions: true})
	}()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		agentOut.Close()
		<-served
	})
	return &wire{t: t, in: clientOut, out: bufio.NewReader(clientIn)}
}

// call sends a request and returns its result or error, skipping the notifications before it.
func (w *wire) call(method string, params any) (json.RawMessage, *rpcError) {
	w.t.Helper()
	w.nextID++
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.nextID, "method": method, "params": params})
	if _, err := w.in.Write(append(msg, '\n')); err != nil {
		w.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		line, err := w.out.ReadBytes('\n')
		if err != nil {
			w.t.Fatalf("%s: %v", method, err)
		}
		var resp struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *rpcError       `json:"error"`
		}
		if err := json.Unmarshal(line, &resp); err != nil {
			w.t.Fatalf("%s: not JSON: %s", method, line)
		}
		if resp.Method != "" || resp.ID == nil || *resp.ID != w.nextID {
			continue // a notification, or a request of the agent's
		}
		return resp.Result, resp.Error
	}
	w.t.Fatalf("%s: no answer", method)
	return nil, nil
}

// authData is auth_required's data.
type authData struct {
	Reason      string           `json:"reason"`
	AuthMethods []map[string]any `json:"authMethods"`
}

func wantAuthRequired(t *testing.T, what string, e *rpcError, reason string) {
	t.Helper()
	if e == nil || e.Code != -32000 || e.Message != "Authentication required" {
		t.Fatalf("%s: %+v, want auth_required", what, e)
	}
	var d authData
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatalf("%s: data %s", what, e.Data)
	}
	if !strings.Contains(d.Reason, reason) || !strings.Contains(d.Reason, "goose-ls configure") {
		t.Errorf("%s: reason %q, want %q and the command", what, d.Reason, reason)
	}
	if len(d.AuthMethods) != 1 || d.AuthMethods[0]["id"] != ConfigureMethodID || d.AuthMethods[0]["type"] != "terminal" {
		t.Errorf("%s: auth methods %v", what, d.AuthMethods)
	}
}

func TestInitializeOffersTheTerminalSetUp(t *testing.T) {
	w := startWire(t, map[string]string{"HOME": t.TempDir()})
	res, e := w.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
	if e != nil {
		t.Fatal(e)
	}
	var init struct {
		AuthMethods []json.RawMessage `json:"authMethods"`
	}
	json.Unmarshal(res, &init)
	if len(init.AuthMethods) != 1 {
		t.Fatalf("authMethods %s", res)
	}
	var m map[string]any
	json.Unmarshal(init.AuthMethods[0], &m)
	want := map[string]any{"id": ConfigureMethodID, "name": "Configure provider", "type": "terminal", "args": []any{"configure"},
		"description": "Run `goose-ls configure` in a terminal: choose the AI provider and model goose and goose-ls use, and store its API key"}
	if fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("auth method on the wire:\n%s\nwant %v", init.AuthMethods[0], want)
	}
}

func TestSessionNeedsAUsableProvider(t *testing.T) {
	srv := wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "configured and answering"}))
	defer srv.Close()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	os.MkdirAll(work, 0o755)
	env := map[string]string{"HOME": root, "GOOSE_PATH_ROOT": filepath.Join(root, "goose"), "GOOSE_DISABLE_KEYRING": "1",
		"ANTHROPIC_HOST": srv.URL, "PATH": os.Getenv("PATH")}
	w := startWire(t, env)
	if _, e := w.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}); e != nil {
		t.Fatal(e)
	}
	newSession := map[string]any{"cwd": work, "mcpServers": []any{}}

	// nothing configured
	_, e := w.call("session/new", newSession)
	wantAuthRequired(t, "session/new with no provider", e, "no provider is configured")
	_, e = w.call("authenticate", map[string]any{"methodId": ConfigureMethodID})
	wantAuthRequired(t, "authenticate with no provider", e, "no provider is configured")
	if _, e := w.call("authenticate", map[string]any{"methodId": "oauth"}); e == nil || e.Code != -32602 {
		t.Errorf("authenticate with an unknown method: %+v", e)
	}

	// the provider chosen, its key not stored yet
	configDir := filepath.Join(root, "goose", "config")
	if _, err := setup.Write(configDir, setup.Change{Provider: "anthropic", Model: "claude-sonnet-4-5"}); err != nil {
		t.Fatal(err)
	}
	_, e = w.call("session/new", newSession)
	wantAuthRequired(t, "session/new without the key", e, "ANTHROPIC_API_KEY")

	// the key stored where goose keeps it (secrets.yaml here): authenticate answers, sessions work
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	_, store, err := secretstore.Load(lookup)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Set("ANTHROPIC_API_KEY", "sk-ant-configured-42"); err != nil {
		t.Fatal(err)
	}
	if res, e := w.call("authenticate", map[string]any{"methodId": ConfigureMethodID}); e != nil || string(res) != "{}" {
		t.Fatalf("authenticate once configured: %s %+v", res, e)
	}
	res, e := w.call("session/new", newSession)
	if e != nil {
		t.Fatalf("session/new once configured: %+v", e)
	}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(res, &sess)
	res, e = w.call("session/prompt", map[string]any{"sessionId": sess.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "hello"}}})
	if e != nil || !strings.Contains(string(res), "end_turn") {
		t.Fatalf("session/prompt: %s %+v", res, e)
	}
	if h := srv.Headers(); len(h) != 1 || h[0].Get("X-Api-Key") != "sk-ant-configured-42" {
		t.Errorf("the provider's requests: %v, want one with the stored key", h)
	}

	// the key removed again: the open session's next prompt is refused the same way
	os.Remove(filepath.Join(configDir, "secrets.yaml"))
	_, e = w.call("session/prompt", map[string]any{"sessionId": sess.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "again"}}})
	wantAuthRequired(t, "a prompt after the key went", e, "ANTHROPIC_API_KEY")
	if n := len(srv.Headers()); n != 1 {
		t.Errorf("the refused prompt reached the provider (%d requests)", n)
	}
}
