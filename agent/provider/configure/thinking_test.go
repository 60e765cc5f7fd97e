// Where goose sends a model's reasoning back: every OpenAI-compatible server (a declarative provider
// unless its preserves_thinking is false, the openai provider pointed elsewhere), never api.openai.com.
package configure

import (
	"context"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// sentBack runs two turns against a server that reasons, returning whether the second request carried the
// first turn's reasoning.
func sentBack(t *testing.T, vars func(url string) map[string]string) bool {
	t.Helper()
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Reasoning: "thinking it over", Text: "first"}, wiretest.Reply{Text: "second"}))
	defer srv.Close()
	r, err := Resolve(lookup(vars(srv.URL)), provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []provider.Message{{Role: provider.User, Text: "hi"}}
	resp, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model, Messages: msgs}, func(provider.Delta) {})
	if err != nil || resp.Message.Thinking != "thinking it over" {
		t.Fatalf("%+v %v", resp.Message, err)
	}
	msgs = append(msgs, resp.Message, provider.Message{Role: provider.User, Text: "more"})
	if _, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model, Messages: msgs}, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	assistant := srv.Requests()[1]["messages"].([]any)[1].(map[string]any)
	return assistant["reasoning_content"] == "thinking it over"
}

func TestReasoningSentBackWhereGooseSendsIt(t *testing.T) {
	custom := func(preserves string) func(string) map[string]string {
		return func(url string) map[string]string {
			root := goosePathRoot(t, map[string]string{"r.json": `{"name": "custom_r", "engine": "openai", "display_name": "R",
			  "api_key_env": "R_KEY", "base_url": "` + url + `/v1", ` + preserves + `
			  "models": [{"name": "reasoner", "context_limit": 1000}]}`})
			return map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_r", "R_KEY": "k"}
		}
	}
	if !sentBack(t, custom("")) {
		t.Error("preserves_thinking absent: reasoning not sent back")
	}
	if !sentBack(t, custom(`"preserves_thinking": true,`)) {
		t.Error("preserves_thinking true: reasoning not sent back")
	}
	if sentBack(t, custom(`"preserves_thinking": false,`)) {
		t.Error("preserves_thinking false: reasoning sent back")
	}
	if !sentBack(t, func(url string) map[string]string {
		return map[string]string{"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "deepseek-chat", "OPENAI_HOST": url, "OPENAI_API_KEY": "k"}
	}) {
		t.Error("openai provider on a compatible server: reasoning not sent back")
	}
	for host, want := range map[string]bool{"https://api.openai.com": true, "https://eu.api.openai.com": true,
		"https://API.OPENAI.COM:443": true, "https://api.openai.com.example": false, "http://127.0.0.1:8080": false} {
		if isOpenAIHost(host) != want {
			t.Errorf("isOpenAIHost(%s) = %v", host, !want)
		}
	}
}
