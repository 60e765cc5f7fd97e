// The catalog holds exactly the providers runs resolve, with the keys and settings resolution asks for;
// Check finds what configure would fix and nothing else.

package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// Every choice is a provider resolution accepts; a required key or setting left out is what resolution
// refuses, and with all of them given it starts.
func TestChoicesAreWhatRunsResolve(t *testing.T) {
	c := Load("")
	choices := c.Choices()
	if len(choices) != len(configure.Providers)+len(registry.Builtins()) {
		t.Fatalf("%d choices, want the %d native and %d built-in providers", len(choices), len(configure.Providers), len(registry.Builtins()))
	}
	for i, ch := range choices {
		if i > 0 && strings.ToLower(choices[i-1].DisplayName) > strings.ToLower(ch.DisplayName) {
			t.Errorf("%s listed after %s", ch.DisplayName, choices[i-1].DisplayName)
		}
		full := map[string]string{"GOOSE_PROVIDER": ch.Name, "GOOSE_MODEL": "some-model"}
		for _, s := range ch.Settings {
			full[s.Name] = "https://example.invalid"
		}
		if ch.Key != "" {
			full[ch.Key] = "sk-test"
		}
		if _, err := configure.Resolve(configure.Lookup(lookup(full)), provider.Settings{}); err != nil {
			t.Errorf("%s with its key and settings: %v", ch.Name, err)
		}
		if err := c.Check(configure.Lookup(lookup(full)), ""); err != nil {
			t.Errorf("%s with its key and settings: Check says %v", ch.Name, err)
		}
		for _, need := range append(requiredNames(ch), "") {
			if need == "" {
				continue
			}
			partial := map[string]string{}
			for k, v := range full {
				if k != need {
					partial[k] = v
				}
			}
			_, rerr := configure.Resolve(configure.Lookup(lookup(partial)), provider.Settings{})
			err := c.Check(configure.Lookup(lookup(partial)), "")
			var m *Missing
			if !errors.As(err, &m) || m.Name != need || m.Provider != ch.Name {
				t.Errorf("%s without %s: Check says %v", ch.Name, need, err)
			}
			if rerr == nil {
				t.Errorf("%s without %s: resolution accepts it, Check refuses it", ch.Name, need)
			}
		}
		if ch.Key != "" && !ch.KeyRequired {
			delete(full, ch.Key)
			if _, err := configure.Resolve(configure.Lookup(lookup(full)), provider.Settings{}); err != nil {
				t.Errorf("%s: an optional key is required by resolution: %v", ch.Name, err)
			}
		}
	}
}

func requiredNames(ch Choice) []string {
	var out []string
	for _, s := range ch.Settings {
		out = append(out, s.Name)
	}
	if ch.KeyRequired {
		out = append(out, ch.Key)
	}
	return out
}

func TestCatalogFacts(t *testing.T) {
	c := Load("")
	for _, tc := range []struct {
		name, display, key string
		required           bool
		defaultModel       string
		settings           []string
	}{
		{"openai", "OpenAI", "OPENAI_API_KEY", true, "gpt-4o", nil},
		{"ollama", "Ollama", "", false, "qwen3", nil},
		{"lmstudio", "LM Studio", "LMSTUDIO_API_KEY", false, "", nil},
		{"groq", "Groq", "GROQ_API_KEY", true, "moonshotai/kimi-k2-instruct-0905", nil},
		{"tanzu_ai", "VMware Tanzu Platform", "TANZU_AI_API_KEY", true, "openai/gpt-oss-120b", []string{"TANZU_AI_ENDPOINT"}},
		{"azure_openai", "Azure OpenAI", "AZURE_OPENAI_API_KEY", false, "", []string{"AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_DEPLOYMENT_NAME"}},
	} {
		ch, ok := c.Lookup(tc.name)
		if !ok {
			t.Errorf("%s: not in the catalog", tc.name)
			continue
		}
		var settings []string
		for _, s := range ch.Settings {
			settings = append(settings, s.Name)
		}
		if ch.DisplayName != tc.display || ch.Key != tc.key || ch.KeyRequired != tc.required || ch.DefaultModel() != tc.defaultModel || strings.Join(settings, ",") != strings.Join(tc.settings, ",") {
			t.Errorf("%s: %+v", tc.name, ch)
		}
	}
	if _, ok := c.Lookup("databricks"); ok {
		t.Error("a goose provider goose-ls does not run is offered")
	}
}

