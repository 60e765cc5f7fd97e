// goose's declarative providers (built-in and custom_providers) built as goose builds them: ${VAR}
// placeholders of base_url, the key variable or the auth command, wire_api, and each engine's URL rules.

package configure

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/anthropic"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

// defaultDeclarativeTimeout is goose's DEFAULT_PROVIDER_TIMEOUT_SECS (ollama engine: OLLAMA_TIMEOUT, also 600).
const defaultDeclarativeTimeout = 600 * time.Second

// reader reads a provider's variables as goose does, trimmed ("" when unset): param a setting (goose's
// get_param: environment, config.yaml), secret a credential (get_secret: environment, secret storage).
type reader struct{ param, secret func(string) string }

// expandBaseURL fills base_url's ${NAME} placeholders from the configuration — a variable marked
// secret from goose's secrets, registered in r.Secrets (a credential inside the URL), any other as a
// setting — else the variable's default; a required one missing is goose's error; a placeholder
// without a value is left as it is (and the URL then fails to parse, as in goose). Only the variables
// of placeholders in base_url are read, as goose reads them.
func expandBaseURL(p *registry.Provider, read reader, r *provider.Setup) (string, error) {
	out := p.BaseURL
	for _, v := range p.EnvVars {
		placeholder := "${" + v.Name + "}"
		if !strings.Contains(out, placeholder) {
			continue
		}
		var value string
		if v.Secret {
			value = read.secret(v.Name)
			r.Secrets = appendSecret(r.Secrets, value)
		} else {
			value = read.param(v.Name)
		}
		if value == "" {
			switch {
			case v.Default != nil:
				value = *v.Default
			case v.Required:
				return "", fmt.Errorf("Required environment variable %s is not set", v.Name)
			default:
				continue
			}
		}
		out = strings.ReplaceAll(out, placeholder, value)
	}
	return out, nil
}

// streaming is supports_streaming after goose's override by a variable named *_STREAMING (a setting).
func streaming(p *registry.Provider, val func(string) string) bool {
	on := p.SupportsStreaming == nil || *p.SupportsStreaming
	for _, v := range p.EnvVars {
		if !strings.HasSuffix(v.Name, "_STREAMING") {
			continue
		}
		if s := val(v.Name); s != "" {
			on = strings.EqualFold(s, "true")
		} else if v.Default != nil {
			on = strings.EqualFold(*v.Default, "true")
		}
	}
	return on
}

