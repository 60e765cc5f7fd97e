// secrets.yaml: goose's secret storage when the keyring is disabled or cannot be reached.

package secretstore

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml"
)

// readFile reads secrets.yaml (a missing file is no secrets).
func readFile(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	values := map[string]any{}
	if err := yaml.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("%s is not a YAML mapping of secrets (%s)", path, firstLine(err.Error()))
	}
	if values == nil {
		values = map[string]any{}
	}
	return values, nil
}

// firstLine keeps a parse error's message and drops the source excerpt goccy/go-yaml appends (it would
// quote the file's secrets).
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// writeFileKey merges key into secrets.yaml, keeping every other secret, readable by its owner only (as
// goose writes it). The file is replaced whole, through a temporary file beside it.
func writeFileKey(path, key, value string) error {
	values, err := readFile(path)
	if err != nil {
		return err
	}
	values[key] = value
	data, err := yaml.Marshal(values)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".secrets-*.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
