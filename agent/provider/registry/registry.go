// Package registry is goose's declarative provider registry: the built-in provider definitions of goose's
// newest release (builtin/, SOURCES.md names where each came from) and the user's
// <config>/custom_providers/*.json, in goose's format and with goose's loading rules.
package registry

import (
	"embed"
	"fmt"
	"log/slog"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Engine is the implementation a declarative provider uses.
type Engine string

// The three engines (goose's JSON also takes openai_compatible, anthropic_compatible and
// ollama_compatible for them; Parse keeps the engine itself).
const (
	EngineOpenAI    Engine = "openai"
	EngineAnthropic Engine = "anthropic"
	EngineOllama    Engine = "ollama"
)

// WireAPI is which of OpenAI's two APIs an openai-engine provider (or one of its models) uses; ""
// leaves it to goose's routing by model and path.
type WireAPI string

// The two wire APIs goose's JSON names.
const (
	WireChatCompletions WireAPI = "chat_completions"
	WireResponses       WireAPI = "responses"
)

// Model is one entry of a provider's models list (the first is the provider's default model).
type Model struct {
	Name         string  `json:"name"`
	ContextLimit int     `json:"context_limit"` // 0: not given
	WireAPI      WireAPI `json:"wire_api"`      // the model's own choice, over the provider's
}

// DefaultAuthRefreshInterval is how long goose keeps a credential an auth command printed (seconds).
const DefaultAuthRefreshInterval = 3600

// AuthConfig is a provider's `auth` block: a command whose standard output is the credential, run
// directly (no shell) with args in Cwd (default: goose-ls's own folder), killed after TimeoutSeconds
// (default 10); the credential is reused for RefreshInterval seconds (0: until an authentication
// failure).
type AuthConfig struct {
	Command         string   `json:"command"`
	Args            []string `json:"args"`
	RefreshInterval uint64   `json:"refresh_interval"`
	TimeoutSeconds  *uint64  `json:"timeout_seconds"`
	Cwd             *string  `json:"cwd"`
}

// EnvVar fills a ${NAME} placeholder of base_url.
type EnvVar struct {
	Name     string  `json:"name"`
	Required bool    `json:"required"`
	Secret   bool    `json:"secret"`
	Default  *string `json:"default"`
}

// Provider is one declarative provider (goose's DeclarativeProviderConfig, the fields goose-ls uses).
type Provider struct {
	Name              string            `json:"name"`
	Engine            Engine            `json:"engine"`
	DisplayName       string            `json:"display_name"`
	APIKeyEnv         string            `json:"api_key_env"`
	BaseURL           string            `json:"base_url"`
	Models            []Model           `json:"models"`
	Headers           map[string]string `json:"headers"`
	TimeoutSeconds    *uint64           `json:"timeout_seconds"`
	SupportsStreaming *bool             `json:"supports_streaming"`
	RequiresAuth      bool              `json:"requires_auth"` // default true
	BasePath          *string           `json:"base_path"`
	EnvVars           []EnvVar          `json:"env_vars"`
	DynamicModels     *bool             `json:"dynamic_models"`
	FastModel         string            `json:"fast_model"`
	WireAPI           WireAPI           `json:"wire_api"`
	// SessionIDHeader replaces goose's agent-session-id header name (session_id_header_override).
	SessionIDHeader *string `json:"session_id_header_override"`
	// PreservesThinking is preserves_thinking (nil: absent, which goose reads as true on the openai engine).
	PreservesThinking *bool       `json:"preserves_thinking"`
	Auth              *AuthConfig `json:"auth"`
	// Custom is true for a file from custom_providers (File names it).
	Custom bool   `json:"-"`
	File   string `json:"-"`
}

// DefaultModel is the first listed model ("" for a dynamic provider with none).
func (p *Provider) DefaultModel() string {
	if len(p.Models) == 0 {
		return ""
	}
	return p.Models[0].Name
}

// ContextLimit is the listed context limit of model (0 when the model is not listed or has none).
func (p *Provider) ContextLimit(model string) int {
	for _, m := range p.Models {
		if m.Name == model {
			return m.ContextLimit
		}
	}
	return 0
}

// ModelWireAPI is the wire API goose picks for model: the entry of exactly that name (case-sensitive)
// that sets one, else the provider's; "" leaves it to routing by model and path.
func (p *Provider) ModelWireAPI(model string) WireAPI {
	for _, m := range p.Models {
		if m.Name == model && m.WireAPI != "" {
			return m.WireAPI
		}
	}
	return p.WireAPI
}

// ValidateAuth is goose's validate_auth, checked when an openai- or anthropic-engine provider is built:
// api_key_env and auth.command are two ways to authenticate, not both.
func (p *Provider) ValidateAuth() error {
	if p.Auth != nil && p.APIKeyEnv != "" {
		return fmt.Errorf("Provider '%s' sets both `api_key_env` and `auth.command`; these are mutually exclusive.", p.Name)
	}
	return nil
}

//go:embed builtin/*.json
var builtinFiles embed.FS

// Registry holds the declarative providers by name. Built-ins are parsed when first looked up (the file
// builtin/<name>.json holds the provider <name>, tested), so a run that names one provider parses one file.
type Registry struct {
	// custom are the user's providers by name (they replace built-ins of the same name)
	custom map[string]*Provider
	// CustomErr is set when a custom provider file could not be read or parsed: goose then
	// registers no declarative provider at all, built-in or custom ("Failed to load custom providers").
	CustomErr error
}

// Load builds the registry as goose does at start: the custom files of customDir are read first (one
// bad file aborts the whole declarative registration), then the built-ins are registered, then the
// custom providers, so a custom file replaces a built-in of the same name. customDir "" means none.
func Load(customDir string) *Registry {
	r := &Registry{custom: map[string]*Provider{}}
	custom, err := LoadCustom(customDir)
	if err != nil {
		r.CustomErr = err
		slog.Warn("Failed to load custom providers", "error", err)
		return r
	}
	for _, p := range custom {
		prev, ok := r.custom[p.Name]
		if !ok {
			prev, ok = builtin(p.Name)
		}
		if ok {
			slog.Info("custom provider replaces an earlier one of the same name", "name", p.Name, "file", p.File, "replaced", describe(prev))
		}
		r.custom[p.Name] = p
	}
	return r
}

func describe(p *Provider) string {
	if p.Custom {
		return p.File
	}
	return "built-in " + p.Name
}

// Lookup returns the provider registered under name (exact match: goose has no aliases).
func (r *Registry) Lookup(name string) (*Provider, bool) {
	if r.CustomErr != nil {
		return nil, false
	}
	if p, ok := r.custom[name]; ok {
		return p, true
	}
	return builtin(name)
}

// Names lists the registered names, sorted.
func (r *Registry) Names() []string {
	if r.CustomErr != nil {
		return []string{}
	}
	names := make([]string, 0, len(r.custom)+len(parsedBuiltins()))
	for _, p := range parsedBuiltins() {
		names = append(names, p.Name)
	}
	for n := range r.custom {
		names = append(names, n)
	}
	sort.Strings(names)
	return slices.Compact(names)
}

// builtinFileOf names the built-in files whose provider name is not the file's stem (goose's files).
var builtinFileOf = map[string]string{"custom_deepseek": "deepseek", "fireworks-ai": "fireworks", "tanzu_ai": "tanzu", "custom_tensorix": "tensorix", "custom_sakana": "sakana"}

// builtin returns the built-in provider name, parsing only its own file.
func builtin(name string) (*Provider, bool) {
	file := name
	if f, ok := builtinFileOf[name]; ok {
		file = f
	}
	if file == "" || strings.ContainsAny(file, `/\.`) {
		return nil, false
	}
	data, err := builtinFiles.ReadFile(path.Join("builtin", file+".json"))
	if err != nil {
		return nil, false
	}
	p, err := Parse(data)
	if err != nil {
		panic(fmt.Sprintf("registry: embedded %s.json: %v", file, err))
	}
	return p, p.Name == name
}

// Builtins returns the embedded built-in providers (goose's declarative/definitions/*.json), sorted
// by name; each call gets its own copies of the values parsed once.
func Builtins() []*Provider {
	parsed := parsedBuiltins()
	out := make([]*Provider, len(parsed))
	for i, p := range parsed {
		c := *p
		out[i] = &c
	}
	return out
}

// parsedBuiltins parses the embedded files once. They are tested to parse, so a failure here is a
// build mistake.
var parsedBuiltins = sync.OnceValue(func() []*Provider {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		panic(fmt.Sprintf("registry: embedded providers: %v", err))
	}
	var out []*Provider
	for _, e := range entries {
		data, err := builtinFiles.ReadFile(path.Join("builtin", e.Name()))
		if err != nil {
			panic(fmt.Sprintf("registry: embedded %s: %v", e.Name(), err))
		}
		p, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("registry: embedded %s: %v", e.Name(), err))
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *Provider) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
})
