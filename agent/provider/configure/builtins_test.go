// Every built-in declarative provider of goose's newest release, resolved as a user configures it (its key
// variable, its ${VAR} defaults) and sent one request: the URL it goes to, the wire format, the key's
// header, and the error naming the key variable when it is missing. Requests go to local servers that
// speak each wire format (the transport records where goose-ls meant to send them).
package configure

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// recordingTransport sends each request to the local server of its wire format (chosen by the path's end,
// as the vendors' APIs are) and records the URL it was meant for.
type recordingTransport struct {
	mu                        sync.Mutex
	urls                      []string
	chat, responses, messages *wiretest.Server
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.Scheme+"://"+req.URL.Host+req.URL.Path)
	r.mu.Unlock()
	srv, path := r.chat, "/v1/chat/completions"
	switch {
	case strings.HasSuffix(req.URL.Path, "/responses"):
		srv, path = r.responses, "/v1/responses"
	case strings.HasSuffix(req.URL.Path, "/messages"):
		srv, path = r.messages, "/v1/messages"
	}
	u, _ := url.Parse(srv.URL)
	out := req.Clone(req.Context())
	out.URL.Scheme, out.URL.Host, out.URL.Path, out.URL.RawPath, out.Host = u.Scheme, u.Host, path, "", u.Host
	return http.DefaultTransport.RoundTrip(out)
}

// useRecordingTransport routes declarative providers' requests, for the test, to local servers that
// answer "ok" in each wire format.
func useRecordingTransport(t *testing.T) *recordingTransport {
	rec := &recordingTransport{
		chat:      wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"})),
		responses: wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "ok"})),
		messages:  wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "ok"})),
	}
	declarativeTransport = rec
	t.Cleanup(func() {
		declarativeTransport = nil
		rec.chat.Close()
		rec.responses.Close()
		rec.messages.Close()
	})
	return rec
}

func (r *recordingTransport) last() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.urls) == 0 {
		return ""
	}
	return r.urls[len(r.urls)-1]
}

// builtinTarget is where goose sends a built-in's default model (or test-model for one that lists none),
// derived from its definition by goose's rules: ${VAR} defaults, derive_base_path or base_path, the
// Responses API for gpt-5/o-series names on the default path, wire_api, the anthropic engine's
// /v1/messages.
var builtinTarget = map[string]string{
	"aimlapi":           "https://api.aimlapi.com/v1/responses", // openai/gpt-5-5 on the default path
	"alibaba":           "https://dashscope-intl.aliyuncs.com/compatible-mode/v1/chat/completions",
	"atomic_chat":       "http://localhost:1337/v1/chat/completions",
	"celeris":           "https://inference.celeris.ai/celeris-1/v1/chat/completions",
	"cerebras":          "https://api.cerebras.ai/v1/chat/completions",
	"custom_deepseek":   "https://api.deepseek.com/v1/chat/completions",
	"custom_sakana":     "https://api.sakana.ai/v1/chat/completions",
	"custom_tensorix":   "https://api.tensorix.ai/v1/chat/completions",
	"empiriolabs":       "https://api.empiriolabs.ai/v1/chat/completions",
	"eurouter":          "https://api.eurouter.ai/api/v1/chat/completions",
	"fireworks-ai":      "https://api.fireworks.ai/inference/v1/chat/completions",
	"friendli":          "https://api.friendli.ai/serverless/v1/chat/completions",
	"futurmix":          "https://futurmix.ai/v1/chat/completions",
	"groq":              "https://api.groq.com/openai/v1/chat/completions",
	"iflytek":           "https://spark-api-open.xf-yun.com/v1/chat/completions",
	"iflytek_astron":    "https://maas-token-api.cn-huabei-1.xf-yun.com/v2/chat/completions",
	"inception":         "https://api.inceptionlabs.ai/v1/chat/completions",
	"llama_swap":        "http://localhost:8080/v1/chat/completions",
	"lmstudio":          "http://localhost:1234/v1/chat/completions",
	"lynkr":             "http://localhost:8081/v1/chat/completions",
	"meta":              "https://api.meta.ai/v1/responses", // base_path v1/responses
	"minimax":           "https://api.minimax.io/anthropic/v1/messages",
	"mistral":           "https://api.mistral.ai/v1/chat/completions",
	"moonshot":          "https://api.moonshot.cn/v1/chat/completions",
	"nearai":            "https://cloud-api.near.ai/v1/chat/completions",
	"novita":            "https://api.novita.ai/openai/chat/completions",
	"nvidia":            "https://integrate.api.nvidia.com/v1/chat/completions",
	"ollama_cloud":      "https://ollama.com/v1/chat/completions",
	"omlx":              "http://localhost:8000/v1/chat/completions",
	"opencode_go":       "https://opencode.ai/zen/go/v1/chat/completions",
	"opencode_zen":      "https://opencode.ai/zen/v1/chat/completions",
	"opper":             "https://api.opper.ai/v3/compat/chat/completions",
	"orcarouter":        "https://api.orcarouter.ai/v1/chat/completions",
	"ovhcloud":          "https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions",
	"perplexity":        "https://api.perplexity.ai/v1/sonar", // base_path v1/sonar, a chat endpoint
	"pleumrouter":       "https://router.pleum.ai/v1/chat/completions",
	"routstr":           "https://api.routstr.com/v1/chat/completions",
	"saladcloud":        "https://ai.salad.cloud/v1/chat/completions",
	"saygm":             "https://api.saygm.com/v1/chat/completions",
	"scaleway":          "https://api.scaleway.ai/v1/chat/completions",
	"tanzu_ai":          "https://tanzu.example.com/openai/v1/chat/completions",
	"together":          "https://api.together.xyz/v1/chat/completions",
	"trustedrouter":     "https://api.trustedrouter.com/v1/chat/completions",
	"venice":            "https://api.venice.ai/api/v1/chat/completions", // wire_api chat_completions
	"vercel_ai_gateway": "https://ai-gateway.vercel.sh/v1/chat/completions",
	"zai":               "https://api.z.ai/api/anthropic/v1/messages",
	"zai_coding_plan":   "https://api.z.ai/api/coding/paas/v4/chat/completions",
	"zhipu":             "https://open.bigmodel.cn/api/paas/v4/chat/completions",
}

