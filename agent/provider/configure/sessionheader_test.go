// The session a request belongs to reaches the provider as goose sends it: the agent-session-id header on
// every engine, renamed by a definition's session_id_header_override, and removed (static headers
// included) when the request has no session.
package configure

import (
	"context"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
)

func TestSessionHeaderOnEveryEngine(t *testing.T) {
	cases := []struct {
		name, engine, override, path string
		start                        func(wiretest.Script) *wiretest.Server
		header                       string
	}{
		{"openai", "openai", "", "/v1", wiretest.OpenAI, "Agent-Session-Id"},
		{"openai renamed", "openai", `"session_id_header_override": "x-opencode-session",`, "/v1", wiretest.OpenAI, "X-Opencode-Session"},
		{"anthropic", "anthropic", "", "", wiretest.Anthropic, "Agent-Session-Id"},
		{"anthropic renamed", "anthropic", `"session_id_header_override": "x-my-session",`, "", wiretest.Anthropic, "X-My-Session"},
		{"ollama", "ollama", "", "", wiretest.OpenAI, "Agent-Session-Id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.start(wiretest.Replies(wiretest.Reply{Text: "one"}, wiretest.Reply{Text: "two"}))
			defer srv.Close()
			// a static header of the same name is replaced by the session, and dropped without one
			root := goosePathRoot(t, map[string]string{"s.json": `{"name": "custom_s", "engine": "` + tc.engine + `",
			  "display_name": "S", "api_key_env": "S_KEY", "base_url": "` + srv.URL + tc.path + `", ` + tc.override + `
			  "headers": {"` + tc.header + `": "static-value", "X-Other": "kept"},
			  "models": [{"name": "m", "context_limit": 1000}]}`})
			r, err := Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_s", "S_KEY": "k-1"}), provider.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			req := provider.Request{Model: r.Model, Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}
			for _, ctx := range []context.Context{sessionctx.WithSession(context.Background(), "20261128_7"), context.Background()} {
				if _, err := r.Provider.Stream(ctx, req, func(provider.Delta) {}); err != nil {
					t.Fatal(err)
				}
			}
			h := srv.Headers()
			if len(h) != 2 {
				t.Fatalf("%d requests", len(h))
			}
			if got := h[0].Values(tc.header); len(got) != 1 || got[0] != "20261128_7" {
				t.Errorf("with a session: %s = %q", tc.header, got)
			}
			if got := h[1].Values(tc.header); len(got) != 0 {
				t.Errorf("without a session: %s = %q, want none", tc.header, got)
			}
			if tc.header != "Agent-Session-Id" && h[0].Get("Agent-Session-Id") != "" {
				t.Errorf("renamed, yet agent-session-id = %q", h[0].Get("Agent-Session-Id"))
			}
			if h[0].Get("X-Other") != "kept" || h[1].Get("X-Other") != "kept" {
				t.Errorf("other static headers: %q %q", h[0].Get("X-Other"), h[1].Get("X-Other"))
			}
		})
	}
}
