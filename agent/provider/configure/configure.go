// Package configure builds the Provider a run uses from goose's settings: recipe settings override
// GOOSE_PROVIDER/GOOSE_MODEL and the vendor variables (env, then config.yaml, then secrets.yaml).
package configure

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/anthropic"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
)

// Lookup reads a configuration key.
type Lookup func(key string) (string, bool)

// Providers lists the provider names goose-ls knows.
var Providers = []string{"openai", "anthropic", "ollama", "openrouter", "litellm", "azure_openai"}

// defaultModels are goose's defaults per provider.
var defaultModels = map[string]string{
	"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5", "ollama": "qwen3",
	"openrouter": "anthropic/claude-sonnet-4", "litellm": "gpt-4o-mini",
}

// Resolve builds the provider.
func Resolve(get Lookup, s provider.Settings) (provider.Setup, error) {
	val := func(k, def string) string {
		if v, ok := get(k); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
		return def
	}
	name := s.Provider
	if name == "" {
		name = val("GOOSE_PROVIDER", "")
	}
	if name == "" {
		return provider.Setup{}, fmt.Errorf("no provider configured: set GOOSE_PROVIDER (one of %s) and GOOSE_MODEL in the environment or in goose's config.yaml, or goose_provider in the recipe's settings", strings.Join(Providers, ", "))
	}
	name = strings.ToLower(name)
	model := s.Model
	if model == "" {
		model = val("GOOSE_MODEL", defaultModels[name])
	}
	r := provider.Setup{Name: name, Model: model, Temperature: s.Temperature}
	if r.Temperature == nil {
		if t, err := strconv.ParseFloat(val("GOOSE_TEMPERATURE", ""), 64); err == nil {
			r.Temperature = &t
		}
	}
	r.MaxTokens, _ = strconv.Atoi(val("GOOSE_MAX_TOKENS", "0"))
	timeout := func(key string) time.Duration {
		n, err := strconv.Atoi(val(key, "600"))
		if err != nil || n <= 0 {
			n = 600
		}
		return time.Duration(n) * time.Second
	}
	need := func(key string) (string, error) {
		v := val(key, "")
		if v == "" {
			return "", fmt.Errorf("provider %s needs %s: set it in the environment or in goose's config", name, key)
		}
		return v, nil
	}
	// secret registers a credential for redaction and returns it
	secret := func(v string) string {
		if v != "" {
			r.Secrets = append(r.Secrets, v)
		}
		return v
	}
	optionalSecret := func(key string) string { return secret(val(key, "")) }
	// secretHeaders parses custom headers; each value is a credential of its own (an auth token is
	// echoed alone, without the other headers of the variable)
	secretHeaders := func(key string) map[string]string {
		h := parseHeaders(optionalSecret(key))
		for _, v := range h {
			secret(v)
		}
		return h
	}
	var p provider.Provider
	switch name {
	case "openai":
		host := val("OPENAI_HOST", "https://api.openai.com")
		key := optionalSecret("OPENAI_API_KEY")
		if key == "" && strings.Contains(host, "api.openai.com") {
			return r, fmt.Errorf("provider openai needs OPENAI_API_KEY: set it in the environment or in goose's config (or point OPENAI_HOST at a server that needs no key)")
		}
		headers := secretHeaders("OPENAI_CUSTOM_HEADERS")
		p = openai.New(openai.Config{Name: name, BaseURL: baseURL(host, val("OPENAI_BASE_PATH", "v1/chat/completions")), APIKey: key,
			Headers: headers, Timeout: timeout("OPENAI_TIMEOUT"), IncludeUsage: true,
			Organization: val("OPENAI_ORGANIZATION", ""), Project: val("OPENAI_PROJECT", "")})
	case "ollama":
		p = openai.New(openai.Config{Name: name, BaseURL: ollamaURL(val("OLLAMA_HOST", "localhost")) + "v1/", Timeout: timeout("OLLAMA_TIMEOUT"), IncludeUsage: true})
	case "openrouter":
		key, err := need("OPENROUTER_API_KEY")
		if err != nil {
			return r, err
		}
		p = openai.New(openai.Config{Name: name, BaseURL: strings.TrimRight(val("OPENROUTER_HOST", "https://openrouter.ai"), "/") + "/api/v1/", APIKey: secret(key),
			Headers: map[string]string{"HTTP-Referer": "https://github.com/goose-ls/goose-ls", "X-Title": "goose-ls"}, IncludeUsage: true})
	case "litellm":
		p = openai.New(openai.Config{Name: name, BaseURL: baseURL(val("LITELLM_HOST", "http://localhost:4000"), val("LITELLM_BASE_PATH", "v1/chat/completions")),
			APIKey: optionalSecret("LITELLM_API_KEY"), Headers: secretHeaders("LITELLM_CUSTOM_HEADERS"), Timeout: timeout("LITELLM_TIMEOUT"), IncludeUsage: true})
	case "azure_openai":
		endpoint, err := need("AZURE_OPENAI_ENDPOINT")
		if err != nil {
			return r, err
		}
		deployment, err := need("AZURE_OPENAI_DEPLOYMENT_NAME")
		if err != nil {
			return r, err
		}
		if s.Model == "" && val("GOOSE_MODEL", "") == "" {
			r.Model = deployment
		}
		p = openai.New(openai.Config{Name: name, Azure: true, AzureVersion: val("AZURE_OPENAI_API_VERSION", "2024-10-21"),
			BaseURL: strings.TrimRight(endpoint, "/") + "/openai/deployments/" + url.PathEscape(deployment) + "/",
			APIKey:  optionalSecret("AZURE_OPENAI_API_KEY"), IncludeUsage: true})
	case "anthropic":
		key, err := need("ANTHROPIC_API_KEY")
		if err != nil {
			return r, err
		}
		p = anthropic.New(anthropic.Config{BaseURL: val("ANTHROPIC_HOST", "https://api.anthropic.com"), APIKey: secret(key), Timeout: timeout("ANTHROPIC_TIMEOUT")})
	default:
		return r, fmt.Errorf("unknown provider %q (known: %s)", name, strings.Join(Providers, ", "))
	}
	r.Provider = provider.WithRetry(p, provider.DefaultRetry)
	r.ContextLimit = contextLimit(val("GOOSE_CONTEXT_LIMIT", ""), name, r.Model)
	return r, nil
}

