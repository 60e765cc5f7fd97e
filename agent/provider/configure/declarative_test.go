// goose's declarative providers end to end against scripted local servers: custom_providers files, built-ins
// redirected through their ${VAR} host, each engine's URL and key rules, and Responses routing.
package configure

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// goosePathRoot makes a GOOSE_PATH_ROOT whose config/custom_providers holds files (name → JSON).
func goosePathRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "config", "custom_providers")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// askOnce resolves and streams one reply, returning the reply text.
func askOnce(t *testing.T, vars map[string]string) (provider.Setup, string) {
	t.Helper()
	r, err := Resolve(lookup(vars), provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model,
		Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {})
	if err != nil {
		t.Fatal(err)
	}
	return r, resp.Message.Text
}

func assertRequest(t *testing.T, srv *wiretest.Server, path, model string, header http.Header) {
	t.Helper()
	if got := srv.Paths(); len(got) != 1 || got[0] != path {
		t.Errorf("paths %v, want [%s]", got, path)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0]["model"] != model {
		t.Fatalf("requests %v, want model %s", reqs, model)
	}
	got := srv.Headers()[0]
	for k := range header {
		if got.Get(k) != header.Get(k) {
			t.Errorf("header %s = %q, want %q", k, got.Get(k), header.Get(k))
		}
	}
}

func TestCustomProviderFromConfigFolderReachesLocalServer(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "from custom"}))
	defer srv.Close()
	root := goosePathRoot(t, map[string]string{"custom_local.json": `{
	  "name": "custom_local", "engine": "openai", "display_name": "Local", "description": "mine",
	  "api_key_env": "CUSTOM_LOCAL_API_KEY", "base_url": "` + srv.URL + `/${LOCAL_PREFIX}v1",
	  "env_vars": [{"name": "LOCAL_PREFIX", "secret": true}],
	  "models": [{"name": "qwen-coder", "context_limit": 32000}],
	  "headers": {"X-Team": "team-secret-99"}, "timeout_seconds": 30}`})
	r, text := askOnce(t, map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_local", "CUSTOM_LOCAL_API_KEY": "ck-123456", "LOCAL_PREFIX": "tenant-77/"})
	if text != "from custom" || r.Name != "custom_local" || r.Model != "qwen-coder" || r.ContextLimit != 32000 {
		t.Errorf("setup %+v text %q", r, text)
	}
	if !slices.Contains(r.Secrets, "tenant-77/") {
		t.Errorf("secret URL variable not registered: %q", r.Secrets)
	}
	assertRequest(t, srv, "/tenant-77/v1/chat/completions", "qwen-coder", http.Header{"Authorization": {"Bearer ck-123456"}, "X-Team": {"team-secret-99"}})
	if !slices.Contains(r.Secrets, "ck-123456") || !slices.Contains(r.Secrets, "team-secret-99") {
		t.Errorf("secrets %q", r.Secrets)
	}
}

// goose 1.38 sends a gpt-5/o-series model of a custom provider whose URL ends in /v1 to /v1/responses.
func TestCustomProviderEndingInV1UsesResponsesForGPT5(t *testing.T) {
	srv := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "over responses"}))
	defer srv.Close()
	root := goosePathRoot(t, map[string]string{"gw.json": `{"name":"custom_gw","engine":"openai","display_name":"GW",
	  "api_key_env":"GW_KEY","base_url":"` + srv.URL + `/v1","models":[{"name":"gpt-5-mini","context_limit":400000}]}`})
	_, text := askOnce(t, map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_gw", "GW_KEY": "gw-key-1"})
	if text != "over responses" {
		t.Errorf("text %q", text)
	}
	assertRequest(t, srv, "/v1/responses", "gpt-5-mini", http.Header{"Authorization": {"Bearer gw-key-1"}})
}

func TestCustomFileReplacesBuiltinOfTheSameName(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "local groq"}))
	defer srv.Close()
	root := goosePathRoot(t, map[string]string{"groq.json": `{"name":"groq","engine":"openai","display_name":"Groq here",
	  "api_key_env":"GROQ_API_KEY","base_url":"` + srv.URL + `/openai/v1/chat/completions","models":[{"name":"llama","context_limit":8000}]}`})
	_, text := askOnce(t, map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "groq", "GROQ_API_KEY": "gsk-abcdef"})
	if text != "local groq" {
		t.Errorf("text %q", text)
	}
	assertRequest(t, srv, "/openai/v1/chat/completions", "llama", http.Header{"Authorization": {"Bearer gsk-abcdef"}})
}

