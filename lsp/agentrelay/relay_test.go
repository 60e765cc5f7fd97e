// The relay over a pipe with a scripted agent and a recording editor: results and errors pass through,
// the agent's editor requests reach the server's editor, and an agent process that dies mid-run leaves no
// run waiting in the editor.

package agentrelay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe"
)

// recordingEditor is a server's editor with one open document; it records notifications.
type recordingEditor struct {
	mu    sync.Mutex
	notes []string // method + " " + params
	woke  chan struct{}
}

func newRecordingEditor() *recordingEditor { return &recordingEditor{woke: make(chan struct{}, 64)} }

func (e *recordingEditor) Root() string                { return "/work" }
func (e *recordingEditor) Settings() lsp.AgentSettings { return lsp.AgentSettings{ReviewEdits: true} }
func (e *recordingEditor) Caps() lsp.Caps              { return lsp.Caps{UTF8: true, CreateFiles: true} }
func (e *recordingEditor) Doc(u protocol.DocumentURI) *lsp.Doc {
	if u == "file:///work/a.yaml" {
		return &lsp.Doc{Text: []byte("title: t\n"), Version: 7}
	}
	return nil
}
func (e *recordingEditor) AwaitText(protocol.DocumentURI, []byte, time.Duration) (string, bool) {
	return "", true
}
func (e *recordingEditor) Call(_ context.Context, method string, _, result any) error {
	if method == "window/showMessageRequest" {
		return json.Unmarshal([]byte(`{"title":"Allow once"}`), result)
	}
	return &jsonrpc2.Error{Code: jsonrpc2.MethodNotFound, Message: method}
}
func (e *recordingEditor) Notify(_ context.Context, method string, params any) {
	b, _ := json.Marshal(params)
	e.mu.Lock()
	e.notes = append(e.notes, method+" "+string(b))
	e.mu.Unlock()
	e.woke <- struct{}{}
}
func (e *recordingEditor) LogMessage(typ int, msg string) {
	e.Notify(context.Background(), "window/logMessage", map[string]any{"type": typ, "message": msg})
}
func (e *recordingEditor) BeginProgress(context.Context, string, string) lsp.Progress { return nil }
func (e *recordingEditor) Files() recipe.FS                                           { return nil }

// await waits for n notifications.
func (e *recordingEditor) await(t *testing.T, n int) []string {
	t.Helper()
	for {
		e.mu.Lock()
		if len(e.notes) >= n {
			out := append([]string(nil), e.notes...)
			e.mu.Unlock()
			return out
		}
		e.mu.Unlock()
		select {
		case <-e.woke:
		case <-time.After(10 * time.Second):
			t.Fatalf("waited for %d notifications, have %v", n, e.notes)
		}
	}
}

// scriptedAgent answers commands with fn and exposes the editor it was given.
type scriptedAgent struct {
	ed lsp.Editor
	fn func(ed lsp.Editor, command string) (any, error)
}

func (a *scriptedAgent) Execute(_ context.Context, command string, _ json.RawMessage) (any, error) {
	return a.fn(a.ed, command)
}
func (a *scriptedAgent) CancelProgress(string) {}
func (a *scriptedAgent) Close() error          { return nil }

// relayTo starts a relay whose agent process is fn served over a pipe; kill ends that "process".
func relayTo(t *testing.T, ed lsp.Editor, fn func(ed lsp.Editor, command string) (any, error)) (relay lsp.Agent, kill func()) {
	t.Helper()
	var agentEnd io.Closer
	relay = New(func() (io.ReadWriteCloser, error) {
		server, agent := net.Pipe()
		agentEnd = agent
		go func() {
			_ = Serve(context.Background(), agent, func(ed lsp.Editor) lsp.Agent { return &scriptedAgent{ed: ed, fn: fn} })
		}()
		return server, nil
	})(ed)
	t.Cleanup(func() { _ = relay.Close() })
	return relay, func() { agentEnd.Close() }
}

func TestRelayPassesResultsErrorsAndEditorRequests(t *testing.T) {
	ed := newRecordingEditor()
	relay, _ := relayTo(t, ed, func(remote lsp.Editor, command string) (any, error) {
		switch command {
		case "goose.listSessions":
			d := remote.Doc("file:///work/a.yaml")
			var answer struct{ Title string }
			err := remote.Call(context.Background(), "window/showMessageRequest", map[string]any{"message": "?"}, &answer)
			remote.Notify(context.Background(), "goose/runEvent", map[string]any{"runId": "r0", "kind": "text"})
			return map[string]any{"root": remote.Root(), "doc": string(d.Text), "version": d.Version, "utf8": remote.Caps().UTF8,
				"review": remote.Settings().ReviewEdits, "answer": answer.Title, "callErr": err == nil, "closed": remote.Doc("file:///work/b.yaml") == nil}, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run r9", Data: nil}
	})
	res, err := relay.Execute(context.Background(), "goose.listSessions", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res)
	want := `{"answer":"Allow once","callErr":true,"closed":true,"doc":"title: t\n","review":true,"root":"/work","utf8":true,"version":7}`
	if string(got) != want {
		t.Errorf("result through the relay\n got %s\nwant %s", got, want)
	}
	if notes := ed.await(t, 1); notes[0] != `goose/runEvent {"kind":"text","runId":"r0"}` {
		t.Errorf("notification through the relay: %s", notes[0])
	}
	_, err = relay.Execute(context.Background(), "goose.cancel", json.RawMessage(`{"runId":"r9"}`))
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidParams || rpcErr.Message != "no run r9" {
		t.Errorf("error through the relay: %#v", err)
	}
}

func TestAgentProcessDyingMidRunEndsItsRuns(t *testing.T) {
	ed := newRecordingEditor()
	relay, kill := relayTo(t, ed, func(remote lsp.Editor, command string) (any, error) {
		if command == "goose.ask" {
			return map[string]any{"runId": "run-1"}, nil
		}
		// run-2 finishes before its reply: no stale entry may remain for it
		remote.Notify(context.Background(), "goose/runEvent", map[string]any{"runId": "run-2", "agent": "", "kind": "done", "status": "completed"})
		return map[string]any{"runId": "run-2"}, nil
	})
	if _, err := relay.Execute(context.Background(), "goose.ask", json.RawMessage(`{"prompt":"p"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := relay.Execute(context.Background(), "goose.runRecipe", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	kill()
	notes := ed.await(t, 4)
	want := []string{
		`goose/runEvent {"agent":"","kind":"done","runId":"run-2","status":"completed"}`,
		`goose/runEvent {"agent":"","kind":"error","runId":"run-1","text":"the goose agent process ended"}`,
		`goose/runEvent {"agent":"","kind":"done","runId":"run-1","status":"failed"}`,
	}
	for i, w := range want {
		if notes[i] != w {
			t.Errorf("notification %d\n got %s\nwant %s", i, notes[i], w)
		}
	}
	// the next command starts a new agent process
	if _, err := relay.Execute(context.Background(), "goose.ask", json.RawMessage(`{"prompt":"p"}`)); err != nil {
		t.Fatalf("after the agent died: %v", err)
	}
}
