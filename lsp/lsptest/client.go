// Package lsptest is an in-process LSP client over net.Pipe for tests: it drives the real server over
// JSON-RPC and records what the server sends.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/lsp/agentrelay"
	"github.com/goose-ls/goose-ls/lsp/editoragent"
)

// Client is a test LSP client connected to a running server.
type Client struct {
	t     testing.TB
	Conn  jsonrpc2.Conn
	Raw   io.ReadWriteCloser // the client's end, for writing malformed frames
	mu    sync.Mutex
	diags map[protocol.DocumentURI]protocol.PublishDiagnosticsParams
	cond  *sync.Cond
	notes []jsonrpc2.Request
	// handlers answer server-to-client requests (workspace/applyEdit, window/showMessageRequest, …);
	// a request without a handler gets a null result.
	handlers map[string]func(params json.RawMessage) (any, error)
	// observers see notifications as they arrive (for timing in benchmarks)
	observers map[string]func(params json.RawMessage)
	// ExitCode receives the server's exit code when Serve returns.
	ExitCode chan int
}

// New starts a server and connects a client to it.
func New(t testing.TB) *Client {
	t.Helper()
	return NewWith(t, lsp.Options{})
}

// NewWith starts a server with opts and connects a client to it.
func NewWith(t testing.TB, opts lsp.Options) *Client {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	c := Connect(t, clientEnd)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.ExitCode <- lsp.Serve(ctx, serverEnd, withAgent(opts)) }()
	t.Cleanup(cancel)
	return c
}

// Connect is a client on a connection to a server elsewhere (e.g. a goose-ls process's stdin and stdout).
func Connect(t testing.TB, conn io.ReadWriteCloser) *Client {
	t.Helper()
	c := &Client{t: t, Raw: conn, diags: map[protocol.DocumentURI]protocol.PublishDiagnosticsParams{}, ExitCode: make(chan int, 1)}
	c.cond = sync.NewCond(&c.mu)
	ctx, cancel := context.WithCancel(context.Background())
	c.Conn = jsonrpc2.NewConn(jsonrpc2.NewStream(conn))
	c.Conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		cancel()
		c.Conn.Close()
	})
	return c
}

func (c *Client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	c.mu.Lock()
	c.notes = append(c.notes, req)
	if req.Method() == "textDocument/publishDiagnostics" {
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.diags[p.URI] = p
		}
	}
	c.cond.Broadcast()
	h := c.handlers[req.Method()]
	obs := c.observers[req.Method()]
	c.mu.Unlock()
	if obs != nil {
		obs(req.Params())
	}
	if _, isCall := req.(*jsonrpc2.Call); isCall && h != nil {
		res, err := h(req.Params())
		return reply(ctx, res, err)
	}
	return reply(ctx, nil, nil)
}

// Handle installs the answer to a server-to-client request method.
func (c *Client) Handle(method string, h func(params json.RawMessage) (any, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handlers == nil {
		c.handlers = map[string]func(json.RawMessage) (any, error){}
	}
	c.handlers[method] = h
}

// Observe calls fn with the params of each message with this method as it arrives.
func (c *Client) Observe(method string, fn func(params json.RawMessage)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.observers == nil {
		c.observers = map[string]func(json.RawMessage){}
	}
	c.observers[method] = fn
}

// Received returns the params of every message with this method the server sent so far.
func (c *Client) Received(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []json.RawMessage
	for _, r := range c.notes {
		if r.Method() == method {
			out = append(out, r.Params())
		}
	}
	return out
}

// WaitFor waits until a message with method satisfying pred (nil: any) arrives and returns its params.
func (c *Client) WaitFor(method string, pred func(params json.RawMessage) bool) json.RawMessage {
	c.t.Helper()
	return c.WaitForAfter(method, 0, pred)
}

// WaitForAfter is WaitFor among the messages with method that came after the first `after` of them (see
// Received), so an earlier message with the same content does not count.
func (c *Client) WaitForAfter(method string, after int, pred func(params json.RawMessage) bool) json.RawMessage {
	c.t.Helper()
	var found json.RawMessage
	c.waitUntil(20*time.Second, "no "+method+" arrived", func() bool {
		n := 0
		for _, r := range c.notes {
			if r.Method() != method {
				continue
			}
			if n++; n > after && (pred == nil || pred(r.Params())) {
				found = r.Params()
				return true
			}
		}
		return false
	})
	return found
}

// Call sends a request and decodes its result.
func (c *Client) Call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Conn.Call(ctx, method, params, result)
	return err
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) {
	if err := c.Conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// Initialize runs the handshake with the given client capabilities (nil: none) and returns the result.
func (c *Client) Initialize(capabilities map[string]any) map[string]any {
	c.t.Helper()
	return c.InitializeWith(capabilities, nil)
}

// NoDesktopHints are initializationOptions that turn the DESKTOP-FORM hints (on by default) off, for tests
// whose short fixtures are about something else.
var NoDesktopHints = map[string]any{"desktopHints": false}

// InitializeWith performs the handshake with initializationOptions (nil: none).
func (c *Client) InitializeWith(capabilities, options map[string]any) map[string]any {
	c.t.Helper()
	var res map[string]any
	params := map[string]any{"processId": 1, "rootUri": "file:///", "capabilities": capabilities}
	if options != nil {
		params["initializationOptions"] = options
	}
	if err := c.Call("initialize", params, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	c.Notify("initialized", map[string]any{})
	return res
}

// Open opens a document.
func (c *Client) Open(uri protocol.DocumentURI, lang, text string) {
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text}})
}

// Change sends one incremental change (a nil rng replaces the whole text).
func (c *Client) Change(uri protocol.DocumentURI, version int32, rng *protocol.Range, text string) {
	change := map[string]any{"text": text}
	if rng != nil {
		change["range"] = rng
	}
	c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": []any{change}})
}

// Diagnostics waits until diagnostics for uri at version (0: any) arrive and returns them.
func (c *Client) Diagnostics(uri protocol.DocumentURI, version uint32) []protocol.Diagnostic {
	c.t.Helper()
	var out []protocol.Diagnostic
	c.waitUntil(10*time.Second, fmt.Sprintf("no diagnostics for %s version %d", uri, version), func() bool {
		p, ok := c.diags[uri]
		if !ok || (version != 0 && p.Version != version) {
			return false
		}
		out = p.Diagnostics
		return true
	})
	return out
}

// waitUntil waits, with c.mu held while cond runs, until cond holds; after timeout the test fails with
// failure.
func (c *Client) waitUntil(timeout time.Duration, failure string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatal(failure)
		}
		c.cond.Wait()
	}
}

// Requests lists the methods the server has sent so far.
func (c *Client) Requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, r := range c.notes {
		out = append(out, r.Method())
	}
	return out
}

// Codes returns "CODE line:col-line:col" for each diagnostic.
func Codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%v %d:%d-%d:%d", d.Code, d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character))
	}
	return out
}

// Published reports whether the server ever published diagnostics for uri.
func (c *Client) Published(uri protocol.DocumentURI) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.diags[uri]
	return ok
}

// withAgent gives the server goose-ls's editor agent behind the relay the goose-ls binary uses (the
// agent serves in this process, over a pipe), unless opts has one.
func withAgent(opts lsp.Options) lsp.Options {
	if opts.Agent == nil {
		opts.Agent = agentrelay.New(editoragent.InProcess(editoragent.Options{}))
	}
	return opts
}
