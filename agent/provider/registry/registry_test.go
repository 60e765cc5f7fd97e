// The built-in table against goose 1.38's facts sheet (§7.3), custom files, goose's loading quirks.
package registry

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// builtinRow is one row of runtime-1.38 §7.3.
type builtinRow struct {
	name, engine, baseURL, keyEnv, defaultModel string
	requiresAuth                                bool
	vars                                        string // NAME=default, "req" for a required one
}

var sheet = []builtinRow{
	{"alibaba", "openai", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY", "qwen3.7-max", true, ""},
	{"atomic_chat", "openai", "${ATOMIC_CHAT_HOST}/v1/chat/completions", "", "", false, "ATOMIC_CHAT_HOST=http://localhost:1337"},
	{"cerebras", "openai", "https://api.cerebras.ai/v1/chat/completions", "CEREBRAS_API_KEY", "llama3.1-8b", true, ""},
	{"custom_deepseek", "openai", "https://api.deepseek.com", "DEEPSEEK_API_KEY", "deepseek-chat", true, ""},
	{"custom_tensorix", "openai", "https://api.tensorix.ai/v1", "TENSORIX_API_KEY", "z-ai/glm-5", true, ""},
	{"futurmix", "openai", "https://futurmix.ai/v1/chat/completions", "FUTURMIX_API_KEY", "claude-sonnet-4-20250514", true, ""},
	{"groq", "openai", "https://api.groq.com/openai/v1/chat/completions", "GROQ_API_KEY", "moonshotai/kimi-k2-instruct-0905", true, ""},
	{"inception", "openai", "https://api.inceptionlabs.ai", "INCEPTION_API_KEY", "mercury-coder", true, ""},
	{"llama_swap", "openai", "${LLAMA_SWAP_HOST}/v1/chat/completions", "LLAMA_SWAP_API_KEY", "", false, "LLAMA_SWAP_HOST=http://localhost:8080"},
	{"lmstudio", "openai", "${LMSTUDIO_HOST}/v1/chat/completions", "LMSTUDIO_API_KEY", "", false, "LMSTUDIO_HOST=http://localhost:1234"},
	{"minimax", "anthropic", "https://api.minimax.io/anthropic", "MINIMAX_API_KEY", "MiniMax-M2.5", true, ""},
	{"mistral", "openai", "https://api.mistral.ai/v1/chat/completions", "MISTRAL_API_KEY", "mistral-medium-latest", true, ""},
	{"moonshot", "openai", "${MOONSHOT_BASE_URL}", "MOONSHOT_API_KEY", "kimi-latest", true, "MOONSHOT_BASE_URL=https://api.moonshot.cn/v1/chat/completions"},
	{"nearai", "openai", "https://cloud-api.near.ai/v1", "NEARAI_API_KEY", "zai-org/GLM-5.1-FP8", true, ""},
	{"novita", "openai", "https://api.novita.ai/openai/chat/completions", "NOVITA_API_KEY", "moonshotai/kimi-k2.5", true, ""},
	{"nvidia", "openai", "https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY", "z-ai/glm-4.7", true, ""},
	{"ollama_cloud", "openai", "https://ollama.com/v1/chat/completions", "OLLAMA_CLOUD_API_KEY", "", true, ""},
	{"omlx", "openai", "${OMLX_HOST}/v1/chat/completions", "OMLX_API_KEY", "", false, "OMLX_HOST=http://localhost:8000"},
	{"opencode_go", "openai", "https://opencode.ai/zen/go/v1", "OPENCODE_API_KEY", "kimi-k2.6", true, ""},
	{"orcarouter", "openai", "https://api.orcarouter.ai/v1", "ORCAROUTER_API_KEY", "anthropic/claude-sonnet-4.6", true, ""},
	{"ovhcloud", "openai", "https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions", "OVHCLOUD_API_KEY", "Qwen3-32B", true, ""},
	{"perplexity", "openai", "https://api.perplexity.ai", "PERPLEXITY_API_KEY", "sonar", true, ""},
	{"routstr", "openai", "${ROUTSTR_HOST}/v1", "ROUTSTR_API_KEY", "claude-opus-4.7", true, "ROUTSTR_HOST=https://api.routstr.com"},
	{"saladcloud", "openai", "https://ai.salad.cloud/v1/chat/completions", "SALAD_CLOUD_API_KEY", "qwen3.6-35b-a3b", true, ""},
	{"scaleway", "openai", "https://api.scaleway.ai/v1/chat/completions", "SCW_SECRET_KEY", "qwen/qwen3.5-397b-a17b", true, ""},
	{"tanzu_ai", "openai", "${TANZU_AI_ENDPOINT}/openai/v1/chat/completions", "TANZU_AI_API_KEY", "openai/gpt-oss-120b", true, "TANZU_AI_ENDPOINT=req TANZU_AI_STREAMING=true"},
	{"together", "openai", "https://api.together.xyz/v1", "TOGETHER_API_KEY", "meta-llama/Llama-3.3-70B-Instruct-Turbo", true, ""},
	{"venice", "openai", "https://api.venice.ai/api/v1/chat/completions", "VENICE_API_KEY", "llama-3.3-70b", true, ""},
	{"vercel_ai_gateway", "openai", "https://ai-gateway.vercel.sh/v1/chat/completions", "AI_GATEWAY_API_KEY", "anthropic/claude-sonnet-4.6", true, ""},
	{"zai", "anthropic", "${ZAI_BASE_URL}", "ZHIPU_API_KEY", "glm-5.1", true, "ZAI_BASE_URL=https://api.z.ai/api/anthropic"},
	{"zhipu", "openai", "${ZHIPU_BASE_URL}", "ZHIPU_API_KEY", "glm-4.5", true, "ZHIPU_BASE_URL=https://open.bigmodel.cn/api/paas/v4"},
}

func rowOf(p *Provider) builtinRow {
	var vars []string
	for _, v := range p.EnvVars {
		switch {
		case v.Required:
			vars = append(vars, v.Name+"=req")
		case v.Default != nil:
			vars = append(vars, v.Name+"="+*v.Default)
		}
	}
	return builtinRow{p.Name, string(p.Engine), p.BaseURL, p.APIKeyEnv, p.DefaultModel(), p.RequiresAuth, strings.Join(vars, " ")}
}

func TestBuiltinsMatchTheSheet(t *testing.T) {
	var got []builtinRow
	for _, p := range Builtins() {
		got = append(got, rowOf(p))
		if p.DefaultModel() == "" && (p.DynamicModels == nil || !*p.DynamicModels) {
			t.Errorf("%s: no models and not dynamic", p.Name)
		}
		if p.DefaultModel() != "" && p.ContextLimit(p.DefaultModel()) <= 0 {
			t.Errorf("%s: no context limit for its default model", p.Name)
		}
	}
	if diff := cmp.Diff(sheet, got, cmp.AllowUnexported(builtinRow{})); diff != "" {
		t.Errorf("built-ins differ from the sheet (-sheet +embedded):\n%s", diff)
	}
	if len(got) != 31 {
		t.Errorf("%d built-ins, want 31", len(got))
	}
	for _, name := range []string{"orcarouter", "vercel_ai_gateway"} {
		p, _ := Load("").Lookup(name)
		if p.Headers["http-referer"] == "" || p.Headers["x-title"] != "goose" {
			t.Errorf("%s headers %v", name, p.Headers)
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const customGroq = `{"name":"groq","engine":"openai","display_name":"My Groq","api_key_env":"MY_GROQ_KEY",
 "base_url":"http://127.0.0.1:1/v1","models":[{"name":"m1","context_limit":32000,"max_tokens":99}],"unknown_key":1}`

func TestCustomReplacesBuiltinOfTheSameName(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "groq.json", customGroq)
	writeFile(t, dir, "mine.json", `{"name":"custom_mine","engine":"ollama","display_name":"Mine","base_url":"box","models":[]}`)
	writeFile(t, dir, "notes.txt", `not json at all`)  // not *.json: ignored
	writeFile(t, dir, "UPPER.JSON", `not json either`) // extension is case-sensitive: ignored
	r := Load(dir)
	if r.CustomErr != nil {
		t.Fatal(r.CustomErr)
	}
	p, ok := r.Lookup("groq")
	if !ok || !p.Custom || p.DisplayName != "My Groq" || p.APIKeyEnv != "MY_GROQ_KEY" || p.ContextLimit("m1") != 32000 || !p.RequiresAuth {
		t.Fatalf("groq = %+v", p)
	}
	if m, ok := r.Lookup("custom_mine"); !ok || m.Engine != EngineOllama || m.APIKeyEnv != "" {
		t.Errorf("custom_mine = %+v", m)
	}
	if _, ok := r.Lookup("lmstudio"); !ok {
		t.Error("built-ins lost")
	}
	if len(r.Names()) != 32 {
		t.Errorf("names %v", r.Names())
	}
}

// goose reads the custom files first with `?`: one bad file drops every declarative provider.
func TestBadCustomFileDropsAllDeclarativeProviders(t *testing.T) {
	for name, text := range map[string]string{
		"syntax":         `{"name":"x",`,
		"missing field":  `{"name":"x","engine":"openai","display_name":"X","models":[]}`,
		"engine":         `{"name":"x","engine":"openai_compatible","display_name":"X","base_url":"http://h","models":[]}`,
		"null required":  `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"requires_auth":null}`,
		"wrong key case": `{"Name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[]}`,
		"model limit":    `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[{"name":"m"}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "a-good.json", customGroq)
			bad := writeFile(t, dir, "b-bad.json", text)
			r := Load(dir)
			if r.CustomErr == nil || !strings.Contains(r.CustomErr.Error(), bad) {
				t.Fatalf("error %v does not name %s", r.CustomErr, bad)
			}
			if len(r.Names()) != 0 {
				t.Errorf("declarative providers still registered: %v", r.Names())
			}
		})
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "folder.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := Load(dir); r.CustomErr == nil || len(r.Names()) != 0 {
		t.Errorf("a folder named *.json: %v %v", r.CustomErr, r.Names())
	}
}

func TestTwoCustomFilesWithOneNameLastByFileNameWins(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "b.json", strings.Replace(customGroq, "My Groq", "B", 1))
	writeFile(t, dir, "a.json", strings.Replace(customGroq, "My Groq", "A", 1))
	p, _ := Load(dir).Lookup("groq")
	if p.DisplayName != "B" {
		t.Errorf("winner %q", p.DisplayName)
	}
	if r := Load(filepath.Join(dir, "absent")); r.CustomErr != nil || len(r.Names()) != 31 {
		t.Errorf("missing folder: %v %d", r.CustomErr, len(r.Names()))
	}
}

// BenchmarkLoad is the registry's cost per provider resolution (every run and sub-agent): the 31
// embedded files parsed plus a folder of custom ones.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	for i := range 5 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%d.json", i)), []byte(strings.Replace(customGroq, `"groq"`, fmt.Sprintf(`"custom_%d"`, i), 1)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if r := Load(dir); len(r.Names()) != 36 {
			b.Fatalf("%d names", len(r.Names()))
		}
	}
}

// TestBuiltinLookupParsesTheRightFile: a lookup by name (which parses one file) finds exactly the
// providers of the full list, and no provider under a file's stem that names another provider.
func TestBuiltinLookupParsesTheRightFile(t *testing.T) {
	all := Builtins()
	if len(all) != 31 {
		t.Fatalf("%d built-in providers, want goose 1.38's 31", len(all))
	}
	for _, want := range all {
		got, ok := builtin(want.Name)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("builtin(%q) = %+v, %v; want %+v", want.Name, got, ok, want)
		}
	}
	for _, stem := range []string{"deepseek", "tanzu", "tensorix", "nonexistent", "../registry", ""} {
		if p, ok := builtin(stem); ok {
			t.Errorf("builtin(%q) found %q: no built-in has that name", stem, p.Name)
		}
	}
	r := Load("")
	if got, want := len(r.Names()), len(all); got != want {
		t.Errorf("Names() lists %d providers, want %d", got, want)
	}
}
