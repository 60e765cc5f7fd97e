// The server side: an lsp.Agent that starts the agent process on the first agent command and answers
// its editor/* requests from the server's lsp.Editor.

package agentrelay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe"
)

// Starter starts an agent process and returns the connection to it (its stdin and stdout) and a function
// that ends it.
type Starter func() (io.ReadWriteCloser, error)

// New returns the lsp.Options.Agent factory of a relay to the agent that start starts.
func New(start Starter) func(lsp.Editor) lsp.Agent {
	return func(ed lsp.Editor) lsp.Agent {
		return &Relay{ed: ed, start: start, progress: map[string]lsp.Progress{}}
	}
}

// Relay is one server's agent in another process.
type Relay struct {
	ed    lsp.Editor
	start Starter

	mu       sync.Mutex
	conn     jsonrpc2.Conn // nil until the first command, and again after the agent process ended
	closed   bool
	progress map[string]lsp.Progress // the runs' work-done progress by token
	// running are the runs the agent process started and has not reported done, in start order
	running []string
	// doneEarly are runs reported done before the reply that started them arrived
	doneEarly map[string]bool
}

// errNoAgent answers a command when the agent process cannot start.
func errNoAgent(err error) error {
	return &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "the goose agent could not start: " + err.Error()}
}

// connect returns the connection to the agent process, starting it when there is none.
func (r *Relay) connect() (jsonrpc2.Conn, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, errors.New("the server is closing")
	}
	if r.conn != nil {
		return r.conn, nil
	}
	rwc, err := r.start()
	if err != nil {
		return nil, err
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	conn.Go(context.Background(), handler(r.serve))
	r.conn = conn
	go func() {
		<-conn.Done()
		r.mu.Lock()
		closing := r.closed
		if r.conn == conn {
			r.conn = nil
		}
		r.mu.Unlock()
		if !closing {
			r.agentEnded(conn.Err())
		}
	}()
	return conn, nil
}

// Execute passes the command to the agent process and its answer (result or JSON-RPC error) back.
func (r *Relay) Execute(ctx context.Context, command string, arg json.RawMessage) (any, error) {
	conn, err := r.connect()
	if err != nil {
		return nil, errNoAgent(err)
	}
	var res json.RawMessage
	_, err = conn.Call(ctx, MethodExecute, ExecuteParams{Command: command, Arg: arg}, &res)
	if err == nil {
		var started struct {
			RunID string `json:"runId"`
		}
		if json.Unmarshal(res, &started) == nil && started.RunID != "" && command != "goose.cancel" {
			r.mu.Lock()
			if r.doneEarly[started.RunID] {
				delete(r.doneEarly, started.RunID)
			} else {
				r.running = append(r.running, started.RunID)
			}
			r.mu.Unlock()
		}
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: fmt.Sprintf("%s: the agent process: %v", command, err)}
	}
	return res, nil
}

// CancelProgress passes the cancel on (no agent process: no run to cancel).
func (r *Relay) CancelProgress(token string) {
	r.mu.Lock()
	conn := r.conn
	r.mu.Unlock()
	if conn != nil {
		_ = conn.Notify(context.Background(), MethodCancelProgress, tokenParams{Token: token})
	}
}

// Close ends the agent process (closing its stdin; it cancels its runs and exits).
func (r *Relay) Close() error {
	r.mu.Lock()
	conn := r.conn
	r.closed, r.conn = true, nil
	r.mu.Unlock()
	if conn == nil {
		return nil
	}
	err := conn.Close()
	select {
	case <-conn.Done():
	case <-time.After(5 * time.Second):
	}
	return err
}

