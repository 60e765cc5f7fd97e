// Package config reads goose's configuration the way goose does. A setting (Get, goose's get_param) is
// an environment variable (the key uppercased), else <config_dir>/config.yaml; a secret (GetSecret,
// goose's get_secret) is an environment variable, else the secret store given with UseSecrets (goose's
// keyring or secrets.yaml: agent/config/secretstore), so the keyring is asked only for a secret the
// environment does not hold. The active provider and model are read from goose 1.38's layout
// (`active_provider` + `providers:`) as well as from the older top-level GOOSE_PROVIDER/GOOSE_MODEL keys.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
)

// Config is goose's configuration.
type Config struct {
	Dir     string // the config folder (~/.config/goose)
	DataDir string // the data folder (~/.local/share/goose)
	values  map[string]any
	secrets Secrets
	env     func(string) (string, bool)
}

// Secrets is a secret store: where GetSecret looks after the environment.
type Secrets interface {
	Lookup(key string) (string, bool)
}

// UseSecrets makes s the store GetSecret reads after the environment; without one, GetSecret reads the
// environment and config.yaml only (all the language server and the checker need).
func (c *Config) UseSecrets(s Secrets) { c.secrets = s }

// Env is the environment the config was loaded with.
func (c *Config) Env() func(string) (string, bool) { return c.env }

// IsSet is goose's test of a switch like GOOSE_DISABLE_KEYRING: the variable is in the environment
// (whatever its value, even empty or "false") or config.yaml has the key (whatever its value, even null).
func (c *Config) IsSet(key string) bool {
	if _, ok := c.env(strings.ToUpper(key)); ok {
		return true
	}
	_, ok := c.values[key]
	return ok
}

// Load reads the config from its usual place; GOOSE_PATH_ROOT relocates config and data. A missing
// file is an empty config; an unreadable one is an error naming it.
func Load(env func(string) (string, bool)) (*Config, error) {
	if env == nil {
		env = os.LookupEnv
	}
	c := &Config{env: env, values: map[string]any{}}
	withHome := func(key string) (string, bool) {
		if v, ok := env(key); ok || key != "HOME" {
			return v, ok
		}
		home, err := os.UserHomeDir()
		return home, err == nil
	}
	c.Dir, c.DataDir = Dirs(withHome)
	if err := readYAML(filepath.Join(c.Dir, "config.yaml"), &c.values); err != nil {
		return c, err
	}
	return c, nil
}

// Dirs are goose's config and data folders for the variables get answers (config_dir/data_dir of
// goose's paths.rs on Linux): $GOOSE_PATH_ROOT/config and /data, else $XDG_CONFIG_HOME/goose (default
// $HOME/.config/goose) and $XDG_DATA_HOME/goose (default $HOME/.local/share/goose). Without
// GOOSE_PATH_ROOT, XDG_* or HOME a folder is "".
func Dirs(get func(string) (string, bool)) (configDir, dataDir string) {
	if root, ok := get("GOOSE_PATH_ROOT"); ok && root != "" {
		return filepath.Join(root, "config"), filepath.Join(root, "data")
	}
	home, _ := get("HOME")
	dir := func(xdg string, homeRel ...string) string {
		if v, ok := get(xdg); ok && v != "" {
			return filepath.Join(v, "goose")
		}
		if home == "" {
			return ""
		}
		return filepath.Join(append(append([]string{home}, homeRel...), "goose")...)
	}
	return dir("XDG_CONFIG_HOME", ".config"), dir("XDG_DATA_HOME", ".local", "share")
}

func readYAML(path string, into *map[string]any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if err := yaml.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if *into == nil {
		*into = map[string]any{}
	}
	return nil
}

// Get reads a setting as goose's get_param does: the environment, then config.yaml; never the secret
// store. GOOSE_PROVIDER and GOOSE_MODEL are the active provider and model (ActiveProvider, ActiveModel).
func (c *Config) Get(key string) (string, bool) {
	switch strings.ToUpper(key) {
	case "GOOSE_PROVIDER":
		return c.ActiveProvider()
	case "GOOSE_MODEL":
		return c.ActiveModel()
	}
	return c.lookup(key)
}

// ActiveProvider is goose 1.38's get_active_provider: env GOOSE_PROVIDER, then config.yaml's
// `active_provider`, then its older top-level GOOSE_PROVIDER.
func (c *Config) ActiveProvider() (string, bool) {
	if v, ok := c.env("GOOSE_PROVIDER"); ok {
		return v, true
	}
	if v, ok := scalar(c.values["active_provider"]); ok {
		return v, true
	}
	return c.lookup("GOOSE_PROVIDER")
}

// ActiveModel is goose 1.38's get_active_model: env GOOSE_MODEL, then the active provider's
// `providers.<name>.model` when not empty, then the older top-level GOOSE_MODEL.
func (c *Config) ActiveModel() (string, bool) {
	if v, ok := c.env("GOOSE_MODEL"); ok {
		return v, true
	}
	if name, ok := c.ActiveProvider(); ok {
		if entries, ok := c.values["providers"].(map[string]any); ok {
			if entry, ok := entries[name].(map[string]any); ok {
				if m, ok := scalar(entry["model"]); ok && m != "" {
					return m, true
				}
			}
		}
	}
	return c.lookup("GOOSE_MODEL")
}

// scalar reads a YAML string value (goose's get_param::<String> refuses other types).
func scalar(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// lookup is get_param: the environment, then config.yaml.
func (c *Config) lookup(key string) (string, bool) {
	if v, ok := c.env(strings.ToUpper(key)); ok {
		return v, true
	}
	return c.fromYAML(key)
}

func (c *Config) fromYAML(key string) (string, bool) {
	if v, ok := c.values[key]; ok && v != nil {
		return fmt.Sprint(v), true
	}
	if v, ok := c.values[strings.ToUpper(key)]; ok && v != nil {
		return fmt.Sprint(v), true
	}
	return "", false
}

// GetSecret reads a secret as goose's get_secret does: the environment (the key uppercased), then the
// secret store under the key as written — the store, and so the keyring, is not asked when the
// environment holds the key. Where goose finds nothing, goose-ls also reads config.yaml: its docs told
// users to put keys there before it read goose's storage, and only a key goose would miss is read
// there, after goose's places.
func (c *Config) GetSecret(key string) (string, bool) {
	if v, ok := c.env(strings.ToUpper(key)); ok {
		return v, true
	}
	if c.secrets != nil {
		if v, ok := c.secrets.Lookup(key); ok {
			return v, true
		}
	}
	return c.fromYAML(key)
}

// GetSecrets is goose's get_secrets, how its openai and litellm providers read a key with its
// companions (custom headers): when primary is in the environment every key is read from the
// environment alone (the store is not asked); otherwise each is a GetSecret. Without primary there is
// nothing (ok false): goose drops the companions too.
func (c *Config) GetSecrets(primary string, others ...string) (values map[string]string, ok bool) {
	get := c.GetSecret
	if _, inEnv := c.env(strings.ToUpper(primary)); inEnv {
		get = func(k string) (string, bool) { return c.env(strings.ToUpper(k)) }
	}
	v, found := get(primary)
	if !found {
		return nil, false
	}
	values = map[string]string{primary: v}
	for _, k := range others {
		if v, found := get(k); found {
			values[k] = v
		}
	}
	return values, true
}

// GetOr returns the value or def.
func (c *Config) GetOr(key, def string) string {
	if v, ok := c.Get(key); ok && v != "" {
		return v
	}
	return def
}

// Path is the config file's path.
func (c *Config) Path() string { return filepath.Join(c.Dir, "config.yaml") }
