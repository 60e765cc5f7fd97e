// Package scripted is an in-process Provider that answers from a script at once: for benchmarks of the
// loop's own overhead (tests of the wire formats use wiretest's HTTP servers).
package scripted

import (
	"context"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// Provider answers the n-th call with Script(n, req).
type Provider struct {
	Script func(n int, req provider.Request) provider.Message
	n      int
}

// Name is "scripted".
func (p *Provider) Name() string { return "scripted" }

// Stream returns the scripted message, streaming its reasoning and its text as one delta each.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return provider.Response{}, err
	}
	m := p.Script(p.n, req)
	p.n++
	if m.Thinking != "" {
		onDelta(provider.Delta{Thinking: m.Thinking})
	}
	if m.Text != "" {
		onDelta(provider.Delta{Text: m.Text})
	}
	m.Role = provider.Assistant
	return provider.Response{Message: m, Usage: provider.Usage{InputTokens: 100, OutputTokens: 10}}, nil
}
