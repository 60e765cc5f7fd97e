// Warm: the provider's connection opened (provider.Preconnect) and the first request's JSON encoders
// built ahead of it (the SDK builds them by reflection on first use).

package anthropic

import "github.com/goose-ls/goose-ls/agent/provider"

// Warm opens the connection to the provider's host (provider.Preconnect) and marshals a request with every
// kind of content.
func (p *Provider) Warm() {
	provider.Preconnect(p.baseURL)
	if params, err := buildParams(provider.WarmRequest()); err == nil {
		_, _ = params.MarshalJSON()
	}
}
