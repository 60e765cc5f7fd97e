// Listing the recipe library as `goose recipe list` does (local_recipes.rs list_local_recipes): every
// *.yaml/*.json file of each search folder that parses as a recipe, folders in SearchDirs order.

package library

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Entry is one listed recipe (goose's RecipeInfo).
type Entry struct {
	Name        string // the file stem
	Source      string // "Local"
	Path        string
	Title       string
	Description string
}

// JSON is the entry as serde_json writes goose's RecipeInfo.
func (e Entry) JSON() string {
	m := &Value{Kind: MapValue}
	m.Set("name", String(e.Name))
	m.Set("source", String(e.Source))
	m.Set("path", String(e.Path))
	m.Set("title", String(e.Title))
	m.Set("description", String(e.Description))
	return m.JSON()
}

// EntriesJSON is `goose recipe list --format json`: one JSON array.
func EntriesJSON(entries []Entry) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = e.JSON()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// List scans the search folders: each folder's entries in the order the file system gives them (goose
// does not sort), regular *.yaml/*.json files read through the confined reader and parsed without
// rendering (`Recipe::from_file_path`); a file that does not parse is logged at debug level and skipped.
// A name present in two folders is listed twice.
func (rs Resolver) List() []Entry {
	var out []Entry
	rs.scan(func(e Entry, _ string, _ *Recipe) { out = append(out, e) })
	return out
}

// scan visits every recipe List lists, with the file's absolute path and the parsed recipe.
func (rs Resolver) scan(visit func(e Entry, abs string, r *Recipe)) {
	dirs := rs.Env.SearchDirs()
	fsys := recipe.ConfinedFS(rs.folders(dirs))
	for _, dir := range dirs {
		abs := rs.abs(dir)
		f, err := os.OpenFile(abs, os.O_RDONLY|recipe.OpenNonBlocking, 0) // a FIFO named as a folder must not block
		if err != nil {
			continue
		}
		if st, err := f.Stat(); err != nil || !st.IsDir() {
			f.Close()
			continue
		}
		names, err := f.Readdirnames(-1)
		f.Close()
		if err != nil {
			continue
		}
		for _, name := range names {
			ext := strings.TrimPrefix(filepath.Ext(name), ".")
			if ext != "yaml" && ext != "json" {
				continue
			}
			p := filepath.Join(dir, name)
			text, err := fsys.ReadFile(filepath.Join(abs, name))
			if err != nil {
				slog.Debug("recipe list: skipped", "path", p, "reason", recipe.ReadError(err))
				continue
			}
			r, err := Parse(text)
			if err != nil {
				slog.Debug("recipe list: skipped", "path", p, "err", err)
				continue
			}
			visit(Entry{Name: strings.TrimSuffix(name, "."+ext), Source: "Local", Path: p, Title: r.Title, Description: r.Description},
				filepath.Join(abs, name), r)
		}
	}
}

// Parse is goose's `Recipe::from_content` on text as it is (no template rendering): YAML (JSON is YAML),
// serde's types, then the load-time additions.
func Parse(text []byte) (*Recipe, error) {
	doc, err := yamltree.Parse(source.NewLineIndex(text))
	if err != nil {
		return nil, fmt.Errorf("parse recipe: %w", err)
	}
	if doc.Extra != nil {
		return nil, fmt.Errorf("deserializing from YAML containing more than one document is not supported")
	}
	r, err := Decode(doc.Root)
	if err != nil {
		return nil, err
	}
	LoadTimeAdditions(r)
	return r, nil
}

// SubRecipeItems are completion candidates for a `sub_recipes[].path`: the recipes of goose's folders by
// absolute path (the engine already offers the files beside the recipe), except the recipe itself.
func SubRecipeItems(entries []Entry, self string, replace recipe.Range) []recipe.Item {
	var items []recipe.Item
	for _, e := range entries {
		if e.Path == self || filepath.Dir(e.Path) == filepath.Dir(self) {
			continue
		}
		items = append(items, recipe.Item{Label: e.Path, Kind: recipe.ItemValue, Detail: "goose recipe: " + e.Title,
			Doc: e.Description, Replace: replace})
	}
	return items
}