// A custom provider joins the catalog (replacing a native one of its name); a broken custom file leaves
// the native providers only, as goose registers no declarative provider then.
func TestCatalogCustomProviders(t *testing.T) {
	dir := t.TempDir()
	custom := filepath.Join(dir, "custom_providers")
	os.MkdirAll(custom, 0o755)
	os.WriteFile(filepath.Join(custom, "custom_mine.json"), []byte(`{"name":"custom_mine","engine":"openai","display_name":"Mine",
		"api_key_env":"MINE_KEY","base_url":"http://127.0.0.1:1/v1","models":[{"name":"m1","context_limit":1000},{"name":"m2","context_limit":1000}]}`), 0o644)
	os.WriteFile(filepath.Join(custom, "openai.json"), []byte(`{"name":"openai","engine":"openai","display_name":"My OpenAI proxy",
		"api_key_env":"PROXY_KEY","base_url":"http://127.0.0.1:2/v1","models":[{"name":"p1","context_limit":1000}]}`), 0o644)
	c := Load(dir)
	mine, ok := c.Lookup("custom_mine")
	if !ok || mine.Key != "MINE_KEY" || !mine.KeyRequired || strings.Join(mine.Models, ",") != "m1,m2" {
		t.Errorf("custom_mine: %+v %v", mine, ok)
	}
	proxy, _ := c.Lookup("openai")
	if proxy.DisplayName != "My OpenAI proxy" || proxy.Key != "PROXY_KEY" {
		t.Errorf("the custom openai does not replace the native one: %+v", proxy)
	}
	// the native openai's own-server rule does not apply to the replacement
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "openai", "OPENAI_HOST": "http://127.0.0.1:3"})), ""); err == nil {
		t.Error("the custom openai runs without its key")
	}
	os.WriteFile(filepath.Join(custom, "broken.json"), []byte(`{`), 0o644)
	c = Load(dir)
	if c.CustomErr() == nil || len(c.Choices()) != len(configure.Providers) {
		t.Errorf("with a broken custom file: %v, %d choices", c.CustomErr(), len(c.Choices()))
	}
}

func TestCheck(t *testing.T) {
	c := Load("")
	var m *Missing
	if err := c.Check(configure.Lookup(lookup(nil)), ""); !errors.As(err, &m) || m.Provider != "" || err.Error() != "no provider is configured" {
		t.Errorf("nothing configured: %v", err)
	}
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "  "})), ""); !errors.As(err, &m) || m.Provider != "" {
		t.Errorf("a blank provider: %v", err)
	}
	err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": " "})), "")
	if !errors.As(err, &m) || m.Name != "ANTHROPIC_API_KEY" || !strings.Contains(err.Error(), "Anthropic") {
		t.Errorf("anthropic with a blank key: %v", err)
	}
	// the name given wins over the configured one (a recipe's goose_provider)
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "anthropic"})), "ollama"); err != nil {
		t.Errorf("ollama named: %v", err)
	}
	// goose's openai sends no key to the user's own server
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "openai", "OPENAI_BASE_URL": "http://localhost:8080/v1"})), ""); err != nil {
		t.Errorf("openai at a local server: %v", err)
	}
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "openai", "OPENAI_HOST": "https://api.openai.com"})), ""); !errors.As(err, &m) {
		t.Errorf("openai at api.openai.com without a key: %v", err)
	}
	// an unknown provider is resolution's to explain
	if err := c.Check(configure.Lookup(lookup(map[string]string{"GOOSE_PROVIDER": "databricks"})), ""); err != nil {
		t.Errorf("databricks: %v", err)
	}
}
