// Which variables a provider reads from goose's secret storage, through a real configuration (config.Load
// of a goose folder) whose store counts what it is asked: with the credentials in the environment the
// store is never asked (the keyring stays closed, as goose leaves it), and a credential found only there
// is used while settings kept there are not.
package configure

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// countingStore is a secret storage that records every key it is asked for.
type countingStore struct {
	mu     sync.Mutex
	values map[string]string
	asked  []string
}

func (s *countingStore) Lookup(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, key)
	v, ok := s.values[key]
	return v, ok
}

func (s *countingStore) keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.asked)
}

// storeHoldsEverything has a value for every variable a provider might read, settings included, so a
// lookup that reaches the store is seen and its value would show.
func storeHoldsEverything() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"GOOSE_PROVIDER", "GOOSE_MODEL", "GOOSE_TEMPERATURE", "GOOSE_MAX_TOKENS", "GOOSE_CONTEXT_LIMIT",
		"OPENAI_HOST", "OPENAI_BASE_PATH", "OPENAI_ORGANIZATION", "OPENAI_PROJECT", "OPENAI_TIMEOUT", "OLLAMA_HOST", "OLLAMA_TIMEOUT",
		"OPENROUTER_HOST", "LITELLM_HOST", "LITELLM_BASE_PATH", "LITELLM_TIMEOUT", "AZURE_OPENAI_API_VERSION", "ANTHROPIC_HOST",
		"ANTHROPIC_TIMEOUT", "XAI_HOST", "AVIAN_HOST", "CORP_HOST", "CORP_STREAMING"} {
		m[k] = "9"
	}
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "LITELLM_API_KEY",
		"LITELLM_CUSTOM_HEADERS", "AZURE_OPENAI_API_KEY", "XAI_API_KEY", "AVIAN_API_KEY", "CORP_API_KEY", "CORP_TENANT"} {
		m[k] = "from-the-store-" + strings.ToLower(k)
	}
	m["OPENAI_CUSTOM_HEADERS"] = "X-Store: from-the-store-header"
	m["LITELLM_CUSTOM_HEADERS"] = m["OPENAI_CUSTOM_HEADERS"]
	return m
}

// corpProvider is a custom provider whose base_url carries a secret variable (a tenant token) and a setting.
const corpProvider = `{"name":"custom_corp","engine":"openai","display_name":"Corp","api_key_env":"CORP_API_KEY",
  "base_url":"${CORP_HOST}/tenant/${CORP_TENANT}/v1","models":[{"name":"corp-model","context_limit":64000}],
  "env_vars":[{"name":"CORP_HOST","required":true},{"name":"CORP_TENANT","required":true,"secret":true},
  {"name":"CORP_STREAMING","default":"true"}]}`

// gooseConfig loads goose's configuration from a folder holding corpProvider, env as the environment and
// store as the secret storage behind it.
func gooseConfig(t *testing.T, env, store map[string]string) (*config.Config, *countingStore) {
	t.Helper()
	root := goosePathRoot(t, map[string]string{"corp.json": corpProvider})
	full := map[string]string{"GOOSE_PATH_ROOT": root}
	for k, v := range env {
		full[k] = v
	}
	cfg, err := config.Load(lookup(full))
	if err != nil {
		t.Fatal(err)
	}
	s := &countingStore{values: store}
	cfg.UseSecrets(s)
	return cfg, s
}

