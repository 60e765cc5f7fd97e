// Warm: the first request's JSON encoders built ahead of it (the SDK builds them by reflection on first
// use).

package anthropic

import "github.com/goose-ls/goose-ls/agent/provider"

// Warm marshals a request with every kind of content.
func (p *Provider) Warm() {
	if params, err := buildParams(provider.WarmRequest()); err == nil {
		_, _ = params.MarshalJSON()
	}
}