func TestEveryBuiltinResolvesAsGooseDoes(t *testing.T) {
	rec := useRecordingTransport(t)

	builtins := registry.Builtins()
	if len(builtins) != len(builtinTarget) {
		t.Errorf("%d built-ins, %d targets", len(builtins), len(builtinTarget))
	}
	for _, p := range builtins {
		t.Run(p.Name, func(t *testing.T) {
			vars := map[string]string{"GOOSE_PROVIDER": p.Name}
			for _, v := range p.EnvVars {
				if v.Required {
					vars[v.Name] = "https://tanzu.example.com"
				}
			}
			if p.DefaultModel() == "" {
				vars["GOOSE_MODEL"] = "test-model"
			}
			model := p.DefaultModel()
			if model == "" {
				model = "test-model"
			}
			// without its key: goose's error names the variable, unless the provider needs none
			r, err := Resolve(lookup(vars), provider.Settings{})
			switch {
			case p.APIKeyEnv != "" && p.RequiresAuth && (err == nil || !strings.Contains(err.Error(), p.APIKeyEnv)):
				t.Errorf("without %s: %v", p.APIKeyEnv, err)
			case (p.APIKeyEnv == "" || !p.RequiresAuth) && err != nil:
				t.Errorf("needs no key: %v", err)
			}
			key := "key-for-" + p.Name
			if p.APIKeyEnv != "" {
				vars[p.APIKeyEnv] = key
			}
			r, err = Resolve(lookup(vars), provider.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Model != model || (p.ContextLimit(model) > 0 && r.ContextLimit != p.ContextLimit(model)) {
				t.Errorf("model %s (%d), want %s (%d)", r.Model, r.ContextLimit, model, p.ContextLimit(model))
			}
			before := map[*wiretest.Server]int{rec.chat: len(rec.chat.Requests()), rec.responses: len(rec.responses.Requests()), rec.messages: len(rec.messages.Requests())}
			resp, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model,
				Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {})
			if err != nil || resp.Message.Text != "ok" {
				t.Fatalf("request: %v %+v", err, resp.Message)
			}
			if got := rec.last(); got != builtinTarget[p.Name] {
				t.Errorf("sent to %s, want %s", got, builtinTarget[p.Name])
			}
			var srv *wiretest.Server
			for s, n := range before {
				if len(s.Requests()) > n {
					srv = s
				}
			}
			reqs, heads := srv.Requests(), srv.Headers()
			body, head := reqs[len(reqs)-1], heads[len(heads)-1]
			if body["model"] != model {
				t.Errorf("model in the request: %v", body["model"])
			}
			wantAuth, gotAuth := "Bearer "+key, head.Get("Authorization")
			if p.Engine == registry.EngineAnthropic {
				wantAuth, gotAuth = key, head.Get("X-Api-Key")
			}
			if p.APIKeyEnv == "" {
				wantAuth = ""
			}
			if gotAuth != wantAuth {
				t.Errorf("credential header %q, want %q", gotAuth, wantAuth)
			}
			for name, value := range p.Headers {
				if head.Get(name) != value {
					t.Errorf("header %s = %q, want %q", name, head.Get(name), value)
				}
			}
		})
	}
}