// baseURL joins goose's host and base path into the SDK's base URL (the part before chat/completions).
func baseURL(host, basePath string) string {
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	bp := strings.TrimSuffix(strings.Trim(basePath, "/"), "chat/completions")
	u := strings.TrimRight(host, "/") + "/" + strings.Trim(bp, "/")
	return strings.TrimRight(u, "/") + "/"
}

// ollamaURL applies goose's OLLAMA_HOST rules: a bare host gets http:// and port 11434.
func ollamaURL(host string) string {
	bare := !strings.Contains(host, "://")
	if bare {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return host
	}
	if bare && u.Port() == "" {
		u.Host += ":11434"
	}
	return strings.TrimRight(u.String(), "/") + "/"
}

// parseHeaders reads "Name: value" pairs separated by newlines or commas.
func parseHeaders(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' }) {
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			k, v, ok = strings.Cut(part, "=")
		}
		if ok && strings.TrimSpace(k) != "" {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// contextLimit: GOOSE_CONTEXT_LIMIT, else what the model family is known for, else 128k.
func contextLimit(env, name, model string) int {
	if n, err := strconv.Atoi(env); err == nil && n > 0 {
		return n
	}
	m := strings.ToLower(model)
	switch {
	case name == "anthropic" || strings.Contains(m, "claude"):
		return 200000
	case strings.HasPrefix(m, "gpt-4.1") || strings.Contains(m, "gemini"):
		return 1000000
	case strings.HasPrefix(m, "gpt-5") || strings.HasPrefix(m, "o3") || strings.HasPrefix(m, "o4"):
		return 200000
	case strings.HasPrefix(m, "gpt-4-turbo") || strings.HasPrefix(m, "gpt-4o"):
		return 128000
	case strings.HasPrefix(m, "gpt-3.5"):
		return 16385
	}
	return 128000
}
