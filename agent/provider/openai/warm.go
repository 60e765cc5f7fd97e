// Warm: the provider's connection opened (provider.Preconnect) and the first request's JSON encoders
// built ahead of it (the SDK builds them by reflection on first use, ~2 ms of the first request's path at
// start-up).

package openai

import "github.com/goose-ls/goose-ls/agent/provider"

// Warm opens the connection to the provider's host (provider.Preconnect) and marshals a request with every
// kind of content through the API this provider speaks.
func (p *Provider) Warm() {
	if p.baseURL != "" {
		provider.Preconnect(p.baseURL)
	}
	req := provider.WarmRequest()
	if p.responses {
		if params, err := responsesParams(req); err == nil {
			_, _ = params.MarshalJSON()
		}
		return
	}
	if params, err := p.params(req); err == nil {
		_, _ = params.MarshalJSON()
	}
}
