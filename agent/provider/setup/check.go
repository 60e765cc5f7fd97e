// Whether goose's configuration names a provider goose-ls can start: one is named, and the key and
// settings it needs are in the environment, config.yaml or goose's secret storage.

package setup

import (
	"fmt"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"strings"
)

// Missing is a configuration `goose-ls configure` would fix: no provider named, or one named without a
// key or setting it needs.
type Missing struct {
	Provider    string // "" when no provider is configured
	DisplayName string
	Name        string // the missing key or setting
}

func (m *Missing) Error() string {
	if m.Provider == "" {
		return "no provider is configured"
	}
	return fmt.Sprintf("provider %s (%s) needs %s, which is neither in the environment nor in goose's configuration or secret storage", m.Provider, m.DisplayName, m.Name)
}

// Check returns a *Missing when the provider name (or, for "", the configured one: GOOSE_PROVIDER)
// cannot start for want of a key or setting, nil otherwise. Keys and secret settings are looked up as
// goose looks up secrets (src.GetSecret), the rest as settings. A provider the catalog does not hold is
// not its business (resolving it says why it is unknown).
func (c *Catalog) Check(src configure.Source, name string) error {
	val := func(k string) string {
		v, _ := src.Get(k)
		return strings.TrimSpace(v)
	}
	secret := func(k string) string {
		v, _ := src.GetSecret(k)
		return strings.TrimSpace(v)
	}
	if name == "" {
		name = val("GOOSE_PROVIDER")
	}
	if name == "" {
		return &Missing{}
	}
	ch, ok := c.Lookup(name)
	if !ok {
		return nil
	}
	for _, s := range ch.Settings {
		v := val(s.Name)
		if s.Secret {
			v = secret(s.Name)
		}
		if v == "" {
			return &Missing{Provider: name, DisplayName: ch.DisplayName, Name: s.Name}
		}
	}
	if !ch.KeyRequired || secret(ch.Key) != "" {
		return nil
	}
	if ch.native && name == "openai" {
		// goose's openai provider sends no key to a server of the user's own (OPENAI_HOST/OPENAI_BASE_URL)
		host := val("OPENAI_HOST")
		if host == "" {
			host = val("OPENAI_BASE_URL")
		}
		if host != "" && !strings.Contains(host, "api.openai.com") {
			return nil
		}
	}
	return &Missing{Provider: name, DisplayName: ch.DisplayName, Name: ch.Key}
}
