// goose's routing between chat completions and the Responses API (wire_api first), and its base-path rules.
package openai

import "testing"

func TestUseResponses(t *testing.T) {
	for _, c := range []struct {
		provider, model, path string
		want                  bool
	}{
		{"openai", "gpt-5", DefaultChatPath, true},
		{"openai", "gpt-5-mini", DefaultChatPath, true},
		{"openai", "gpt-5.1-codex", DefaultChatPath, true},
		{"openai", "gpt-5.4-xhigh", DefaultChatPath, true},
		{"openai", "o3", DefaultChatPath, true},
		{"openai", "o4-mini", DefaultChatPath, true},
		{"openai", "goose-o3-mini", DefaultChatPath, true},
		{"openai", "openai/gpt-5", "v1/chat/completions/", true},
		{"openai", "GPT-5", DefaultChatPath, true},
		{"openai", "gpt-4o", DefaultChatPath, false},
		{"openai", "gpt-oss-120b", DefaultChatPath, false},
		{"openai", "gpt-50", DefaultChatPath, false},
		{"openai", "o3x", DefaultChatPath, false},
		{"openai", "gpt-4o", "v1/responses", true},                               // the path decides
		{"groq", "gpt-5.2-codex", "openai/v1/chat/completions", false},           // a custom chat path never goes
		{"custom", "gpt-5", "/v1/chat/completions", false},                       // goose's quirk: a leading / makes it custom
		{"custom", "gpt-5", "api/generate", true},                                // neither: the model decides
		{"nearai", "openai/gpt-5", DefaultChatPath, false},                       // nearai never
		{"custom_x", "gpt-5-mini", DeriveBasePath("/v1"), true},                  // a custom base_url ending in /v1
		{"custom_x", "gpt-5-mini", DeriveBasePath("/api/v1"), false},             // api/v1/chat/completions is custom
		{"custom_x", "gpt-5-mini", DeriveBasePath("/v1/chat/completions"), true}, // the default path itself
	} {
		if got := UseResponses(c.provider, c.model, c.path); got != c.want {
			t.Errorf("UseResponses(%s, %s, %s) = %v", c.provider, c.model, c.path, got)
		}
	}
}

func TestBasePaths(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{DeriveBasePath(""), "v1/chat/completions"},
		{DeriveBasePath("/"), "v1/chat/completions"},
		{DeriveBasePath("/v1"), "v1/chat/completions"},
		{DeriveBasePath("/v1/"), "v1/chat/completions"},
		{DeriveBasePath("/api/paas/v4"), "api/paas/v4/chat/completions"},
		{DeriveBasePath("/openai/chat/completions"), "openai/chat/completions"},
		{DeriveBasePath("/compatible-mode/v1"), "compatible-mode/v1/chat/completions"},
		{DeriveBasePath("/zen/go"), "zen/go/v1/chat/completions"},
		{DeriveBasePath("/vx"), "vx/v1/chat/completions"},
		{ResponsesPath("v1/chat/completions"), "v1/responses"},
		{ResponsesPath("openai/v1/chat/completions"), "openai/v1/responses"},
		{ResponsesPath("/v1/chat/completions"), "/v1/responses"},
		{ResponsesPath("v1/responses/"), "v1/responses"},
		{ResponsesPath("api/generate"), "v1/responses"},
		{ResponsesPath("/api/generate"), "/v1/responses"},
	} {
		if c.got != c.want {
			t.Errorf("got %q want %q", c.got, c.want)
		}
	}
	for model, want := range map[string][2]string{
		"gpt-5-mini-high": {"gpt-5-mini", "high"}, "o3-LOW": {"o3", "low"}, "gpt-5": {"gpt-5", ""}, "gpt-5-nano": {"gpt-5-nano", ""},
	} {
		if b, e := SplitEffort(model); b != want[0] || e != want[1] {
			t.Errorf("SplitEffort(%s) = %s, %s", model, b, e)
		}
	}
}

// Route: a declarative provider's wire_api decides before goose's routing; a responses base path keeps
// its chat/completions sibling.
func TestRouteWithWireAPI(t *testing.T) {
	for _, c := range []struct {
		provider, model, base, wire string
		responses                   bool
		path                        string
	}{
		{"custom", "Llama", DeriveBasePath("/proxy/v2/responses"), "responses", true, "proxy/v2/responses"},
		{"custom", "llama", DeriveBasePath("/proxy/v2/responses"), "chat_completions", false, "proxy/v2/chat/completions"},
		{"custom", "gpt-5", DeriveBasePath("/v1/chat/completions"), "chat_completions", false, "v1/chat/completions"},
		{"custom", "gpt-5", DeriveBasePath("/v1/chat/completions"), "", true, "v1/responses"},
		{"custom", "gpt-4o", DeriveBasePath("/v1"), "responses", true, "v1/responses"},
		{"custom", "gpt-4o", "api/generate", "chat_completions", false, "api/generate"},
		{"nearai", "openai/gpt-5", DefaultChatPath, "", false, DefaultChatPath},
		{"nearai", "m", DefaultChatPath, "responses", true, "v1/responses"},
		{"perplexity", "sonar", "v1/sonar", "", false, "v1/sonar"},
	} {
		responses, path := Route(c.provider, c.model, c.base, c.wire)
		if responses != c.responses || path != c.path {
			t.Errorf("Route(%s, %s, %s, %q) = %v %s, want %v %s", c.provider, c.model, c.base, c.wire, responses, path, c.responses, c.path)
		}
	}
	if got := DeriveBasePath("/proxy/v2/responses/"); got != "proxy/v2/responses/" {
		t.Errorf("a responses base path: %q", got)
	}
}
