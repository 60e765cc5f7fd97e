// goose's folders, env-first lookup, and the active provider/model in 1.38's and the older layout.
package config

import (
	"os"
	"path/filepath"
	"testing"
)

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func load(t *testing.T, configYAML string, env map[string]string) *Config {
	t.Helper()
	root := t.TempDir()
	if configYAML != "" {
		if err := os.MkdirAll(filepath.Join(root, "config"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "config", "config.yaml"), []byte(configYAML), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	full := map[string]string{"GOOSE_PATH_ROOT": root}
	for k, v := range env {
		full[k] = v
	}
	c, err := Load(envOf(full))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// goose 1.38 writes this after migrating (flat keys deleted).
const layout138 = `active_provider: groq
providers:
  groq:
    enabled: true
    model: llama-3.3-70b-versatile
    configured: true
  openai:
    enabled: true
    model: gpt-5-mini
    configured: true
GROQ_API_KEY: from-config
`

func TestActiveProviderAndModel(t *testing.T) {
	for _, c := range []struct {
		name, yaml              string
		env                     map[string]string
		wantProvider, wantModel string
	}{
		{"1.38 layout", layout138, nil, "groq", "llama-3.3-70b-versatile"},
		{"env provider picks its providers entry", layout138, map[string]string{"GOOSE_PROVIDER": "openai"}, "openai", "gpt-5-mini"},
		{"env model wins", layout138, map[string]string{"GOOSE_MODEL": "m-env"}, "groq", "m-env"},
		{"older flat keys", "GOOSE_PROVIDER: anthropic\nGOOSE_MODEL: claude-x\n", nil, "anthropic", "claude-x"},
		{"active_provider wins over the flat key", "active_provider: groq\nGOOSE_PROVIDER: anthropic\nGOOSE_MODEL: flat-model\n", nil, "groq", "flat-model"},
		{"empty entry model falls back to the flat key", "active_provider: groq\nproviders:\n  groq: {enabled: true, model: \"\"}\nGOOSE_MODEL: flat\n", nil, "groq", "flat"},
		{"entry of another provider is not used", "active_provider: groq\nproviders:\n  openai: {model: gpt-5}\n", nil, "groq", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := load(t, c.yaml, c.env)
			p, _ := cfg.Get("GOOSE_PROVIDER")
			m, _ := cfg.Get("GOOSE_MODEL")
			if p != c.wantProvider || m != c.wantModel {
				t.Errorf("provider %q model %q, want %q %q", p, m, c.wantProvider, c.wantModel)
			}
		})
	}
	cfg := load(t, layout138, map[string]string{"GROQ_API_KEY": "from-env"})
	if v, _ := cfg.Get("GROQ_API_KEY"); v != "from-env" {
		t.Errorf("env first: %q", v)
	}
	if v, _ := load(t, layout138, nil).Get("GROQ_API_KEY"); v != "from-config" {
		t.Errorf("config.yaml: %q", v)
	}
}

func TestDirs(t *testing.T) {
	for _, c := range []struct {
		env             map[string]string
		config, dataDir string
	}{
		{map[string]string{"GOOSE_PATH_ROOT": "/r", "XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/r/config", "/r/data"},
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/goose", "/h/.local/share/goose"},
		{map[string]string{"HOME": "/h"}, "/h/.config/goose", "/h/.local/share/goose"},
		{map[string]string{}, "", ""},
	} {
		cd, dd := Dirs(envOf(c.env))
		if cd != filepath.FromSlash(c.config) || dd != filepath.FromSlash(c.dataDir) {
			t.Errorf("%v: %q %q", c.env, cd, dd)
		}
	}
}
