// Work-done progress for agent runs: created when the client supports it, cancellable, reporting the
// current step only when it changes.

package lsp

import (
	"context"
	"sync"
)

type progress struct {
	s     *Server
	token string
	on    bool
	mu    sync.Mutex
	last  string
	ended bool
}

// beginProgress creates the token and sends begin; without client support it only logs.
func (s *Server) beginProgress(ctx context.Context, r *agentRun, title string) *progress {
	p := &progress{s: s, token: r.token}
	s.mu.Lock()
	supported := s.progress
	s.mu.Unlock()
	if supported {
		if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", map[string]any{"token": r.token}, nil); err == nil {
			p.on = true
			s.notify(ctx, "$/progress", map[string]any{"token": r.token, "value": map[string]any{"kind": "begin", "title": title, "cancellable": true, "message": "starting"}})
		}
	}
	s.runEvent(r, map[string]any{"kind": "start", "title": title, "progressToken": r.token})
	return p
}

func (p *progress) report(step string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || p.ended || step == p.last {
		return
	}
	p.last = step
	p.s.notify(context.Background(), "$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "report", "message": step}})
}

func (p *progress) end(status string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || p.ended {
		return
	}
	p.ended = true
	p.s.notify(context.Background(), "$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "end", "message": status}})
}
