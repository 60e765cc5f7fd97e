// Package lsp is goose-ls's language server: protocol glue over go.lsp.dev (jsonrpc2 v0.10.0 + protocol
// v0.12.0) on the recipe engine. One file per concern; LSP types stay inside this package.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Options configure a server.
type Options struct {
	// Workers is the number of concurrent document checks (0: GOMAXPROCS).
	Workers int
	// Agent makes the server's agent (lsp/editoragent); nil: agent commands are refused.
	Agent func(Editor) Agent
	// CheckTimeout is the deadline of one document check (0: defaultCheckTimeout); the client's
	// checkTimeoutMs setting wins.
	CheckTimeout time.Duration
	// CheckHook, when set, runs at the start of every document check with the check's context and the
	// document's path (tests use it to make a check slow or panic deterministically).
	CheckHook func(ctx context.Context, path string)
}

// defaultCheckTimeout bounds a check whose document is hostile (issue 11: any file within 2 s).
const defaultCheckTimeout = 2 * time.Second

type lifecycle uint8

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// Server is one LSP session.
type Server struct {
	conn   jsonrpc2.Conn
	stream *stream
	opts   Options

	mu    sync.Mutex // guards everything below; never held across a call to the client
	state lifecycle
	docs  map[protocol.DocumentURI]*document
	// lost are documents whose text the server no longer knows (an edit did not fit them), until the
	// client sends their full text again (textsync.go)
	lost map[protocol.DocumentURI]*lostDocument
	// gen numbers every document event (open, change, close, loss); publications carry it
	gen uint64
	// roots are the workspace folders: the folders a recipe may make goose-ls read
	roots    []string
	utf8     bool // negotiated positionEncoding utf-8 (else utf-16)
	settings settings
	// renameFiles: the client applies RenameFile operations in workspace edits
	renameFiles bool
	// createFiles: the client applies CreateFile operations
	createFiles bool
	// changeAnnotations: the client understands annotated workspace edits
	changeAnnotations bool
	// deleteFiles: the client applies DeleteFile operations
	deleteFiles bool
	// progress: the client creates work-done progress tokens
	progress bool
	// root is the workspace folder agent runs work in
	root string
	// changed is closed (and replaced) whenever a document changes, waking awaitChange
	changed  chan struct{}
	exitCode int

	// agent answers the agent commands (nil: none)
	agent Agent

	// pending documents wait for a check worker; wake signals the workers
	pending []protocol.DocumentURI
	wake    chan struct{}

	// pubMu orders publications: a result older than the last one published for its URI is dropped
	pubMu   sync.Mutex
	lastPub map[protocol.DocumentURI]uint64

	// order is closed when the last dispatched message released the order (read loop only)
	order    chan struct{}
	inflight chan struct{}
	// checkCtx is the parent of every check's context: it ends with the server
	checkCtx context.Context
	cancel   func(jsonrpc2.ID)
	closed   chan struct{}
	once     sync.Once
}

// Serve runs a server on rwc until the client exits or the connection closes; it returns the process
// exit code (0 after shutdown + exit, 1 otherwise).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	s := newServer(rwc, opts)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	s.start(ctx)
	select {
	case <-s.conn.Done():
	case <-s.closed:
	case <-ctx.Done():
	}
	s.conn.Close()
	if s.agent != nil {
		_ = s.agent.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exitCode
}

func newServer(rwc io.ReadWriteCloser, opts Options) *Server {
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	st := newStream(rwc)
	s := &Server{
		conn: jsonrpc2.NewConn(st), stream: st, opts: opts,
		docs: map[protocol.DocumentURI]*document{}, exitCode: 1, changed: make(chan struct{}),
		lost: map[protocol.DocumentURI]*lostDocument{}, lastPub: map[protocol.DocumentURI]uint64{},
		wake: make(chan struct{}, 1), closed: make(chan struct{}),
		order: closedChan(), inflight: make(chan struct{}, maxInflight), checkCtx: context.Background(),
	}
	if opts.Agent != nil {
		s.agent = opts.Agent(serverEditor{s})
	}
	return s
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

func (s *Server) start(ctx context.Context) {
	s.checkCtx = ctx
	for i := 0; i < s.opts.Workers; i++ {
		go s.checkWorker(ctx)
	}
	h, cancel := jsonrpc2.CancelHandler(s.dispatch)
	s.cancel = cancel
	s.conn.Go(ctx, h)
}

// errCancelled is LSP's RequestCancelled.
var errCancelled = &jsonrpc2.Error{Code: -32800, Message: "request cancelled"}

// errNotInitialized is LSP's ServerNotInitialized.
var errNotInitialized = &jsonrpc2.Error{Code: -32002, Message: "server not initialized"}

type requestFn func(ctx context.Context, s *Server, params json.RawMessage) (any, error)
type notifyFn func(ctx context.Context, s *Server, params json.RawMessage) error

var (
	requests      = map[string]requestFn{}
	notifications = map[string]notifyFn{}
)

// decode unmarshals params, reporting InvalidParams on a mismatch.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		params = []byte("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}

// handle runs one message (on its own goroutine, in order: dispatch.go) and always replies; a call
// cancelled before or while it runs is answered with RequestCancelled.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	_, isCall := req.(*jsonrpc2.Call)
	defer func() {
		if r := recover(); r != nil {
			slog.Error("lsp: handler panic", "method", req.Method(), "panic", r, "stack", string(debug.Stack()))
			err = reply(ctx, nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: fmt.Sprintf("internal error in %s: %v", req.Method(), r)})
		}
	}()
	method := req.Method()
	if isCall && ctx.Err() != nil {
		return reply(ctx, nil, errCancelled) // cancelled while it waited for its turn
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if !isCall {
		if method == "exit" {
			s.exit()
			return reply(ctx, nil, nil)
		}
		fn, ok := notifications[method]
		if !ok || (state != stateInitialized && method != "initialized") {
			return reply(ctx, nil, nil) // notifications before initialize or unknown ones are dropped
		}
		if err := fn(ctx, s, req.Params()); err != nil {
			slog.Warn("lsp: notification failed", "method", method, "error", err)
		}
		return reply(ctx, nil, nil)
	}
	switch {
	case method == "initialize":
		if state != stateNew {
			return reply(ctx, nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "initialize sent twice"})
		}
	case state == stateNew:
		return reply(ctx, nil, errNotInitialized)
	case state == stateShutdown:
		return reply(ctx, nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "server is shut down"})
	}
	fn, ok := requests[method]
	if !ok {
		return reply(ctx, nil, &jsonrpc2.Error{Code: jsonrpc2.MethodNotFound, Message: "method not found: " + method})
	}
	result, ferr := fn(ctx, s, req.Params())
	if ctx.Err() != nil {
		result, ferr = nil, errCancelled
	}
	return reply(ctx, result, ferr)
}

func (s *Server) exit() {
	s.once.Do(func() { close(s.closed) })
}

// notify sends a notification to the client; it must not be called with s.mu held.
func (s *Server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(ctx, method, params); err != nil {
		slog.Debug("lsp: notify failed", "method", method, "error", err)
	}
}
