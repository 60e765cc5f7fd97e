// Work-done progress for agent runs: created when the client supports it, cancellable, reporting the
// current step only when it changes.

package lsp

import (
	"context"
	"sync"
)

// progress is one run's work-done progress (nil reports nothing).
type progress struct {
	s     *Server
	token string
	on    bool
	mu    sync.Mutex
	last  string
	ended bool
}

// beginProgress creates the token and sends begin when the client supports work-done progress.
func (s *Server) beginProgress(ctx context.Context, token, title string) *progress {
	p := &progress{s: s, token: token}
	s.mu.Lock()
	supported := s.progress
	s.mu.Unlock()
	if supported {
		if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", map[string]any{"token": token}, nil); err == nil {
			p.on = true
			s.notify(ctx, "$/progress", map[string]any{"token": token, "value": map[string]any{"kind": "begin", "title": title, "cancellable": true, "message": "starting"}})
		}
	}
	return p
}

// Report sends a step (a nil progress, before the run's start, reports nothing).
func (p *progress) Report(step string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || p.ended || step == p.last {
		return
	}
	p.last = step
	p.s.notify(context.Background(), "$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "report", "message": step}})
}

// End ends the progress with status.
func (p *progress) End(status string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || p.ended {
		return
	}
	p.ended = true
	p.s.notify(context.Background(), "$/progress", map[string]any{"token": p.token, "value": map[string]any{"kind": "end", "message": status}})
}
