// The top-level provider is resolved ahead of the run, once, and warmed (provider.Warmer).

package host

import (
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
)

// warmingProvider is a scripted provider that says when it is warmed.
type warmingProvider struct {
	*scripted.Provider
	warmed chan struct{}
}

func (w *warmingProvider) Warm() { close(w.warmed) }

func TestTopLevelProviderIsResolvedOnceAndWarmed(t *testing.T) {
	var mu sync.Mutex
	var asked []provider.Settings
	warmed := make(chan struct{})
	root := t.TempDir()
	rec := writeFile(t, root, "r.yaml", "version: 1.0.0\ntitle: T\ndescription: d\ninstructions: i\nprompt: go\nsettings:\n  goose_provider: recipeprov\n  temperature: 0.5\nextensions: []\n")
	h := New(Options{Env: testEnv(t), Providers: func(s provider.Settings) (provider.Setup, error) {
		mu.Lock()
		asked = append(asked, s)
		mu.Unlock()
		p := &warmingProvider{Provider: &scripted.Provider{Script: func(int, provider.Request) provider.Message {
			return provider.Message{Text: "done"}
		}}, warmed: warmed}
		return provider.Setup{Provider: provider.WithRetry(p, provider.DefaultRetry), Name: s.Provider, Model: s.Model}, nil
	}})
	defer h.Close()
	_, out := runToEnd(t, h, Request{RecipePath: rec, Root: root, Model: "climodel", NoSession: true}, &recordingFrontend{consent: true})
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s", out.Status)
	}
	<-warmed // through the retry wrapper; a provider never warmed would hang here
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 {
		t.Fatalf("want one resolution (the prefetched one used by the run), got %+v", asked)
	}
	if s := asked[0]; s.Provider != "recipeprov" || s.Model != "climodel" || s.Temperature == nil || *s.Temperature != 0.5 {
		t.Errorf("resolved %+v: want the recipe's provider and temperature with the request's model", s)
	}
}