func TestBuiltinRedirectedThroughItsHostVariable(t *testing.T) {
	t.Run("lmstudio (openai engine, optional key)", func(t *testing.T) {
		srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "lm"}))
		defer srv.Close()
		vars := map[string]string{"GOOSE_PROVIDER": "lmstudio", "LMSTUDIO_HOST": srv.URL, "GOOSE_MODEL": "qwen3-8b", "LMSTUDIO_API_KEY": "lm-key-42"}
		r, _ := askOnce(t, vars)
		assertRequest(t, srv, "/v1/chat/completions", "qwen3-8b", http.Header{"Authorization": {"Bearer lm-key-42"}})
		if !slices.Contains(r.Secrets, "lm-key-42") {
			t.Errorf("secrets %q", r.Secrets)
		}
		// no key: lmstudio does not require one, and none is sent
		srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "lm"}))
		defer srv2.Close()
		askOnce(t, map[string]string{"GOOSE_PROVIDER": "lmstudio", "LMSTUDIO_HOST": srv2.URL, "GOOSE_MODEL": "qwen3-8b"})
		if h := srv2.Headers()[0].Get("Authorization"); h != "" {
			t.Errorf("Authorization %q sent without a key", h)
		}
	})
	t.Run("zai (anthropic engine)", func(t *testing.T) {
		srv := wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "zai"}))
		defer srv.Close()
		r, text := askOnce(t, map[string]string{"GOOSE_PROVIDER": "zai", "ZAI_BASE_URL": srv.URL + "/api/anthropic", "ZHIPU_API_KEY": "zhipu-key-7"})
		if text != "zai" || r.Model != "glm-5.2" || r.ContextLimit != 1000000 || r.Provider.Name() != "zai" {
			t.Errorf("setup %+v text %q", r, text)
		}
		assertRequest(t, srv, "/api/anthropic/v1/messages", "glm-5.2", http.Header{"X-Api-Key": {"zhipu-key-7"}})
	})
	t.Run("moonshot (whole URL in the variable)", func(t *testing.T) {
		srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "kimi"}))
		defer srv.Close()
		askOnce(t, map[string]string{"GOOSE_PROVIDER": "moonshot", "MOONSHOT_BASE_URL": srv.URL + "/v1/chat/completions", "MOONSHOT_API_KEY": "ms-key-1"})
		assertRequest(t, srv, "/v1/chat/completions", "kimi-k2-0711-preview", http.Header{"Authorization": {"Bearer ms-key-1"}})
	})
	t.Run("zhipu (a v4 path)", func(t *testing.T) {
		srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "glm"}))
		defer srv.Close()
		askOnce(t, map[string]string{"GOOSE_PROVIDER": "zhipu", "ZHIPU_BASE_URL": srv.URL + "/api/paas/v4", "ZHIPU_API_KEY": "zp-key-1"})
		assertRequest(t, srv, "/api/paas/v4/chat/completions", "glm-4.5", http.Header{"Authorization": {"Bearer zp-key-1"}})
	})
}

func TestOllamaEngineSendsNoKeyAndAddsTheDefaultPort(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "llama"}))
	defer srv.Close()
	hostPort := strings.TrimPrefix(srv.URL, "http://")
	root := goosePathRoot(t, map[string]string{"o.json": `{"name":"custom_box","engine":"ollama","display_name":"Box",
	  "api_key_env":"BOX_KEY","base_url":"` + hostPort + `","models":[{"name":"qwen3","context_limit":40000}]}`})
	askOnce(t, map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_box", "BOX_KEY": "never-sent"})
	assertRequest(t, srv, "/v1/chat/completions", "qwen3", nil)
	if h := srv.Headers()[0].Get("Authorization"); h != "" {
		t.Errorf("ollama engine sent %q", h)
	}
	for in, want := range map[string]string{"box": "http://box:11434/", "https://box": "https://box/", "http://box:80": "http://box:80/", "box:8080/x": "http://box:8080/x/"} {
		if got, err := ollamaBase(in); err != nil || got != want {
			t.Errorf("ollamaBase(%s) = %s %v, want %s", in, got, err, want)
		}
	}
}

func TestOpenAIRoutesGPT5ToResponses(t *testing.T) {
	srv := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "five"}))
	defer srv.Close()
	_, text := askOnce(t, map[string]string{"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-5", "OPENAI_HOST": srv.URL, "OPENAI_API_KEY": "sk-test-5"})
	if text != "five" {
		t.Errorf("text %q", text)
	}
	assertRequest(t, srv, "/v1/responses", "gpt-5", http.Header{"Authorization": {"Bearer sk-test-5"}})
	// OPENAI_BASE_URL with a gateway path: chat/completions under it, so gpt-4o stays on chat
	chat := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "four"}))
	defer chat.Close()
	askOnce(t, map[string]string{"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4o", "OPENAI_BASE_URL": chat.URL + "/gateway/openai"})
	assertRequest(t, chat, "/gateway/openai/chat/completions", "gpt-4o", nil)
}

