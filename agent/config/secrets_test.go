// Settings and secrets read as goose reads them: Get (get_param) never asks the secret store, GetSecret
// (get_secret) asks it only for a key the environment lacks, GetSecrets (get_secrets) reads a key's
// companions from the environment alone when the key is there.
package config

import (
	"maps"
	"slices"
	"testing"
)

// countingSecrets is a secret store that records every key it is asked for.
type countingSecrets struct {
	values map[string]string
	asked  []string
}

func (s *countingSecrets) Lookup(key string) (string, bool) {
	s.asked = append(s.asked, key)
	v, ok := s.values[key]
	return v, ok
}

func withSecrets(t *testing.T, configYAML string, env, secrets map[string]string) (*Config, *countingSecrets) {
	t.Helper()
	cfg := load(t, configYAML, env)
	store := &countingSecrets{values: secrets}
	cfg.UseSecrets(store)
	return cfg, store
}

// Settings are never looked for in the secret store, found or not.
func TestGetNeverAsksTheSecretStore(t *testing.T) {
	cfg, store := withSecrets(t, "OPENAI_HOST: http://from-config\n", map[string]string{"GOOSE_MODE": "auto"},
		map[string]string{"GOOSE_TEMPERATURE": "0.3", "OPENAI_HOST": "http://from-store"})
	if v, ok := cfg.Get("GOOSE_TEMPERATURE"); ok {
		t.Errorf("GOOSE_TEMPERATURE %q from the secret store", v)
	}
	if v, _ := cfg.Get("OPENAI_HOST"); v != "http://from-config" {
		t.Errorf("OPENAI_HOST %q", v)
	}
	for _, key := range []string{"GOOSE_MODE", "GOOSE_MAX_TOKENS", "OPENAI_TIMEOUT", "GOOSE_PROVIDER", "GOOSE_MODEL", "GOOSE_DISABLE_KEYRING"} {
		cfg.Get(key)
		cfg.IsSet(key)
	}
	cfg.GetOr("GOOSE_CONTEXT_LIMIT", "")
	if len(store.asked) != 0 {
		t.Errorf("Get asked the secret store for %q", store.asked)
	}
}

// A secret in the environment is taken from it without asking the store; one that is not comes from
// the store (under the key as written, as goose's JSON map is read), and, where goose finds nothing,
// from config.yaml.
func TestGetSecretAsksTheStoreOnlyForWhatTheEnvironmentLacks(t *testing.T) {
	cfg, store := withSecrets(t, "ONLY_IN_CONFIG_KEY: yaml-secret-1\nIN_BOTH_KEY: yaml-loses-2\n",
		map[string]string{"OPENAI_API_KEY": "sk-env-1"},
		map[string]string{"OPENAI_API_KEY": "sk-store-1", "ANTHROPIC_API_KEY": "sk-ant-store-2", "IN_BOTH_KEY": "store-wins-3"})

	if v, ok := cfg.GetSecret("OPENAI_API_KEY"); v != "sk-env-1" || !ok || len(store.asked) != 0 {
		t.Errorf("env key: %q %v, store asked for %q", v, ok, store.asked)
	}
	if v, ok := cfg.GetSecret("openai_api_key"); v != "sk-env-1" || !ok || len(store.asked) != 0 {
		t.Errorf("env key (lower case): %q %v, store asked for %q", v, ok, store.asked)
	}
	for key, want := range map[string]string{"ANTHROPIC_API_KEY": "sk-ant-store-2", "IN_BOTH_KEY": "store-wins-3", "ONLY_IN_CONFIG_KEY": "yaml-secret-1"} {
		store.asked = nil
		if v, ok := cfg.GetSecret(key); v != want || !ok || !slices.Equal(store.asked, []string{key}) {
			t.Errorf("%s: %q %v, want %q; store asked for %q", key, v, ok, want, store.asked)
		}
	}
	store.asked = nil
	if v, ok := cfg.GetSecret("MISSING_KEY"); ok || !slices.Equal(store.asked, []string{"MISSING_KEY"}) {
		t.Errorf("missing: %q %v, store asked for %q", v, ok, store.asked)
	}
	// without a store: the environment, then config.yaml
	plain := load(t, "ONLY_IN_CONFIG_KEY: yaml-secret-1\n", nil)
	if v, ok := plain.GetSecret("ONLY_IN_CONFIG_KEY"); v != "yaml-secret-1" || !ok {
		t.Errorf("no store: %q %v", v, ok)
	}
}

// goose's get_secrets: the key in the environment makes the environment the only place its companions
// are read (a header stored in the keyring is not used, and the keyring is not asked); otherwise key and
// companions are secrets; without the key there is nothing.
func TestGetSecretsReadsCompanionsWhereTheKeyIs(t *testing.T) {
	stored := map[string]string{"OPENAI_API_KEY": "sk-store-1", "OPENAI_CUSTOM_HEADERS": "X-Store: h1"}
	for _, c := range []struct {
		name      string
		env       map[string]string
		want      map[string]string
		wantAsked []string
	}{
		{"key in env", map[string]string{"OPENAI_API_KEY": "sk-env-1"}, map[string]string{"OPENAI_API_KEY": "sk-env-1"}, nil},
		{"key and headers in env", map[string]string{"OPENAI_API_KEY": "sk-env-1", "OPENAI_CUSTOM_HEADERS": "X-Env: h2"},
			map[string]string{"OPENAI_API_KEY": "sk-env-1", "OPENAI_CUSTOM_HEADERS": "X-Env: h2"}, nil},
		{"key stored", nil, stored, []string{"OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS"}},
		{"key stored, headers in env", map[string]string{"OPENAI_CUSTOM_HEADERS": "X-Env: h2"},
			map[string]string{"OPENAI_API_KEY": "sk-store-1", "OPENAI_CUSTOM_HEADERS": "X-Env: h2"}, []string{"OPENAI_API_KEY"}},
	} {
		cfg, store := withSecrets(t, "", c.env, stored)
		got, ok := cfg.GetSecrets("OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS")
		if !ok || !maps.Equal(got, c.want) || !slices.Equal(store.asked, c.wantAsked) {
			t.Errorf("%s: %v %v, want %v; store asked for %q, want %q", c.name, got, ok, c.want, store.asked, c.wantAsked)
		}
	}
	cfg, _ := withSecrets(t, "", nil, map[string]string{"OPENAI_CUSTOM_HEADERS": "X-Store: h1"})
	if got, ok := cfg.GetSecrets("OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS"); ok || got != nil {
		t.Errorf("no key: %v %v", got, ok)
	}
}
