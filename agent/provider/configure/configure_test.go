// Provider resolution: precedence, missing variables named, URL rules.
package configure

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func lookup(m map[string]string) Lookup {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestResolve(t *testing.T) {
	_, err := Resolve(lookup(nil), provider.Settings{})
	if err == nil || !strings.Contains(err.Error(), "GOOSE_PROVIDER") {
		t.Errorf("no provider: %v", err)
	}
	_, err = Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "anthropic"}), provider.Settings{})
	if err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("anthropic without key: %v", err)
	}
	_, err = Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "openai"}), provider.Settings{})
	if err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("openai without key: %v", err)
	}
	// a local OpenAI-compatible server needs no key
	r, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "openai", "OPENAI_HOST": "http://127.0.0.1:9"}), provider.Settings{})
	if err != nil || r.Model != "gpt-4o" || r.ContextLimit != 128000 {
		t.Errorf("local openai: %+v %v", r, err)
	}
	// recipe settings win over the environment
	temp := 0.2
	r, err = Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4o", "OPENAI_API_KEY": "sk-1", "ANTHROPIC_API_KEY": "ak-2"}),
		provider.Settings{Provider: "anthropic", Model: "claude-x", Temperature: &temp})
	if err != nil || r.Name != "anthropic" || r.Model != "claude-x" || *r.Temperature != 0.2 || r.ContextLimit != 200000 {
		t.Errorf("settings: %+v %v", r, err)
	}
	if len(r.Secrets) != 1 || r.Secrets[0] != "ak-2" {
		t.Errorf("secrets %v", r.Secrets)
	}
	_, err = Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "azure_openai", "AZURE_OPENAI_ENDPOINT": "https://x.openai.azure.com"}), provider.Settings{})
	if err == nil || !strings.Contains(err.Error(), "AZURE_OPENAI_DEPLOYMENT_NAME") {
		t.Errorf("azure: %v", err)
	}
	if _, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": "nope"}), provider.Settings{}); err == nil || !strings.Contains(err.Error(), "unknown provider") {
		t.Errorf("unknown: %v", err)
	}
}

func TestURLs(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{baseURL("https://api.openai.com", "v1/chat/completions"), "https://api.openai.com/v1/"},
		{baseURL("http://localhost:8000/", "/v1/chat/completions"), "http://localhost:8000/v1/"},
		{baseURL("api.example.com", "openai/v1/chat/completions"), "https://api.example.com/openai/v1/"},
		{ollamaURL("localhost"), "http://localhost:11434/"},
		{ollamaURL("127.0.0.1"), "http://127.0.0.1:11434/"},
		{ollamaURL("gpu-box"), "http://gpu-box/"}, // goose adds the port to loopback names only
		{ollamaURL("localhost:9000"), "http://localhost:9000/"},
		{ollamaURL("http://gpu-box:8080"), "http://gpu-box:8080/"},
		{ollamaURL("https://ollama.example.com"), "https://ollama.example.com/"},
	} {
		if c.got != c.want {
			t.Errorf("got %s want %s", c.got, c.want)
		}
	}
	if h := parseHeaders("X-A: 1\nX-B: two"); h["X-A"] != "1" || h["X-B"] != "two" {
		t.Errorf("headers %v", h)
	}
}

// Each custom header value is a secret of its own: a server echoing one header quotes it alone. goose
// reads the headers with their provider's key (get_secrets): without the key there are none.
func TestCustomHeaderValuesAreSecrets(t *testing.T) {
	for _, name := range []string{"openai", "litellm"} {
		prefix := strings.ToUpper(name)
		vars := map[string]string{"GOOSE_PROVIDER": name, "OPENAI_HOST": "http://127.0.0.1:9",
			prefix + "_CUSTOM_HEADERS": "X-Auth: token-value-123, X-Team=team-secret-9", prefix + "_API_KEY": "sk-header-test-1"}
		r, err := Resolve(lookup(vars), provider.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		joined := "\n" + strings.Join(r.Secrets, "\n") + "\n"
		for _, want := range []string{"token-value-123", "team-secret-9", "X-Auth: token-value-123, X-Team=team-secret-9", "sk-header-test-1"} {
			if !strings.Contains(joined, "\n"+want+"\n") {
				t.Errorf("%s: secrets %q lack %q", name, r.Secrets, want)
			}
		}
		delete(vars, prefix+"_API_KEY")
		if r, err = Resolve(lookup(vars), provider.Settings{}); err != nil || len(r.Secrets) != 0 {
			t.Errorf("%s without its key: secrets %q (%v), want no headers read", name, r.Secrets, err)
		}
	}
}
