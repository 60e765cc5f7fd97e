// goose's choice of storage (GOOSE_DISABLE_KEYRING as goose tests it), secrets.yaml merged on write
// without losing a key, and errors that never quote a secret.

package secretstore

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/config"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// configDir makes GOOSE_PATH_ROOT/config with the given files.
func configDir(t *testing.T, files map[string]string) (root string) {
	t.Helper()
	root = t.TempDir()
	dir := filepath.Join(root, "config")
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

// goose asks get_param::<Value>("GOOSE_DISABLE_KEYRING").is_ok(): any value in the environment, or the
// key in config.yaml with any value, null and false included.
func TestDisableKeyringIsSetAsGooseTestsIt(t *testing.T) {
	for _, c := range []struct {
		name, configYAML string
		env              map[string]string
		disabled         bool
	}{
		{"unset", "", nil, false},
		{"env 1", "", map[string]string{"GOOSE_DISABLE_KEYRING": "1"}, true},
		{"env false", "", map[string]string{"GOOSE_DISABLE_KEYRING": "false"}, true},
		{"env empty", "", map[string]string{"GOOSE_DISABLE_KEYRING": ""}, true},
		{"config true", "GOOSE_DISABLE_KEYRING: true\n", nil, true},
		{"config false", "GOOSE_DISABLE_KEYRING: false\n", nil, true},
		{"config null", "GOOSE_DISABLE_KEYRING:\n", nil, true},
		{"lowercase key in config is another key", "goose_disable_keyring: true\n", nil, false},
	} {
		root := configDir(t, map[string]string{"config.yaml": c.configYAML})
		e := map[string]string{"GOOSE_PATH_ROOT": root}
		for k, v := range c.env {
			e[k] = v
		}
		cfg, err := config.Load(env(e))
		if err != nil {
			t.Fatal(err)
		}
		if got := New(cfg).disabled; got != c.disabled {
			t.Errorf("%s: disabled %v, want %v", c.name, got, c.disabled)
		}
	}
}

// With the keyring disabled, secrets.yaml is read and written: a write keeps every other key (whatever
// its type), the file stays owner-only, and config.GetSecret finds the secret (config.Get, goose's
// get_param, does not read the secret storage).
func TestSecretsYAMLReadAndMerged(t *testing.T) {
	root := configDir(t, map[string]string{
		"config.yaml":  "OPENAI_HOST: http://from-config\n",
		"secrets.yaml": "OPENAI_API_KEY: sk-old-value-1\nGITHUB_TOKEN: ghp-keep-me-2\nPORT: 8080\n",
	})
	cfg, store, err := Load(env(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_DISABLE_KEYRING": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg.GetSecret("OPENAI_API_KEY"); v != "sk-old-value-1" {
		t.Errorf("OPENAI_API_KEY %q", v)
	}
	if v, ok := cfg.Get("OPENAI_API_KEY"); ok {
		t.Errorf("Get read the secret storage: %q", v)
	}
	var reported []string
	store.Watch(func(msg string) { t.Errorf("notice with the keyring disabled: %s", msg) }, func(v ...string) { reported = append(reported, v...) })
	if !slices.Contains(reported, "ghp-keep-me-2") || !slices.Contains(reported, "sk-old-value-1") {
		t.Errorf("values reported for redaction: %q", reported)
	}
	where, err := store.Set("OPENAI_API_KEY", "sk-new-value-3")
	path := filepath.Join(root, "config", "secrets.yaml")
	if err != nil || where != path {
		t.Fatalf("Set: %q %v", where, err)
	}
	if v, _ := cfg.GetSecret("OPENAI_API_KEY"); v != "sk-new-value-3" {
		t.Errorf("after Set: %q", v)
	}
	if !slices.Contains(reported, "sk-new-value-3") {
		t.Errorf("the written secret was not reported for redaction: %q", reported)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"OPENAI_API_KEY: sk-new-value-3", "GITHUB_TOKEN: ghp-keep-me-2", "PORT: 8080"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("secrets.yaml lacks %q:\n%s", want, data)
		}
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	// the environment wins over the storage; config.yaml keeps its own keys
	cfg2, _, _ := Load(env(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_DISABLE_KEYRING": "1", "OPENAI_API_KEY": "sk-env"}))
	if v, _ := cfg2.Get("OPENAI_API_KEY"); v != "sk-env" {
		t.Errorf("env: %q", v)
	}
	if v, _ := cfg2.Get("OPENAI_HOST"); v != "http://from-config" {
		t.Errorf("config.yaml: %q", v)
	}
}

// A secrets.yaml that does not parse is reported without its text (which holds secrets), and a write
// refuses to replace it (the secrets in it would be lost).
func TestBrokenSecretsYAMLIsNotQuoted(t *testing.T) {
	root := configDir(t, map[string]string{"secrets.yaml": "OPENAI_API_KEY: sk-secret-inside-9\n  bad: [\n"})
	_, store, err := Load(env(map[string]string{"GOOSE_PATH_ROOT": root, "GOOSE_DISABLE_KEYRING": "1"}))
	if err != nil {
		t.Fatal(err)
	}
	var notices []string
	store.Watch(func(msg string) { notices = append(notices, msg) }, nil)
	if _, ok := store.Lookup("OPENAI_API_KEY"); ok {
		t.Error("a secret read from a broken file")
	}
	if _, err := store.Set("X_KEY", "x-value-123"); err == nil || strings.Contains(err.Error(), "sk-secret-inside-9") {
		t.Errorf("Set over a broken file: %v", err)
	}
	for _, n := range notices {
		if strings.Contains(n, "sk-secret-inside-9") {
			t.Errorf("notice quotes the secret: %s", n)
		}
	}
	data, _ := os.ReadFile(filepath.Join(root, "config", "secrets.yaml"))
	if !strings.Contains(string(data), "sk-secret-inside-9") {
		t.Error("the broken file was replaced")
	}
}

// An entry that is not a JSON object is one goose cannot read: no secrets, and a message without it.
func TestEntryNotAnObject(t *testing.T) {
	for _, text := range []string{`["sk-in-array-entry"]`, `sk-plain-entry-value`, `{"A":"sk-trunc`, ``} {
		r := parseEntry(text, nil)
		if r.err == nil || r.unreachable || strings.Contains(r.err.Error(), "sk-") {
			t.Errorf("%q: %+v", text, r)
		}
	}
	r := parseEntry(`{"OPENAI_API_KEY":"sk-1","N":42,"O":{"a":1},"Z":null}`, nil)
	if r.err != nil || text(r.values["OPENAI_API_KEY"]) != "sk-1" || text(r.values["N"]) != "42" || r.values["Z"] != nil {
		t.Errorf("%+v", r)
	}
}
