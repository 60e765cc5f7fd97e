// Message dispatch: $/cancelRequest is handled on the read loop, before any queue; every other message
// runs on its own goroutine once the message before it has released the order.

package lsp

import (
	"context"
	"encoding/json"
	"log/slog"
	"runtime/debug"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// releaseOnStart lists requests that touch no document state, so later messages need not wait for
// them (an executeCommand may wait for the user's answer to a consent question).
var releaseOnStart = map[string]bool{"workspace/executeCommand": true}

// maxInflight bounds the messages queued or running at once.
const maxInflight = 4096

type releaseKey struct{}

// release lets the next message start. Notifications release when they are done (text sync stays in
// order); a request releases as soon as it has taken its snapshot (see Server.snapshot), so a request
// never holds back later messages while it waits for a check.
func release(ctx context.Context) {
	if f, ok := ctx.Value(releaseKey{}).(func()); ok {
		f()
	}
}

// dispatch is the connection's handler, wrapped by jsonrpc2.CancelHandler so every call's context is
// registered as the call arrives. It runs on the read loop and never blocks it.
func (s *Server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == "$/cancelRequest" {
		var p struct {
			ID jsonrpc2.ID `json:"id"`
		}
		if json.Unmarshal(req.Params(), &p) == nil {
			s.cancel(p.ID)
		}
		return reply(ctx, nil, nil)
	}
	s.inflight <- struct{}{} // back-pressure on a flood: the read loop waits once maxInflight are queued
	prev := s.order          // only the read loop touches s.order
	mine := make(chan struct{})
	s.order = mine
	done := sync.OnceFunc(func() { close(mine) })
	ctx = context.WithValue(ctx, releaseKey{}, done)
	go func() {
		defer func() { <-s.inflight }()
		defer done()
		defer func() {
			if r := recover(); r != nil { // a panic outside handle's own recovery: log it, keep serving
				slog.Error("lsp: dispatch panic", "method", req.Method(), "panic", r, "stack", string(debug.Stack()))
			}
		}()
		<-prev
		if releaseOnStart[req.Method()] {
			done()
		}
		_ = s.handle(ctx, reply, req)
	}()
	return nil
}
