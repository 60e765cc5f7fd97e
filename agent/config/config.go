// Package config reads goose's configuration the way goose does: an environment variable (the key
// uppercased) wins over <config_dir>/config.yaml; secrets come from the environment or secrets.yaml.
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
	secrets map[string]any
	env     func(string) (string, bool)
}

// Load reads the config from its usual place; GOOSE_PATH_ROOT relocates config and data. A missing
// file is an empty config; an unreadable one is an error naming it.
func Load(env func(string) (string, bool)) (*Config, error) {
	if env == nil {
		env = os.LookupEnv
	}
	c := &Config{env: env, values: map[string]any{}, secrets: map[string]any{}}
	home, _ := os.UserHomeDir()
	if root, ok := env("GOOSE_PATH_ROOT"); ok && root != "" {
		c.Dir = filepath.Join(root, "config")
		c.DataDir = filepath.Join(root, "data")
	} else {
		cfgHome, ok := env("XDG_CONFIG_HOME")
		if !ok || cfgHome == "" {
			cfgHome = filepath.Join(home, ".config")
		}
		dataHome, ok := env("XDG_DATA_HOME")
		if !ok || dataHome == "" {
			dataHome = filepath.Join(home, ".local", "share")
		}
		c.Dir = filepath.Join(cfgHome, "goose")
		c.DataDir = filepath.Join(dataHome, "goose")
	}
	if err := readYAML(filepath.Join(c.Dir, "config.yaml"), &c.values); err != nil {
		return c, err
	}
	if err := readYAML(filepath.Join(c.Dir, "secrets.yaml"), &c.secrets); err != nil {
		return c, err
	}
	return c, nil
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

// Get looks a key up: environment, then config.yaml, then secrets.yaml.
func (c *Config) Get(key string) (string, bool) {
	if v, ok := c.env(strings.ToUpper(key)); ok {
		return v, true
	}
	for _, m := range []map[string]any{c.values, c.secrets} {
		if v, ok := m[key]; ok && v != nil {
			return fmt.Sprint(v), true
		}
		if v, ok := m[strings.ToUpper(key)]; ok && v != nil {
			return fmt.Sprint(v), true
		}
	}
	return "", false
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
