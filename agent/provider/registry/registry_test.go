// The built-in table against goose's definitions of its newest release, custom files, goose's loading quirks.
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

// builtinRow is one built-in definition's facts (the file stem, then what goose's JSON says).
type builtinRow struct {
	file, name, engine, baseURL, keyEnv, defaultModel string
	requiresAuth                                      bool
	vars                                              string // NAME=default, "req" for a required one
	wireAPI                                           string
	source                                            string // where the definition was read (repo@commit)
}

// newest are the definitions of goose's newest release (goose-today §6.1: the 48 names its
// expose_declarative_providers! list registers), each read from goose's repository file by file:
// definitions/ of crates/goose-providers where a copy exists (aaif-goose/goose, its earlier names
// block/goose and block-open-source/goose, or a plain fork of it), else an earlier providers/declarative
// copy; the newest stored copy wins. The facts are carried over; descriptions, setup steps and prices are
// not.
var newest = []builtinRow{
	{"aimlapi", "aimlapi", "openai", "https://api.aimlapi.com/v1", "AIMLAPI_API_KEY", "openai/gpt-5-5", true, "", "", "block/goose@dcfc5816"},
	{"alibaba", "alibaba", "openai", "https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "DASHSCOPE_API_KEY", "qwen3.8-max", true, "", "", "leanzero-srl/goose-local-edition@31c0860a"},
	{"atomic_chat", "atomic_chat", "openai", "${ATOMIC_CHAT_HOST}/v1/chat/completions", "", "", false, "ATOMIC_CHAT_HOST=http://localhost:1337", "", "xrettle/goose@4bb968fa"},
	{"celeris", "celeris", "openai", "https://inference.celeris.ai/celeris-1/v1", "CELERIS_API_KEY", "celeris-1", true, "", "", "block/goose@dd9491b4"},
	{"cerebras", "cerebras", "openai", "https://api.cerebras.ai/v1/chat/completions", "CEREBRAS_API_KEY", "gpt-oss-120b", true, "", "", "block/goose@09ab0c53"},
	{"deepseek", "custom_deepseek", "openai", "https://api.deepseek.com", "DEEPSEEK_API_KEY", "deepseek-flash", true, "", "", "aaif-goose/goose@6c646d82"},
	{"empiriolabs", "empiriolabs", "openai", "https://api.empiriolabs.ai/v1/chat/completions", "EMPIRIOLABS_API_KEY", "qwen3-7-plus", true, "", "", "block/goose@5755efb2 (providers/declarative)"},
	{"eurouter", "eurouter", "openai", "https://api.eurouter.ai/api/v1", "EUROUTER_API_KEY", "mistral-large-3", true, "", "", "block/goose@ac3a9465"},
	{"fireworks", "fireworks-ai", "openai", "https://api.fireworks.ai/inference/v1/chat/completions", "FIREWORKS_API_KEY", "accounts/fireworks/models/kimi-k2p7-code", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"friendli", "friendli", "openai", "https://api.friendli.ai/serverless/v1", "FRIENDLI_API_KEY", "zai-org/GLM-5.2", true, "", "", "block/goose@1358f7ee"},
	{"futurmix", "futurmix", "openai", "https://futurmix.ai/v1/chat/completions", "FUTURMIX_API_KEY", "claude-sonnet-4-20250514", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"groq", "groq", "openai", "https://api.groq.com/openai/v1/chat/completions", "GROQ_API_KEY", "moonshotai/kimi-k2-instruct-0905", true, "", "", "block/goose@3ef1336f"},
	{"iflytek", "iflytek", "openai", "https://spark-api-open.xf-yun.com/v1", "SPARK_API_PASSWORD", "4.0Ultra", true, "", "", "block/goose@5d3f4940 (providers/declarative)"},
	{"iflytek_astron", "iflytek_astron", "openai", "${ASTRON_BASE_URL}", "ASTRON_API_KEY", "spark-x2.5", true, "ASTRON_BASE_URL=https://maas-token-api.cn-huabei-1.xf-yun.com/v2", "", "aaif-goose/goose@e7b0afcf"},
	{"inception", "inception", "openai", "https://api.inceptionlabs.ai", "INCEPTION_API_KEY", "mercury-coder", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"llama_swap", "llama_swap", "openai", "${LLAMA_SWAP_HOST}/v1/chat/completions", "LLAMA_SWAP_API_KEY", "", false, "LLAMA_SWAP_HOST=http://localhost:8080", "", "drcharleskamen-png/goose@1c90bb24"},
	{"lmstudio", "lmstudio", "openai", "${LMSTUDIO_HOST}/v1/chat/completions", "LMSTUDIO_API_KEY", "", false, "LMSTUDIO_HOST=http://localhost:1234", "", "xrettle/goose@4bb968fa"},
	{"lynkr", "lynkr", "openai", "${LYNKR_HOST}/v1/chat/completions", "LYNKR_API_KEY", "", false, "LYNKR_HOST=http://localhost:8081", "", "xrettle/goose@5e6b79fb"},
	{"meta", "meta", "openai", "${META_API_BASE_URL}", "META_API_KEY", "muse-spark-1.2", true, "META_API_BASE_URL=https://api.meta.ai/v1", "", "leanzero-srl/goose-local-edition@83253489"},
	{"minimax", "minimax", "anthropic", "https://api.minimax.io/anthropic", "MINIMAX_API_KEY", "MiniMax-M3", true, "", "", "drcharleskamen-png/goose@da52c538"},
	{"mistral", "mistral", "openai", "https://api.mistral.ai/v1/chat/completions", "MISTRAL_API_KEY", "mistral-medium-latest", true, "", "", "xrettle/goose@4bb968fa"},
	{"moonshot", "moonshot", "openai", "${MOONSHOT_BASE_URL}", "MOONSHOT_API_KEY", "kimi-k2-0711-preview", true, "MOONSHOT_BASE_URL=https://api.moonshot.cn/v1/chat/completions", "", "xrettle/goose@4a3e70c4"},
	{"nearai", "nearai", "openai", "https://cloud-api.near.ai/v1", "NEARAI_API_KEY", "zai-org/GLM-5.2", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"novita", "novita", "openai", "https://api.novita.ai/openai/chat/completions", "NOVITA_API_KEY", "moonshotai/kimi-k2.5", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"nvidia", "nvidia", "openai", "https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY", "nvidia/nemotron-3-ultra-550b-a55b", true, "", "", "block/goose@50ff5f50"},
	{"ollama_cloud", "ollama_cloud", "openai", "https://ollama.com/v1/chat/completions", "OLLAMA_CLOUD_API_KEY", "", true, "", "", "block/goose@1f332ca5"},
	{"omlx", "omlx", "openai", "${OMLX_HOST}/v1/chat/completions", "OMLX_API_KEY", "", false, "OMLX_HOST=http://localhost:8000", "", "drcharleskamen-png/goose@1c90bb24"},
	{"opencode_go", "opencode_go", "openai", "https://opencode.ai/zen/go", "OPENCODE_API_KEY", "kimi-k2.6", true, "", "", "aaif-goose/goose@d9b9ab6c"},
	{"opencode_zen", "opencode_zen", "openai", "https://opencode.ai/zen/v1", "OPENCODE_API_KEY", "kimi-k3", true, "", "", "block-open-source/goose@84bd651a"},
	{"opper", "opper", "openai", "https://api.opper.ai/v3/compat/chat/completions", "OPPER_API_KEY", "anthropic/claude-opus-5", true, "", "", "block-open-source/goose@00520d31"},
	{"orcarouter", "orcarouter", "openai", "https://api.orcarouter.ai/v1", "ORCAROUTER_API_KEY", "anthropic/claude-sonnet-4.6", true, "", "", "devinplauche/goose-private@9d942e06"},
	{"ovhcloud", "ovhcloud", "openai", "https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions", "OVHCLOUD_API_KEY", "Qwen3-32B", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"perplexity", "perplexity", "openai", "https://api.perplexity.ai", "PERPLEXITY_API_KEY", "sonar", true, "", "", "iilish/goose@b4b3c880"},
	{"pleumrouter", "pleumrouter", "openai", "https://router.pleum.ai/v1", "PLEUMROUTER_API_KEY", "deepseek-v4-pro", true, "", "", "xrettle/goose@e43f2be9"},
	{"routstr", "routstr", "openai", "${ROUTSTR_HOST}/v1", "ROUTSTR_API_KEY", "claude-opus-4.7", true, "ROUTSTR_HOST=https://api.routstr.com", "", "devinplauche/goose-private@9d942e06"},
	{"sakana", "custom_sakana", "openai", "https://api.sakana.ai/v1", "SAKANA_API_KEY", "fugu", true, "", "", "kojiromike/goose@a78f40a2"},
	{"saladcloud", "saladcloud", "openai", "https://ai.salad.cloud/v1/chat/completions", "SALAD_CLOUD_API_KEY", "qwen3.6-35b-a3b", true, "", "", "block-open-source/goose@177d74af"},
	{"saygm", "saygm", "openai", "https://api.saygm.com/v1", "SAYGM_API_KEY", "Nemotron-3-Nano-Omni-30B-TEE", true, "", "", "block/goose@6af8ecc6"},
	{"scaleway", "scaleway", "openai", "https://api.scaleway.ai/v1/chat/completions", "SCW_SECRET_KEY", "qwen/qwen3.5-397b-a17b", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"tanzu", "tanzu_ai", "openai", "${TANZU_AI_ENDPOINT}/openai/v1/chat/completions", "TANZU_AI_API_KEY", "openai/gpt-oss-120b", true, "TANZU_AI_ENDPOINT=req TANZU_AI_STREAMING=true", "", "drcharleskamen-png/goose@1c90bb24"},
	{"tensorix", "custom_tensorix", "openai", "https://api.tensorix.ai/v1", "TENSORIX_API_KEY", "z-ai/glm-5", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"together", "together", "openai", "https://api.together.xyz/v1", "TOGETHER_API_KEY", "meta-llama/Llama-3.3-70B-Instruct-Turbo", true, "", "", "drcharleskamen-png/goose@1c90bb24"},
	{"trustedrouter", "trustedrouter", "openai", "https://api.trustedrouter.com/v1", "TRUSTEDROUTER_API_KEY", "trustedrouter/auto", true, "", "", "block-open-source/goose@cdb960a9"},
	{"venice", "venice", "openai", "https://api.venice.ai/api/v1/chat/completions", "VENICE_API_KEY", "llama-3.3-70b", true, "", "chat_completions", "aaif-goose/goose@0e9b38f9"},
	{"vercel_ai_gateway", "vercel_ai_gateway", "openai", "https://ai-gateway.vercel.sh/v1/chat/completions", "AI_GATEWAY_API_KEY", "anthropic/claude-sonnet-4.6", true, "", "", "block/goose@165e596d"},
	{"zai", "zai", "anthropic", "${ZAI_BASE_URL}", "ZHIPU_API_KEY", "glm-5.2", true, "ZAI_BASE_URL=https://api.z.ai/api/anthropic", "", "block/goose@45691d86"},
	{"zai_coding_plan", "zai_coding_plan", "openai", "https://api.z.ai/api/coding/paas/v4", "ZAI_CODING_PLAN_API_KEY", "glm-5.3", true, "", "", "aaif-goose/goose@85a6f8e7"},
	{"zhipu", "zhipu", "openai", "${ZHIPU_BASE_URL}", "ZHIPU_API_KEY", "glm-4.5", true, "ZHIPU_BASE_URL=https://open.bigmodel.cn/api/paas/v4", "", "block/goose@3b3f4e87"},
}

// gooseList is goose's expose_declarative_providers! list (the file names), newest release.
var gooseList = []string{"aimlapi", "alibaba", "atomic_chat", "celeris", "cerebras", "deepseek", "empiriolabs", "eurouter",
	"fireworks", "friendli", "futurmix", "groq", "iflytek", "iflytek_astron", "inception", "llama_swap", "lmstudio", "lynkr", "meta",
	"minimax", "mistral", "moonshot", "nearai", "novita", "nvidia", "ollama_cloud", "omlx", "opencode_go", "opencode_zen", "opper",
	"orcarouter", "ovhcloud", "perplexity", "pleumrouter", "routstr", "sakana", "saladcloud", "saygm", "scaleway", "tanzu",
	"tensorix", "together", "trustedrouter", "venice", "vercel_ai_gateway", "zai", "zai_coding_plan", "zhipu"}

func rowOf(file string, p *Provider) builtinRow {
	var vars []string
	for _, v := range p.EnvVars {
		switch {
		case v.Required:
			vars = append(vars, v.Name+"=req")
		case v.Default != nil:
			vars = append(vars, v.Name+"="+*v.Default)
		}
	}
	return builtinRow{file, p.Name, string(p.Engine), p.BaseURL, p.APIKeyEnv, p.DefaultModel(), p.RequiresAuth, strings.Join(vars, " "), string(p.WireAPI), ""}
}

// TestBuiltinsAreGoosesNewestRelease: every embedded file parses into the facts of its definition, and
// the files are goose's list.
func TestBuiltinsAreGoosesNewestRelease(t *testing.T) {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		t.Fatal(err)
	}
	var got, want []builtinRow
	var files []string
	for _, e := range entries {
		data, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		file := strings.TrimSuffix(e.Name(), ".json")
		files = append(files, file)
		got = append(got, rowOf(file, p))
		if p.DefaultModel() == "" && (p.DynamicModels == nil || !*p.DynamicModels) {
			t.Errorf("%s: no models and not dynamic", p.Name)
		}
		for _, m := range p.Models {
			if m.ContextLimit <= 0 {
				t.Errorf("%s: model %s has no context limit", p.Name, m.Name)
			}
		}
		if p.Auth != nil {
			t.Errorf("%s: a built-in with an auth command", p.Name)
		}
	}
	for _, r := range newest {
		r.source = ""
		want = append(want, r)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(builtinRow{})); diff != "" {
		t.Errorf("built-ins differ from goose's definitions (-definitions +embedded):\n%s", diff)
	}
	if diff := cmp.Diff(gooseList, files); diff != "" {
		t.Errorf("embedded files differ from goose's list (-goose +embedded):\n%s", diff)
	}
	if len(gooseList) != 48 {
		t.Errorf("goose's list has %d names, goose-today §6.1 counts 48", len(gooseList))
	}
	for _, name := range []string{"orcarouter", "vercel_ai_gateway", "pleumrouter"} {
		p, _ := Load("").Lookup(name)
		if p.Headers["http-referer"] != "https://goose-docs.ai" || p.Headers["x-title"] != "goose" {
			t.Errorf("%s headers %v", name, p.Headers)
		}
	}
	if p, _ := Load("").Lookup("opencode_go"); p.SessionIDHeader == nil || *p.SessionIDHeader != "x-opencode-session" {
		t.Errorf("opencode_go session_id_header_override = %v", p.SessionIDHeader)
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
	if len(r.Names()) != len(newest)+1 {
		t.Errorf("names %v", r.Names())
	}
}

// goose reads the custom files first with `?`: one bad file drops every declarative provider.
func TestBadCustomFileDropsAllDeclarativeProviders(t *testing.T) {
	for name, text := range map[string]string{
		"syntax":          `{"name":"x",`,
		"missing field":   `{"name":"x","engine":"openai","display_name":"X","models":[]}`,
		"engine":          `{"name":"x","engine":"OpenAI","display_name":"X","base_url":"http://h","models":[]}`,
		"wire_api value":  `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"wire_api":"chat"}`,
		"wire_api engine": `{"name":"x","engine":"anthropic_compatible","display_name":"X","base_url":"http://h","models":[{"name":"m","wire_api":"responses"}]}`,
		"auth command":    `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"auth":{"args":["a"]}}`,
		"auth interval":   `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"auth":{"command":"c","refresh_interval":null}}`,
		"null required":   `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[],"requires_auth":null}`,
		"wrong key case":  `{"Name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[]}`,
		"model limit":     `{"name":"x","engine":"openai","display_name":"X","base_url":"http://h","models":[{"name":"m","context_limit":-1}]}`,
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
	if r := Load(filepath.Join(dir, "absent")); r.CustomErr != nil || len(r.Names()) != len(newest) {
		t.Errorf("missing folder: %v %d", r.CustomErr, len(r.Names()))
	}
}

// BenchmarkLoad is the registry's cost per provider resolution (every run and sub-agent): the embedded
// files parsed plus a folder of custom ones.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	for i := range 5 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("c%d.json", i)), []byte(strings.Replace(customGroq, `"groq"`, fmt.Sprintf(`"custom_%d"`, i), 1)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if r := Load(dir); len(r.Names()) != len(newest)+5 {
			b.Fatalf("%d names", len(r.Names()))
		}
	}
}

// TestBuiltinLookupParsesTheRightFile: a lookup by name (which parses one file) finds exactly the
// providers of the full list, and no provider under a file's stem that names another provider.
func TestBuiltinLookupParsesTheRightFile(t *testing.T) {
	all := Builtins()
	if len(all) != len(newest) {
		t.Fatalf("%d built-in providers, want %d", len(all), len(newest))
	}
	for _, want := range all {
		got, ok := builtin(want.Name)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("builtin(%q) = %+v, %v; want %+v", want.Name, got, ok, want)
		}
	}
	for _, stem := range []string{"deepseek", "tanzu", "tensorix", "sakana", "nonexistent", "../registry", ""} {
		if p, ok := builtin(stem); ok {
			t.Errorf("builtin(%q) found %q: no built-in has that name", stem, p.Name)
		}
	}
	r := Load("")
	if got, want := len(r.Names()), len(all); got != want {
		t.Errorf("Names() lists %d providers, want %d", got, want)
	}
}
