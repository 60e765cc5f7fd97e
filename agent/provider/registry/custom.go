// The user's <config>/custom_providers/*.json, read as goose reads them.

package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
)

// MaxCustomFileSize bounds one custom provider file (goose has no bound; a provider file is a few KiB).
const MaxCustomFileSize = 1 << 20

// CustomDir is where goose keeps custom providers: <config>/custom_providers.
func CustomDir(configDir string) string {
	if configDir == "" {
		return ""
	}
	return filepath.Join(configDir, "custom_providers")
}

// LoadCustom reads every *.json file of dir (a missing folder is none). Like goose, any file that cannot
// be read or parsed is an error for the whole folder; files are taken in name order (goose takes the
// folder's order) so that of two files declaring one name the last by name wins.
func LoadCustom(dir string) ([]*Provider, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []*Provider
	for _, e := range entries {
		if !hasJSONExtension(e.Name()) {
			continue
		}
		file := filepath.Join(dir, e.Name())
		data, err := recipe.ReadRegularFile(file, MaxCustomFileSize)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		if len(data) > MaxCustomFileSize {
			return nil, fmt.Errorf("reading %s: larger than %d bytes", file, MaxCustomFileSize)
		}
		p, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("Failed to parse %s: %w", file, err)
		}
		p.Custom, p.File = true, file
		out = append(out, p)
	}
	return out, nil
}

// hasJSONExtension is Rust's `Path::extension() == "json"`: case-sensitive, and a name that is only
// ".json" (a hidden file) has no extension.
func hasJSONExtension(name string) bool {
	return strings.HasSuffix(name, ".json") && len(name) > len(".json")
}
