// Package configure builds the Provider a run uses from goose's settings: recipe settings override
// GOOSE_PROVIDER/GOOSE_MODEL and the vendor variables. Each variable is read as goose reads it: a
// setting (host, timeout, model knobs) from the environment, then config.yaml; a credential (the keys
// goose marks secret) from the environment, then goose's secret storage, so the keyring is not asked
// for what the environment holds. The provider is one goose-ls implements natively, or one of goose's
// declarative providers (the built-ins and the user's custom_providers, agent/provider/registry).
package configure

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/anthropic"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

// Source is goose's configuration as a provider reads it (*config.Config).
type Source interface {
	// Get reads a setting (goose's get_param).
	Get(key string) (string, bool)
	// GetSecret reads a credential (goose's get_secret).
	GetSecret(key string) (string, bool)
	// GetSecrets reads a key and its companions (goose's get_secrets).
	GetSecrets(primary string, others ...string) (map[string]string, bool)
}

// Lookup is a Source of one function answering settings and secrets alike: a configuration without
// a secret storage (tests, a fixed set of variables).
type Lookup func(key string) (string, bool)

// Get calls l.
func (l Lookup) Get(key string) (string, bool) { return l(key) }

// GetSecret calls l.
func (l Lookup) GetSecret(key string) (string, bool) { return l(key) }

// GetSecrets is every key l has, nothing without primary.
func (l Lookup) GetSecrets(primary string, others ...string) (map[string]string, bool) {
	v, ok := l(primary)
	if !ok {
		return nil, false
	}
	out := map[string]string{primary: v}
	for _, k := range others {
		if v, ok := l(k); ok {
			out[k] = v
		}
	}
	return out, true
}

// Providers lists the goose providers goose-ls implements natively (the declarative ones come from
// the registry).
var Providers = []string{"openai", "anthropic", "ollama", "openrouter", "litellm", "azure_openai", "xai", "avian"}

// compatible are goose's native providers that are an OpenAI-compatible endpoint with a required key
// (OpenAiCompatibleProvider: host + chat/completions, never the Responses API).
var compatible = map[string]struct{ keyVar, hostVar, host string }{
	"xai":   {"XAI_API_KEY", "XAI_HOST", "https://api.x.ai/v1"},
	"avian": {"AVIAN_API_KEY", "AVIAN_HOST", "https://api.avian.io/v1"},
}

// defaultModels are goose's defaults per provider.
var defaultModels = map[string]string{
	"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5", "ollama": "qwen3",
	"openrouter": "anthropic/claude-sonnet-4", "litellm": "gpt-4o-mini",
	"xai": "grok-code-fast-1", "avian": "deepseek/deepseek-v3.2",
}

// Resolve builds the provider, with the custom providers of the config folder the configuration's
// variables name (GOOSE_PATH_ROOT, XDG_CONFIG_HOME, HOME: the environment first, as config.Load does).
func Resolve(src Source, s provider.Settings) (provider.Setup, error) {
	configDir, _ := config.Dirs(src.Get)
	return ResolveWith(registry.Load(registry.CustomDir(configDir)), src, s)
}

// trimmed is a value with its spaces cut, "" when unset.
func trimmed(v string, ok bool) string {
	if !ok {
		return ""
	}
	return strings.TrimSpace(v)
}