// declarative builds the provider p for model; credentials go to r.Secrets, an auth command's (fetched
// on the first request and again on refresh) to r.WatchSecrets's watcher.
func declarative(p *registry.Provider, model string, read reader, r *provider.Setup) (provider.Provider, error) {
	if p.DynamicModels != nil && !*p.DynamicModels && len(p.Models) == 0 {
		return nil, fmt.Errorf("Provider '%s' has dynamic_models: false but no static models listed; at least one entry in `models` is required.", p.Name)
	}
	base, err := expandBaseURL(p, read, r)
	if err != nil {
		return nil, err
	}
	timeout := defaultDeclarativeTimeout
	if p.TimeoutSeconds != nil && *p.TimeoutSeconds > 0 {
		timeout = time.Duration(min(*p.TimeoutSeconds, 1<<31)) * time.Second
	}
	headers := p.Headers
	if p.Custom {
		for _, v := range headers { // a custom file's headers may carry a credential
			r.Secrets = appendSecret(r.Secrets, v)
		}
	}
	stream := streaming(p, read.param)
	sessionHeader := ""
	if p.SessionIDHeader != nil {
		sessionHeader = *p.SessionIDHeader
	}
	switch p.Engine {
	case registry.EngineAnthropic:
		if err := p.ValidateAuth(); err != nil {
			return nil, err
		}
		key := ""
		if p.Auth == nil {
			key = read.secret(p.APIKeyEnv)
			if p.APIKeyEnv == "" || key == "" {
				return nil, fmt.Errorf("Missing API key: %s", p.APIKeyEnv)
			}
		}
		if !stream {
			return nil, fmt.Errorf("Anthropic provider does not support non-streaming mode. All Claude models support streaming. Please remove 'supports_streaming: false' from your provider configuration.")
		}
		if u, err := url.Parse(base); err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("Invalid base URL '%s': %v", base, urlProblem(err))
		}
		r.Secrets = appendSecret(r.Secrets, key)
		return anthropic.New(anthropic.Config{Name: p.Name, BaseURL: base, APIKey: key, Headers: headers, Timeout: timeout,
			HTTPClient: authClient(p, "x-api-key", "", r), SessionHeader: sessionHeader}), nil
	case registry.EngineOllama:
		if !stream {
			return nil, fmt.Errorf("Ollama provider does not support non-streaming mode. All Ollama models support streaming. Please remove 'supports_streaming: false' from your provider configuration.")
		}
		u, err := ollamaBase(base)
		if err != nil {
			return nil, err
		}
		// goose's ollama engine sends no key (an auth command's credential only); it posts to
		// v1/chat/completions under the base URL
		return openai.New(openai.Config{Name: p.Name, BaseURL: u + "v1/", Headers: headers, Timeout: timeout, IncludeUsage: true,
			HTTPClient: authClient(p, "Authorization", "Bearer ", r), SessionHeader: sessionHeader}), nil
	}
	if err := p.ValidateAuth(); err != nil {
		return nil, err
	}
	key := ""
	if p.APIKeyEnv != "" {
		key = read.secret(p.APIKeyEnv)
		if key == "" && p.RequiresAuth {
			return nil, fmt.Errorf("Required API key %s is not set. Configure it via `goose configure` or set the %s environment variable.", p.APIKeyEnv, p.APIKeyEnv)
		}
		r.Secrets = appendSecret(r.Secrets, key)
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("Invalid base URL '%s': %v", base, urlProblem(err))
	}
	basePath := openai.DeriveBasePath(u.Path)
	if p.BasePath != nil {
		basePath = strings.TrimLeft(*p.BasePath, "/")
	}
	responses, path := openai.Route(p.Name, model, basePath, string(p.ModelWireAPI(model)))
	return openai.New(openai.Config{Name: p.Name, BaseURL: hostOnly(u), Path: path, APIKey: key, Headers: headers,
		Timeout: timeout, IncludeUsage: true, Responses: responses, NoStream: !stream, HTTPClient: authClient(p, "Authorization", "Bearer ", r),
		SessionHeader: sessionHeader, DropThinking: p.PreservesThinking != nil && !*p.PreservesThinking}), nil
}

// declarativeTransport carries a declarative provider's requests; nil is net/http's default. The
// table test of every built-in points it at local servers.
var declarativeTransport http.RoundTripper

// authClient is the HTTP client of a declarative provider (nil: the SDK's default); with an auth command
// the command's credential goes into header (after prefix) on every request, refreshed as goose
// refreshes it, and each credential it prints is reported through r.WatchSecrets as it is fetched.
func authClient(p *registry.Provider, header, prefix string, r *provider.Setup) *http.Client {
	switch {
	case p.Auth != nil:
		auth := registry.NewCommandAuth(*p.Auth, header, prefix)
		r.WatchSecrets = auth.Watch
		return &http.Client{Transport: auth.Transport(declarativeTransport)}
	case declarativeTransport != nil:
		return &http.Client{Transport: declarativeTransport}
	}
	return nil
}

func urlProblem(err error) string {
	if err != nil {
		return err.Error()
	}
	return "relative URL without a base"
}

// hostOnly is scheme://host[:port]/ of u (goose keeps neither the path nor the query of an
// openai-engine base_url; a scheme's default port is dropped as Rust's url does).
func hostOnly(u *url.URL) string {
	host, port := u.Hostname(), u.Port()
	if (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return u.Scheme + "://" + host + "/"
}

// ollamaBase applies goose's ollama-engine URL rules: http:// when no scheme is given, port 11434 when
// none is given (unless https, or the URL ends in :80/:443); the path is kept, with a trailing slash.
func ollamaBase(base string) (string, error) {
	raw := base
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		raw = "http://" + base
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("Invalid base URL '%s': %v", base, urlProblem(err))
	}
	explicitDefault := strings.HasSuffix(base, ":80") || strings.HasSuffix(base, ":443")
	if u.Port() == "" && !explicitDefault && u.Scheme != "https" {
		u.Host = net.JoinHostPort(u.Hostname(), "11434")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

func appendSecret(secrets []string, v string) []string {
	if v == "" {
		return secrets
	}
	return append(secrets, v)
}