func TestOpenAIBaseURL(t *testing.T) {
	for _, c := range []struct{ baseURL, host, path string }{
		{"https://gw.example.com/v1", "https://gw.example.com", "v1/chat/completions"},
		{"https://gw.example.com/", "https://gw.example.com", "v1/chat/completions"},
		{"https://gw.example.com/team/v1?key=1", "https://gw.example.com/team?key=1", "v1/chat/completions"},
		{"https://gw.example.com/openai", "https://gw.example.com/openai", "chat/completions"},
	} {
		host, path, err := openaiEndpoint(func(k string) string { return map[string]string{"OPENAI_BASE_URL": c.baseURL}[k] })
		if err != nil || host != c.host || path != c.path {
			t.Errorf("%s: %s %s %v", c.baseURL, host, path, err)
		}
	}
	base, full, q := sdkEndpoint("https://gw.example.com/team?key=1", "v1/responses")
	if base != "https://gw.example.com/" || full != "/team/v1/responses" || q.Get("key") != "1" {
		t.Errorf("sdkEndpoint: %s %s %v", base, full, q)
	}
}

func TestDeclarativeErrorsAreGoosesWords(t *testing.T) {
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"GOOSE_PROVIDER": "groq"}, "Required API key GROQ_API_KEY is not set. Configure it via `goose configure` or set the GROQ_API_KEY environment variable."},
		{map[string]string{"GOOSE_PROVIDER": "minimax"}, "Missing API key: MINIMAX_API_KEY"},
		{map[string]string{"GOOSE_PROVIDER": "tanzu_ai", "TANZU_AI_API_KEY": "tz-key-1"}, "Required environment variable TANZU_AI_ENDPOINT is not set"},
		{map[string]string{"GOOSE_PROVIDER": "lmstudio"}, "no model configured for provider lmstudio"},
		{map[string]string{"GOOSE_PROVIDER": "zai", "ZHIPU_API_KEY": "zp-key-1", "ZAI_BASE_URL": "api.z.ai/anthropic"}, "Invalid base URL 'api.z.ai/anthropic'"},
		{map[string]string{"GOOSE_PROVIDER": "zhipu", "ZHIPU_API_KEY": "zp-key-1", "ZHIPU_BASE_URL": "not a url"}, "Invalid base URL 'not a url'"},
	} {
		_, err := Resolve(lookup(c.vars), provider.Settings{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.vars, err, c.want)
		}
	}
}

func TestUnknownProviderListsTheKnownOnes(t *testing.T) {
	_, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "deepseek"}), provider.Settings{})
	if err == nil {
		t.Fatal("deepseek resolved")
	}
	msg := err.Error()
	for _, want := range []string{`unknown provider "deepseek"`, "anthropic", "custom_deepseek", "groq", "lmstudio", "openai", "zhipu"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	for name, want := range map[string]string{
		"google":   `provider "google" is a goose provider goose-ls does not support`,
		"OpenAI":   `did you mean "openai"?`,
		"claude":   `unknown provider "claude". Known: aimlapi, alibaba, anthropic, atomic_chat, avian, azure_openai,`,
		"LMStudio": `did you mean "lmstudio"?`,
	} {
		_, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": name}), provider.Settings{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}

// One unparsable custom file: goose keeps its native providers but registers no declarative one.
func TestBadCustomFileDropsDeclarativeProvidersAsGooseDoes(t *testing.T) {
	root := goosePathRoot(t, map[string]string{"broken.json": `{"name": "custom_x", "engine": "openai",`,
		"good.json": `{"name":"custom_ok","engine":"openai","display_name":"OK","base_url":"http://127.0.0.1:9/v1","models":[]}`})
	vars := map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "groq", "GROQ_API_KEY": "gsk-abcdef"}
	_, err := Resolve(lookup(vars), provider.Settings{})
	if err == nil || !strings.Contains(err.Error(), `provider "groq" is unavailable`) || !strings.Contains(err.Error(), filepath.Join(root, "config", "custom_providers", "broken.json")) {
		t.Errorf("groq: %v", err)
	}
	vars["GOOSE_PROVIDER"] = "custom_ok"
	if _, err := Resolve(lookup(vars), provider.Settings{}); err == nil || !strings.Contains(err.Error(), "custom providers were not loaded") {
		t.Errorf("custom_ok: %v", err)
	}
	vars["GOOSE_PROVIDER"], vars["OPENAI_HOST"] = "openai", "http://127.0.0.1:9"
	if _, err := Resolve(lookup(vars), provider.Settings{}); err != nil {
		t.Errorf("native openai must still resolve: %v", err)
	}
}

// What `goose-ls run` and the language server do: secretstore.Load, then Resolve(cfg, …). goose
// 1.38's config.yaml layout chooses the provider and model, the key comes from secrets.yaml (the storage
// with GOOSE_DISABLE_KEYRING), and the custom provider is found in the config folder GOOSE_PATH_ROOT names.
func TestResolveThroughGooseConfigFolder(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "configured"}))
	defer srv.Close()
	root := goosePathRoot(t, map[string]string{"custom_local.json": `{"name":"custom_local","engine":"openai","display_name":"Local",
	  "api_key_env":"CUSTOM_LOCAL_API_KEY","base_url":"` + srv.URL + `","models":[{"name":"m1","context_limit":1000}]}`})
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, "config", name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("config.yaml", "active_provider: custom_local\nproviders:\n  custom_local:\n    enabled: true\n    model: m2\n    configured: true\n")
	write("secrets.yaml", "CUSTOM_LOCAL_API_KEY: secret-from-yaml\n")
	cfg, _, err := secretstore.Load(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_DISABLE_KEYRING": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Resolve(cfg, provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model, Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	assertRequest(t, srv, "/v1/chat/completions", "m2", http.Header{"Authorization": {"Bearer secret-from-yaml"}})
}