// ResolveWith builds the provider against a loaded registry. Names match exactly (goose has no
// aliases); a custom provider replaces a native one of the same name, as goose registers it last.
func ResolveWith(reg *registry.Registry, src Source, s provider.Settings) (provider.Setup, error) {
	val := func(k, def string) string {
		if v := trimmed(src.Get(k)); v != "" {
			return v
		}
		return def
	}
	secretVal := func(k string) string { return trimmed(src.GetSecret(k)) }
	name := s.Provider
	if name == "" {
		name = val("GOOSE_PROVIDER", "")
	}
	if name == "" {
		return provider.Setup{}, fmt.Errorf("no provider configured: set GOOSE_PROVIDER (one of %s) and GOOSE_MODEL in the environment or in goose's config.yaml, or goose_provider in the recipe's settings", strings.Join(known(reg), ", "))
	}
	decl, isDecl := Declarative(reg, name)
	if !isDecl && !isNative(name) {
		return provider.Setup{}, unknownProvider(reg, name)
	}
	model := s.Model
	if model == "" {
		def := defaultModels[name]
		if isDecl {
			def = decl.DefaultModel()
		}
		model = val("GOOSE_MODEL", def)
	}
	if model == "" && isDecl {
		return provider.Setup{}, fmt.Errorf("no model configured for provider %s (it lists none; goose asks the server): set GOOSE_MODEL, or goose_model in the recipe's settings", name)
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
	needSecret := func(key string) (string, error) {
		v := secret(secretVal(key))
		if v == "" {
			return "", fmt.Errorf("provider %s needs %s: set it in the environment, or store it where goose keeps secrets (goose configure, or goose-ls secret set %s)", name, key, key)
		}
		return v, nil
	}
	// keyAndHeaders is goose's get_secrets of a key and its custom headers variable; each header
	// value is a credential of its own (an auth token is echoed alone, without the other headers)
	keyAndHeaders := func(keyVar, headersVar string) (string, map[string]string) {
		got, _ := src.GetSecrets(keyVar, headersVar)
		h := parseHeaders(secret(strings.TrimSpace(got[headersVar])))
		for _, v := range h {
			secret(v)
		}
		return secret(strings.TrimSpace(got[keyVar])), h
	}
	var p provider.Provider
	switch {
	case isDecl:
		var err error
		read := reader{param: func(k string) string { return val(k, "") }, secret: secretVal}
		if p, err = declarative(decl, model, read, &r); err != nil {
			return r, fmt.Errorf("provider %s: %w", name, err)
		}
		r.Provider = provider.WithRetry(p, provider.DefaultRetry)
		r.ContextLimit = contextLimit(val("GOOSE_CONTEXT_LIMIT", ""), name, model)
		if n := decl.ContextLimit(model); n > 0 && val("GOOSE_CONTEXT_LIMIT", "") == "" {
			r.ContextLimit = n
		}
		return r, nil
	case name == "openai":
		host, basePath, err := openaiEndpoint(func(k string) string { return val(k, "") })
		if err != nil {
			return r, err
		}
		key, headers := keyAndHeaders("OPENAI_API_KEY", "OPENAI_CUSTOM_HEADERS")
		if key == "" && strings.Contains(host, "api.openai.com") {
			return r, fmt.Errorf("provider openai needs OPENAI_API_KEY: set it in the environment, or store it where goose keeps secrets (goose configure, or goose-ls secret set OPENAI_API_KEY); or point OPENAI_HOST at a server that needs no key")
		}
		cfg := openai.Config{Name: name, APIKey: key, Headers: headers, Timeout: timeout("OPENAI_TIMEOUT"), IncludeUsage: true,
			Organization: val("OPENAI_ORGANIZATION", ""), Project: val("OPENAI_PROJECT", "")}
		cfg.Responses = openai.UseResponses(name, model, basePath)
		if cfg.Responses {
			basePath = openai.ResponsesPath(basePath)
		}
		cfg.BaseURL, cfg.Path, cfg.Query = sdkEndpoint(host, basePath)
		cfg.DropThinking = isOpenAIHost(host) // goose sends reasoning back to compatible servers only
		p = openai.New(cfg)
	case name == "ollama":
		p = openai.New(openai.Config{Name: name, BaseURL: ollamaURL(val("OLLAMA_HOST", "localhost")) + "v1/", Timeout: timeout("OLLAMA_TIMEOUT"), IncludeUsage: true})
	case name == "openrouter":
		key, err := needSecret("OPENROUTER_API_KEY")
		if err != nil {
			return r, err
		}
		p = openai.New(openai.Config{Name: name, BaseURL: strings.TrimRight(val("OPENROUTER_HOST", "https://openrouter.ai"), "/") + "/api/v1/", APIKey: key,
			Headers: map[string]string{"HTTP-Referer": "https://github.com/goose-ls/goose-ls", "X-Title": "goose-ls"}, IncludeUsage: true, OpenRouter: true})
	case name == "litellm":
		key, headers := keyAndHeaders("LITELLM_API_KEY", "LITELLM_CUSTOM_HEADERS")
		p = openai.New(openai.Config{Name: name, BaseURL: baseURL(val("LITELLM_HOST", "http://localhost:4000"), val("LITELLM_BASE_PATH", "v1/chat/completions")),
			APIKey: key, Headers: headers, Timeout: timeout("LITELLM_TIMEOUT"), IncludeUsage: true})
	case name == "azure_openai":
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
			APIKey:  secret(secretVal("AZURE_OPENAI_API_KEY")), IncludeUsage: true})
	case name == "anthropic":
		key, err := needSecret("ANTHROPIC_API_KEY")
		if err != nil {
			return r, err
		}
		p = anthropic.New(anthropic.Config{BaseURL: val("ANTHROPIC_HOST", "https://api.anthropic.com"), APIKey: key, Timeout: timeout("ANTHROPIC_TIMEOUT")})
	default: // compatible[name]
		c := compatible[name]
		key, err := needSecret(c.keyVar)
		if err != nil {
			return r, err
		}
		host := val(c.hostVar, c.host)
		if !strings.Contains(host, "://") {
			host = "https://" + host
		}
		p = openai.New(openai.Config{Name: name, BaseURL: strings.TrimRight(host, "/") + "/", APIKey: key, IncludeUsage: true})
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

// ollamaURL applies goose's OLLAMA_HOST rules: a host without a scheme gets http://, and port 11434 only
// when it is exactly localhost or 127.0.0.1 (goose's test: no ':' in the value and a loopback name; a
// remote bare host keeps the scheme's default port).
func ollamaURL(host string) string {
	loopback := !strings.Contains(host, ":") && (host == "localhost" || host == "127.0.0.1")
	if !strings.HasPrefix(host, "http://") && !strings.HasPrefix(host, "https://") {
		host = "http://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return host
	}
	if loopback && u.Port() == "" {
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

// isOpenAIHost is goose's check for OpenAI's own API: the host api.openai.com or one under it.
func isOpenAIHost(host string) bool {
	u, err := url.Parse(host)
	if err != nil {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == "api.openai.com" || strings.HasSuffix(h, ".api.openai.com")
}