// serve answers one editor/* message of the agent process.
func (r *Relay) serve(ctx context.Context, method string, params json.RawMessage) (any, error) {
	ed := r.ed
	switch method {
	case methodState:
		s, c := ed.Settings(), ed.Caps()
		return state{Root: ed.Root(), NoSessions: s.NoSessions, ReviewEdits: s.ReviewEdits, UTF8: c.UTF8,
			CreateFiles: c.CreateFiles, DeleteFiles: c.DeleteFiles, Annotations: c.ChangeAnnotations, Progress: c.Progress}, nil
	case methodDoc:
		var p uriParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		d := ed.Doc(protocol.DocumentURI(p.URI))
		if d == nil {
			return nil, nil
		}
		return docReply{Text: string(d.Text), Version: d.Version}, nil
	case methodAwaitText:
		var p awaitParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		text, ok := ed.AwaitText(protocol.DocumentURI(p.URI), []byte(p.Want), time.Duration(p.TimeoutMs)*time.Millisecond)
		return awaitReply{Text: text, OK: ok}, nil
	case methodCall:
		var p callParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		var res json.RawMessage
		if err := ed.Call(ctx, p.Method, p.Params, &res); err != nil {
			return nil, err
		}
		return res, nil
	case methodNotify:
		var p callParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		if p.Method == "goose/runEvent" {
			r.noteRunEvent(p.Params)
		}
		ed.Notify(ctx, p.Method, p.Params)
		return nil, nil
	case methodBuffer:
		var p pathParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		if b, ok := ed.Files().(recipe.Buffers); ok {
			if text, open := b.Buffer(p.Path); open {
				return bufferReply{Text: string(text), Open: true}, nil
			}
		}
		return bufferReply{}, nil
	case methodProgressBegin:
		var p progressParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		prog := ed.BeginProgress(ctx, p.Token, p.Title)
		r.mu.Lock()
		r.progress[p.Token] = prog
		r.mu.Unlock()
		return nil, nil
	case methodProgress:
		var p progressParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		r.mu.Lock()
		prog := r.progress[p.Token]
		if p.Kind == "end" {
			delete(r.progress, p.Token)
		}
		r.mu.Unlock()
		if prog != nil {
			if p.Kind == "end" {
				prog.End(p.Message)
			} else {
				prog.Report(p.Message)
			}
		}
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.MethodNotFound, Message: "method not found: " + method}
}

// handler runs notifications in order on the read loop and each request on its own goroutine (a request
// may wait on the user, e.g. an approval, while the run's events keep flowing).
func handler(fn func(ctx context.Context, method string, params json.RawMessage) (any, error)) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if _, isCall := req.(*jsonrpc2.Call); !isCall {
			if _, err := fn(ctx, req.Method(), req.Params()); err != nil {
				slog.Debug("agentrelay: notification failed", "method", req.Method(), "error", err)
			}
			return nil
		}
		go func() {
			res, err := fn(ctx, req.Method(), req.Params())
			var rpcErr *jsonrpc2.Error
			if err != nil && !errors.As(err, &rpcErr) {
				err = &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
			}
			_ = reply(ctx, res, err)
		}()
		return nil
	}
}

// noteRunEvent forgets a run once the agent reports it done.
func (r *Relay) noteRunEvent(params json.RawMessage) {
	var e struct {
		RunID string `json:"runId"`
		Kind  string `json:"kind"`
		Agent string `json:"agent"`
	}
	if json.Unmarshal(params, &e) != nil || e.Kind != "done" || e.Agent != "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, id := range r.running {
		if id == e.RunID {
			r.running = append(r.running[:i], r.running[i+1:]...)
			return
		}
	}
	if r.doneEarly == nil {
		r.doneEarly = map[string]bool{}
	}
	r.doneEarly[e.RunID] = true // the reply that started it is still on its way
}

// agentEnded reports the end of an agent process the server did not close (it crashed or was killed):
// each unfinished run gets an error and a failed done event, and its progress ends, so no editor waits
// on it; the next agent command starts a new agent process.
func (r *Relay) agentEnded(err error) {
	why := "the goose agent process ended"
	if err != nil && !errors.Is(err, io.EOF) {
		why += ": " + err.Error()
	}
	slog.Warn("lsp: " + why)
	r.mu.Lock()
	runs := r.running
	progress := r.progress
	r.running, r.progress = nil, map[string]lsp.Progress{}
	r.mu.Unlock()
	ctx := context.Background()
	for _, id := range runs {
		r.ed.Notify(ctx, "goose/runEvent", map[string]any{"runId": id, "agent": "", "kind": "error", "text": why})
		r.ed.Notify(ctx, "goose/runEvent", map[string]any{"runId": id, "agent": "", "kind": "done", "status": "failed"})
	}
	for _, p := range progress {
		p.End("failed")
	}
	if len(runs) > 0 {
		r.ed.LogMessage(1, fmt.Sprintf("goose: %s; %d run(s) stopped", why, len(runs)))
	}
}
