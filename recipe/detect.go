// Recipe detection: which YAML/JSON files are recipes, by name or by content.

package recipe

import (
	"bytes"
	"path/filepath"
	"strings"
)

// LooksLikeRecipe reports whether a YAML/JSON file is a goose recipe: a `*.recipe.yaml`-style name, a
// file under a `recipes/` folder, or top-level `title` + `description` + `instructions`/`prompt` keys
// (also inside the Desktop `recipe:` wrapper).
func LooksLikeRecipe(path string, text []byte) bool {
	base := strings.ToLower(filepath.Base(path))
	ext := filepath.Ext(base)
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return false
	}
	if strings.HasSuffix(strings.TrimSuffix(base, ext), ".recipe") {
		return true
	}
	slash := filepath.ToSlash(path)
	if strings.Contains(slash, "/recipes/") || strings.HasPrefix(slash, "recipes/") {
		return hasKey(text, "title") || hasKey(text, "recipe")
	}
	return hasKey(text, "title") && hasKey(text, "description") && (hasKey(text, "instructions") || hasKey(text, "prompt"))
}

// hasKey finds `key:` at the start of a line (top level or one level into a wrapper) or `"key"` in JSON.
// It walks the lines in place: detection runs on every edit of a buffer.
func hasKey(text []byte, key string) bool {
	if bytes.Contains(text, []byte(`"`+key+`"`)) {
		return true
	}
	for rest := text; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimLeft(line, " ")
		if len(line)-len(t) <= 2 && len(t) > len(key) && t[len(key)] == ':' && string(t[:len(key)]) == key {
			return true
		}
	}
	return false
}
