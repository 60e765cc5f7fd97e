// The agent process's side: Serve answers agent/* with an lsp.Agent whose lsp.Editor (remoteEditor) asks
// the server for everything it needs of the editor.

package agentrelay

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// Serve runs the agent that newAgent makes on rwc (the server's end: the agent process's stdin and
// stdout) until the server closes it; the agent is closed then (its runs are cancelled).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, newAgent func(lsp.Editor) lsp.Agent) error {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	ed := &remoteEditor{conn: conn}
	agent := newAgent(ed)
	conn.Go(ctx, handler(func(ctx context.Context, method string, params json.RawMessage) (any, error) {
		switch method {
		case MethodExecute:
			var p ExecuteParams
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
			}
			return agent.Execute(ctx, p.Command, p.Arg)
		case MethodCancelProgress:
			var p tokenParams
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, err
			}
			agent.CancelProgress(p.Token)
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.MethodNotFound, Message: "method not found: " + method}
	}))
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
	}
	cerr := agent.Close()
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return cerr
}

// remoteEditor is the server's lsp.Editor, over the relay.
type remoteEditor struct {
	conn jsonrpc2.Conn
}

// call is one editor/* request; a failure is logged and leaves result zero.
func (e *remoteEditor) call(ctx context.Context, method string, params, result any) error {
	_, err := e.conn.Call(ctx, method, params, result)
	if err != nil {
		slog.Debug("agentrelay: editor request failed", "method", method, "error", err)
	}
	return err
}

func (e *remoteEditor) state() state {
	var s state
	_ = e.call(context.Background(), methodState, nil, &s)
	return s
}

func (e *remoteEditor) Root() string { return e.state().Root }

func (e *remoteEditor) Settings() lsp.AgentSettings {
	s := e.state()
	return lsp.AgentSettings{NoSessions: s.NoSessions, ReviewEdits: s.ReviewEdits}
}

func (e *remoteEditor) Caps() lsp.Caps {
	s := e.state()
	return lsp.Caps{UTF8: s.UTF8, CreateFiles: s.CreateFiles, DeleteFiles: s.DeleteFiles, ChangeAnnotations: s.Annotations, Progress: s.Progress}
}

func (e *remoteEditor) Doc(u protocol.DocumentURI) *lsp.Doc {
	var d *docReply
	if e.call(context.Background(), methodDoc, uriParams{URI: string(u)}, &d) != nil || d == nil {
		return nil
	}
	text := []byte(d.Text)
	return &lsp.Doc{Text: text, Version: d.Version, Lines: source.NewLineIndex(text)}
}

func (e *remoteEditor) AwaitText(u protocol.DocumentURI, want []byte, timeout time.Duration) (string, bool) {
	var r awaitReply
	if err := e.call(context.Background(), methodAwaitText, awaitParams{URI: string(u), Want: string(want), TimeoutMs: timeout.Milliseconds()}, &r); err != nil {
		return "", false
	}
	return r.Text, r.OK
}

func (e *remoteEditor) Call(ctx context.Context, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return e.call(ctx, methodCall, callParams{Method: method, Params: raw}, result)
}

func (e *remoteEditor) Notify(ctx context.Context, method string, params any) {
	raw, err := json.Marshal(params)
	if err != nil {
		slog.Warn("agentrelay: notification not encoded", "method", method, "error", err)
		return
	}
	if err := e.conn.Notify(ctx, methodNotify, callParams{Method: method, Params: raw}); err != nil {
		slog.Debug("agentrelay: notify failed", "method", method, "error", err)
	}
}

func (e *remoteEditor) LogMessage(typ int, msg string) {
	e.Notify(context.Background(), "window/logMessage", map[string]any{"type": typ, "message": msg})
}

func (e *remoteEditor) BeginProgress(ctx context.Context, token, title string) lsp.Progress {
	_ = e.call(ctx, methodProgressBegin, progressParams{Token: token, Title: title}, nil)
	return &remoteProgress{e: e, token: token}
}

func (e *remoteEditor) Files() recipe.FS { return remoteFiles{e} }

// remoteProgress forwards steps to the server's progress, which drops repeats and steps after the end.
type remoteProgress struct {
	e     *remoteEditor
	token string
	mu    sync.Mutex
	last  string
}

func (p *remoteProgress) Report(step string) {
	p.mu.Lock()
	same := step == p.last
	p.last = step
	p.mu.Unlock()
	if !same {
		_ = p.e.conn.Notify(context.Background(), methodProgress, progressParams{Token: p.token, Kind: "report", Message: step})
	}
}

func (p *remoteProgress) End(status string) {
	_ = p.e.conn.Notify(context.Background(), methodProgress, progressParams{Token: p.token, Kind: "end", Message: status})
}

// remoteFiles reads the server's open buffers first, the disk otherwise (a recipe.Buffers, so a run reads
// files confined to its roots).
type remoteFiles struct{ e *remoteEditor }

func (f remoteFiles) Buffer(name string) ([]byte, bool) {
	var r bufferReply
	if f.e.call(context.Background(), methodBuffer, pathParams{Path: name}, &r) != nil || !r.Open {
		return nil, false
	}
	return []byte(r.Text), true
}

func (f remoteFiles) ReadFile(name string) ([]byte, error) {
	if text, ok := f.Buffer(name); ok {
		return text, nil
	}
	return recipe.ReadRegularFile(name, recipe.DefaultMaxSize)
}