func stream(t *testing.T, r provider.Setup) {
	t.Helper()
	if _, err := r.Provider.Stream(context.Background(), provider.Request{Model: r.Model,
		Messages: []provider.Message{{Role: provider.User, Text: "hi"}}}, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
}

// Every native provider and a custom one with its credentials in the environment: the store is not asked
// (not for the key, its headers, the host, the timeout or goose's model knobs), and nothing of it is used.
func TestCredentialsInTheEnvironmentNeverAskTheSecretStore(t *testing.T) {
	chat := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer chat.Close()
	messages := wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer messages.Close()
	for _, c := range []struct {
		name   string
		env    map[string]string
		secret string           // the credential the provider must use
		send   *wiretest.Server // where a request goes, nil: resolution only
		header func(http.Header) string
	}{
		{"openai", map[string]string{"OPENAI_API_KEY": "sk-env-openai-1", "OPENAI_HOST": chat.URL}, "sk-env-openai-1", chat,
			func(h http.Header) string { return strings.TrimPrefix(h.Get("Authorization"), "Bearer ") }},
		{"anthropic", map[string]string{"ANTHROPIC_API_KEY": "sk-env-anthropic-1", "ANTHROPIC_HOST": messages.URL}, "sk-env-anthropic-1", messages,
			func(h http.Header) string { return h.Get("X-Api-Key") }},
		{"openrouter", map[string]string{"OPENROUTER_API_KEY": "sk-env-openrouter-1"}, "sk-env-openrouter-1", nil, nil},
		{"litellm", map[string]string{"LITELLM_API_KEY": "sk-env-litellm-1"}, "sk-env-litellm-1", nil, nil},
		{"azure_openai", map[string]string{"AZURE_OPENAI_API_KEY": "sk-env-azure-1", "AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com",
			"AZURE_OPENAI_DEPLOYMENT_NAME": "dep"}, "sk-env-azure-1", nil, nil},
		{"xai", map[string]string{"XAI_API_KEY": "sk-env-xai-1"}, "sk-env-xai-1", nil, nil},
		{"avian", map[string]string{"AVIAN_API_KEY": "sk-env-avian-1"}, "sk-env-avian-1", nil, nil},
		{"ollama", map[string]string{}, "", nil, nil},
		{"custom_corp", map[string]string{"CORP_API_KEY": "sk-env-corp-1", "CORP_HOST": chat.URL, "CORP_TENANT": "tenant-env-token-1"}, "sk-env-corp-1", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.env["GOOSE_PROVIDER"] = c.name
			cfg, store := gooseConfig(t, c.env, storeHoldsEverything())
			r, err := Resolve(cfg, provider.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			if asked := store.keys(); len(asked) != 0 {
				t.Errorf("the secret store was asked for %q", asked)
			}
			if c.secret != "" && !slices.Contains(r.Secrets, c.secret) {
				t.Errorf("secrets %q lack the environment's credential", r.Secrets)
			}
			for _, s := range r.Secrets {
				if strings.Contains(s, "from-the-store") {
					t.Errorf("a value of the store is in use: %q", s)
				}
			}
			if r.Temperature != nil || r.MaxTokens != 0 {
				t.Errorf("temperature %v, max tokens %d from the store", r.Temperature, r.MaxTokens)
			}
			if c.name == "custom_corp" && !slices.Contains(r.Secrets, "tenant-env-token-1") {
				t.Errorf("the secret base_url variable is not registered: %q", r.Secrets)
			}
			if c.send != nil {
				before := len(c.send.Headers())
				stream(t, r)
				h := c.send.Headers()[before]
				if got := c.header(h); got != c.secret || h.Get("X-Store") != "" {
					t.Errorf("credential %q (X-Store %q), want %q", got, h.Get("X-Store"), c.secret)
				}
			}
		})
	}
}

// Every built-in declarative provider with its key (and required variables) in the environment asks the
// store nothing.
func TestEveryBuiltinWithItsKeyInTheEnvironmentNeverAsksTheSecretStore(t *testing.T) {
	for _, p := range registry.Builtins() {
		env := map[string]string{"GOOSE_PROVIDER": p.Name, "GOOSE_MODEL": "test-model"}
		for _, v := range p.EnvVars {
			if v.Required || v.Secret {
				env[v.Name] = "https://env.example.com"
			}
		}
		if p.APIKeyEnv != "" {
			env[p.APIKeyEnv] = "key-in-env-" + p.Name
		}
		store := storeHoldsEverything()
		if p.APIKeyEnv != "" {
			store[p.APIKeyEnv] = "from-the-store-key"
		}
		cfg, counting := gooseConfig(t, env, store)
		r, err := Resolve(cfg, provider.Settings{})
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		if asked := counting.keys(); len(asked) != 0 {
			t.Errorf("%s: the secret store was asked for %q", p.Name, asked)
		}
		if p.APIKeyEnv != "" && !slices.Contains(r.Secrets, "key-in-env-"+p.Name) {
			t.Errorf("%s: secrets %q", p.Name, r.Secrets)
		}
	}
}

// A credential kept only in goose's secret storage is found there and sent; the store is asked for the
// provider's secret variables only, and a setting kept there (host, temperature, a base_url setting) is
// not read from it.
func TestCredentialsOnlyInTheSecretStoreAreFound(t *testing.T) {
	chat := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer chat.Close()
	messages := wiretest.Anthropic(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer messages.Close()

	stored := map[string]string{"OPENAI_API_KEY": "sk-store-openai-1", "OPENAI_CUSTOM_HEADERS": "X-Team: team-store-2",
		"OPENAI_HOST": "http://127.0.0.1:9", "GOOSE_TEMPERATURE": "0.9"}
	cfg, store := gooseConfig(t, map[string]string{"GOOSE_PROVIDER": "openai", "OPENAI_HOST": chat.URL}, stored)
	r, err := Resolve(cfg, provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	stream(t, r)
	h := chat.Headers()[0]
	if h.Get("Authorization") != "Bearer sk-store-openai-1" || h.Get("X-Team") != "team-store-2" || r.Temperature != nil {
		t.Errorf("openai: Authorization %q X-Team %q temperature %v", h.Get("Authorization"), h.Get("X-Team"), r.Temperature)
	}
	if asked := store.keys(); !slices.Equal(asked, []string{"OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS"}) {
		t.Errorf("openai: the store was asked for %q", asked)
	}
	if !slices.Contains(r.Secrets, "sk-store-openai-1") || !slices.Contains(r.Secrets, "team-store-2") {
		t.Errorf("openai: secrets %q", r.Secrets)
	}

	cfg, store = gooseConfig(t, map[string]string{"GOOSE_PROVIDER": "anthropic", "ANTHROPIC_HOST": messages.URL},
		map[string]string{"ANTHROPIC_API_KEY": "sk-store-anthropic-1", "ANTHROPIC_HOST": "http://127.0.0.1:9"})
	if r, err = Resolve(cfg, provider.Settings{}); err != nil {
		t.Fatal(err)
	}
	stream(t, r)
	if got := messages.Headers()[0].Get("X-Api-Key"); got != "sk-store-anthropic-1" || !slices.Equal(store.keys(), []string{"ANTHROPIC_API_KEY"}) {
		t.Errorf("anthropic: key %q, store asked for %q", got, store.keys())
	}

	// the custom provider: key and the secret base_url variable from the store, the host (a setting) from
	// the environment; a host kept only in the store is goose's missing-variable error
	cfg, store = gooseConfig(t, map[string]string{"GOOSE_PROVIDER": "custom_corp", "CORP_HOST": "http://127.0.0.1:9"},
		map[string]string{"CORP_API_KEY": "sk-store-corp-1", "CORP_TENANT": "tenant-store-token-1", "CORP_STREAMING": "false"})
	if r, err = Resolve(cfg, provider.Settings{}); err != nil {
		t.Fatal(err)
	}
	if asked := store.keys(); !slices.Equal(asked, []string{"CORP_TENANT", "CORP_API_KEY"}) {
		t.Errorf("custom: the store was asked for %q", asked)
	}
	if !slices.Contains(r.Secrets, "sk-store-corp-1") || !slices.Contains(r.Secrets, "tenant-store-token-1") {
		t.Errorf("custom: secrets %q", r.Secrets)
	}
	cfg, _ = gooseConfig(t, map[string]string{"GOOSE_PROVIDER": "custom_corp"},
		map[string]string{"CORP_API_KEY": "sk-store-corp-1", "CORP_TENANT": "tenant-store-token-1", "CORP_HOST": "http://127.0.0.1:9"})
	if _, err = Resolve(cfg, provider.Settings{}); err == nil || !strings.Contains(err.Error(), "Required environment variable CORP_HOST is not set") {
		t.Errorf("custom with its host in the store: %v", err)
	}
}

// goose-ls's compatibility with keys its docs once told users to put in config.yaml: a key neither the
// environment nor goose's storage holds is read from config.yaml (after the store, which goose reads).
func TestKeyInConfigYAMLIsTheLastPlaceLooked(t *testing.T) {
	chat := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer chat.Close()
	root := goosePathRoot(t, nil)
	if err := os.WriteFile(filepath.Join(root, "config", "config.yaml"), []byte("OPENAI_API_KEY: sk-yaml-openai-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(lookup(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_PROVIDER": "openai", "OPENAI_HOST": chat.URL}))
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{values: map[string]string{}}
	cfg.UseSecrets(store)
	r, err := Resolve(cfg, provider.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	stream(t, r)
	if got := chat.Headers()[0].Get("Authorization"); got != "Bearer sk-yaml-openai-1" || !slices.Contains(store.keys(), "OPENAI_API_KEY") {
		t.Errorf("Authorization %q, store asked for %q", got, store.keys())
	}
	store.values["OPENAI_API_KEY"] = "sk-store-wins-2"
	if r, err = Resolve(cfg, provider.Settings{}); err != nil || !slices.Contains(r.Secrets, "sk-store-wins-2") || slices.Contains(r.Secrets, "sk-yaml-openai-1") {
		t.Errorf("with the key stored too: secrets %q (%v)", r.Secrets, err)
	}
}
