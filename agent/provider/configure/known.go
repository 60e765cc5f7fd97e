// Which provider names goose-ls knows, and what it answers for a name it cannot run.

package configure

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider/registry"
)

func isNative(name string) bool { return slices.Contains(Providers, name) }

// Declarative is the declarative provider name runs as, if it runs as one: goose registers custom
// providers last, so a custom file replaces a native provider of its name; a built-in declarative file
// of a native provider's name never does.
func Declarative(reg *registry.Registry, name string) (*registry.Provider, bool) {
	decl, ok := reg.Lookup(name)
	if !ok || (!decl.Custom && isNative(name)) {
		return nil, false
	}
	return decl, true
}

// known lists every name GOOSE_PROVIDER may take: the native providers and the registry's, sorted.
func known(reg *registry.Registry) []string {
	names := append(slices.Clone(Providers), reg.Names()...)
	sort.Strings(names)
	return slices.Compact(names)
}

// unknownProvider explains why name cannot be run: a goose provider goose-ls does not implement, a
// declarative one dropped with a bad custom provider file, or a name nobody knows (with the name of a
// different case, since goose matches names exactly).
func unknownProvider(reg *registry.Registry, name string) error {
	list := strings.Join(known(reg), ", ")
	if slices.Contains(registry.GooseNative, name) {
		return fmt.Errorf("provider %q is a goose provider goose-ls does not support (see docs/providers.md); goose-ls runs: %s", name, list)
	}
	if reg.CustomErr != nil {
		for _, b := range registry.Builtins() {
			if b.Name == name {
				return fmt.Errorf("provider %q is unavailable: a custom provider file could not be loaded (%v), and goose 1.38 then registers no declarative provider at all; fix or remove that file. Known now: %s", name, reg.CustomErr, list)
			}
		}
		return fmt.Errorf("unknown provider %q (custom providers were not loaded: %v). Known: %s", name, reg.CustomErr, list)
	}
	for _, k := range append(known(reg), registry.GooseNative...) {
		if strings.EqualFold(k, name) {
			return fmt.Errorf("unknown provider %q: did you mean %q? (provider names are matched exactly) Known: %s", name, k, list)
		}
	}
	return fmt.Errorf("unknown provider %q. Known: %s", name, list)
}
