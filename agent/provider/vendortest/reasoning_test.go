// goose's treatment of reasoning models (its Responses-model names) and of the configured thinking effort,
// asserted on the JSON each local server received: chat completions, the Responses API and OpenRouter.
package vendortest

import (
	"context"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// sent streams one request with model and effort and returns the body the server received.
func sent(t *testing.T, serve func(wiretest.Script) *wiretest.Server, cfg openai.Config, model, effort string) map[string]any {
	t.Helper()
	srv := serve(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	cfg.BaseURL, cfg.APIKey = srv.URL+"/v1/", "sk-test"
	temp := 0.3
	req := provider.Request{Model: model, System: "SYS", Temperature: &temp, MaxTokens: 900, ThinkingEffort: effort,
		Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}
	if _, err := openai.New(cfg).Stream(context.Background(), req, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	return srv.Requests()[0]
}

func TestChatCompletionsReasoningModels(t *testing.T) {
	cases := []struct {
		model, effort                string
		wantModel, wantRole, wantEff string
		temperature                  bool
		maxKey                       string
	}{
		{"gpt-4o", "high", "gpt-4o", "system", "", true, "max_tokens"},         // not a reasoning model: effort ignored
		{"llama-3-high", "", "llama-3-high", "system", "", true, "max_tokens"}, // a suffix only counts on a reasoning model
		{"gpt-5-mini", "", "gpt-5-mini", "developer", "", false, "max_completion_tokens"},
		{"gpt-5-mini-low", "", "gpt-5-mini", "developer", "low", false, "max_completion_tokens"},      // the suffix as written
		{"o3-xhigh", "", "o3", "developer", "xhigh", false, "max_completion_tokens"},                  // even one the model lacks
		{"gpt-5-mini-low", "high", "gpt-5-mini", "developer", "high", false, "max_completion_tokens"}, // the setting wins here
		{"gpt-5-mini", "max", "gpt-5-mini", "developer", "high", false, "max_completion_tokens"},      // no xhigh on gpt-5-mini
		{"gpt-5.5", "max", "gpt-5.5", "developer", "xhigh", false, "max_completion_tokens"},
		{"gpt-5-pro", "low", "gpt-5-pro", "developer", "high", false, "max_completion_tokens"},
		{"openai/o4-mini", "off", "openai/o4-mini", "developer", "none", false, "max_completion_tokens"},
	}
	for _, c := range cases {
		body := sent(t, wiretest.OpenAI, openai.Config{IncludeUsage: true}, c.model, c.effort)
		msgs := body["messages"].([]any)
		role := msgs[0].(map[string]any)["role"]
		eff, _ := body["reasoning_effort"].(string)
		_, hasTemp := body["temperature"]
		_, hasMax := body[c.maxKey]
		if body["model"] != c.wantModel || role != c.wantRole || eff != c.wantEff || hasTemp != c.temperature || !hasMax {
			t.Errorf("%s (effort %q): model %v, role %v, reasoning_effort %q, temperature %v, %s %v; body %v",
				c.model, c.effort, body["model"], role, eff, hasTemp, c.maxKey, hasMax, body)
		}
	}
}

func TestResponsesReasoningEffort(t *testing.T) {
	cases := []struct{ model, effort, wantModel, want string }{
		{"gpt-5-mini", "", "gpt-5-mini", ""},             // nothing configured: the API's default
		{"gpt-5-mini", "medium", "gpt-5-mini", "medium"}, // the setting
		{"gpt-5-mini-low", "high", "gpt-5-mini", "low"},  // the suffix wins here
		{"gpt-5-mini-xhigh", "", "gpt-5-mini", "high"},   // mapped to what the model supports
		{"gpt-5-mini-none", "", "gpt-5-mini", "none"},
		{"gpt-5.4", "off", "gpt-5.4", "none"},
		{"gpt-5.4", "max", "gpt-5.4", "xhigh"},
	}
	for _, c := range cases {
		body := sent(t, wiretest.OpenAIResponses, openai.Config{Responses: true}, c.model, c.effort)
		got := ""
		if r, ok := body["reasoning"].(map[string]any); ok {
			got, _ = r["effort"].(string)
			if r["summary"] != "auto" {
				t.Errorf("%s: reasoning %v", c.model, r)
			}
		}
		if body["model"] != c.wantModel || got != c.want {
			t.Errorf("%s (effort %q): model %v, reasoning effort %q, want %s %q", c.model, c.effort, body["model"], got, c.wantModel, c.want)
		}
	}
}

// OpenRouter takes a configured effort as its reasoning object; a suffix alone stays reasoning_effort.
func TestOpenRouterReasoningObject(t *testing.T) {
	body := sent(t, wiretest.OpenAI, openai.Config{OpenRouter: true, IncludeUsage: true}, "openai/gpt-5", "max")
	r, _ := body["reasoning"].(map[string]any)
	if _, dup := body["reasoning_effort"]; r == nil || r["effort"] != "high" || dup {
		t.Errorf("configured effort: %v", body)
	}
	body = sent(t, wiretest.OpenAI, openai.Config{OpenRouter: true, IncludeUsage: true}, "openai/gpt-5-low", "")
	if _, obj := body["reasoning"]; obj || body["reasoning_effort"] != "low" {
		t.Errorf("suffix only: %v", body)
	}
}

func TestThinkingEffortSetting(t *testing.T) {
	cases := []struct {
		vars map[string]string
		want string
	}{
		{nil, ""},
		{map[string]string{"GOOSE_THINKING_EFFORT": "HIGH"}, "high"},
		{map[string]string{"GOOSE_THINKING_EFFORT": "xhigh"}, "max"},
		{map[string]string{"GOOSE_THINKING_EFFORT": "disabled"}, "off"},
		{map[string]string{"GOOSE_THINKING_EFFORT": "med", "CLAUDE_THINKING_TYPE": "disabled"}, "medium"},
		{map[string]string{"GOOSE_THINKING_EFFORT": "lots", "CLAUDE_THINKING_TYPE": "adaptive"}, "high"}, // unparsable: the older settings
		{map[string]string{"CLAUDE_THINKING_TYPE": "disabled"}, "off"},
		{map[string]string{"CLAUDE_THINKING_TYPE": "odd", "CLAUDE_THINKING_ENABLED": "true"}, "high"},
		{map[string]string{"CLAUDE_THINKING_ENABLED": "false"}, "off"},
		{map[string]string{"CLAUDE_THINKING_ENABLED": "yes", "GEMINI3_THINKING_LEVEL": "LOW"}, "low"},
		{map[string]string{"GEMINI3_THINKING_LEVEL": "medium"}, ""},
	}
	for _, c := range cases {
		got := provider.ThinkingEffortSetting(func(k string) (string, bool) { v, ok := c.vars[k]; return v, ok })
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.vars, got, c.want)
		}
	}
}
