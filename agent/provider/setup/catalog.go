// Package setup is what `goose-ls configure` offers and checks: the providers goose-ls runs (native,
// goose's built-in declarative ones, the user's custom_providers) with the key and settings each needs
// and its known models; whether the configuration names a usable provider; and the change to goose's
// config.yaml, written as goose's `goose configure` writes it.
package setup

import (
	"cmp"
	"slices"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

// Choice is one provider a user can pick.
type Choice struct {
	Name        string // GOOSE_PROVIDER's value
	DisplayName string
	Key         string // the secret holding the API key ("" when the provider takes none)
	KeyRequired bool   // false: the key is optional (a local server that may not check one)
	// Settings are what the provider cannot run without and has no default for (a URL, a deployment).
	Settings []Setting
	// Models are the provider's known models, its default first (none: the user names one).
	Models []string
	native bool // goose-ls's own implementation, not a declarative file
}

// Setting is one required variable; a secret one goes to goose's secret storage, others to config.yaml.
type Setting struct {
	Name   string
	Secret bool
}

// DefaultModel is the provider's default model ("" when it lists none).
func (c Choice) DefaultModel() string {
	if len(c.Models) == 0 {
		return ""
	}
	return c.Models[0]
}

// Catalog is the providers goose-ls runs for one configuration folder.
type Catalog struct {
	reg *registry.Registry
}

// Load reads the catalog of configDir (its custom_providers folder, as runs read it).
func Load(configDir string) *Catalog {
	return &Catalog{reg: registry.Load(registry.CustomDir(configDir))}
}

// CustomErr is why the custom providers could not be loaded; goose then registers no declarative
// provider at all, so the catalog holds the native ones only.
func (c *Catalog) CustomErr() error { return c.reg.CustomErr }

// Choices are the providers, sorted by display name as goose's `goose configure` lists them.
func (c *Catalog) Choices() []Choice {
	names := append(slices.Clone(configure.Providers), c.reg.Names()...)
	slices.Sort(names)
	var out []Choice
	for _, name := range slices.Compact(names) {
		if ch, ok := c.Lookup(name); ok {
			out = append(out, ch)
		}
	}
	slices.SortStableFunc(out, func(a, b Choice) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.DisplayName), strings.ToLower(b.DisplayName)), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// Lookup returns the provider registered as name (a custom provider replaces a native one of the same
// name, as goose registers it last; a built-in declarative one never does).
func (c *Catalog) Lookup(name string) (Choice, bool) {
	if decl, ok := configure.Declarative(c.reg, name); ok {
		return declarativeChoice(decl), true
	}
	native, ok := configure.Native(name)
	if !ok {
		return Choice{}, false
	}
	ch := Choice{Name: name, DisplayName: native.DisplayName, Key: native.Key, KeyRequired: native.KeyRequired, native: true}
	for _, s := range native.Settings {
		ch.Settings = append(ch.Settings, Setting{Name: s})
	}
	if native.DefaultModel != "" {
		ch.Models = []string{native.DefaultModel}
	}
	return ch, true
}

// declarativeChoice reads a declarative provider: its api_key_env (required unless requires_auth is
// false; the anthropic engine always needs one, the ollama engine sends none), its required env_vars
// without a default, its models.
func declarativeChoice(p *registry.Provider) Choice {
	ch := Choice{Name: p.Name, DisplayName: p.DisplayName, Key: p.APIKeyEnv,
		KeyRequired: p.APIKeyEnv != "" && (p.RequiresAuth || p.Engine == registry.EngineAnthropic)}
	if p.Engine == registry.EngineOllama {
		ch.Key, ch.KeyRequired = "", false
	}
	if ch.DisplayName == "" {
		ch.DisplayName = p.Name
	}
	for _, v := range p.EnvVars {
		if v.Required && v.Default == nil && v.Name != p.APIKeyEnv {
			ch.Settings = append(ch.Settings, Setting{Name: v.Name, Secret: v.Secret})
		}
	}
	for _, m := range p.Models {
		ch.Models = append(ch.Models, m.Name)
	}
	return ch
}