func TestOpenAICompatibleNatives(t *testing.T) {
	for name, key := range map[string]string{"xai": "XAI", "avian": "AVIAN"} {
		srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: name}))
		r, text := askOnce(t, map[string]string{"GOOSE_PROVIDER": name, key + "_HOST": srv.URL + "/v1", key + "_API_KEY": "key-" + name + "-1"})
		if text != name || r.Model != defaultModels[name] {
			t.Errorf("%s: %q %s", name, text, r.Model)
		}
		assertRequest(t, srv, "/v1/chat/completions", defaultModels[name], http.Header{"Authorization": {"Bearer key-" + name + "-1"}})
		srv.Close()
		if _, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": name}), provider.Settings{}); err == nil || !strings.Contains(err.Error(), key+"_API_KEY") {
			t.Errorf("%s without key: %v", name, err)
		}
	}
}

// supports_streaming false (here through tanzu_ai's TANZU_AI_STREAMING variable): one JSON answer, as goose asks.
func TestStreamingOffMakesNonStreamingCalls(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "whole", Calls: []wiretest.Call{{Name: "shell", Args: `{"command":"ls"}`}}}))
	defer srv.Close()
	r, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "tanzu_ai", "TANZU_AI_API_KEY": "tz-key-1", "TANZU_AI_ENDPOINT": srv.URL, "TANZU_AI_STREAMING": "false"}), provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []provider.Delta
	resp, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model, Messages: []provider.Message{{Role: provider.User, Text: "hi"}}},
		func(d provider.Delta) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text != "whole" || len(resp.Message.ToolCalls) != 1 || string(resp.Message.ToolCalls[0].Arguments) != `{"command":"ls"}` || len(deltas) != 2 {
		t.Errorf("reply %+v deltas %+v", resp.Message, deltas)
	}
	assertRequest(t, srv, "/openai/v1/chat/completions", "openai/gpt-oss-120b", http.Header{"Authorization": {"Bearer tz-key-1"}})
	if _, ok := srv.Requests()[0]["stream"]; ok {
		t.Errorf("stream sent: %v", srv.Requests()[0])
	}
	// a gpt-5 model of a custom provider with streaming off: one Responses JSON answer
	rs := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "five", Calls: []wiretest.Call{{Name: "read", Args: `{"path":"a"}`}}}))
	defer rs.Close()
	root := goosePathRoot(t, map[string]string{"c.json": `{"name":"custom_ns","engine":"openai","display_name":"NS","supports_streaming":false,
	  "base_url":"` + rs.URL + `/v1","models":[{"name":"gpt-5","context_limit":400000}]}`})
	r, err = Resolve(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "custom_ns"}), provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err = r.Provider.Stream(context.Background(), provider.Request{Model: r.Model, Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {})
	if err != nil || resp.Message.Text != "five" || len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].ID != "call_0_0" {
		t.Fatalf("%+v %v", resp.Message, err)
	}
	assertRequest(t, rs, "/v1/responses", "gpt-5", nil)
}
