// workspace/symbol: the recipes of the workspace folders and of goose's recipe folders (the ones `goose
// recipe list` shows), named by title, filtered by the query.

package lsp

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func init() { requests["workspace/symbol"] = workspaceSymbol }

// maxSymbolFiles bounds the files one workspace/symbol request looks at in the workspace folders.
const maxSymbolFiles = 5000

func workspaceSymbol(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p struct {
		Query string `json:"query"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	release(ctx) // reads the disk only: later messages need not wait
	query := strings.ToLower(p.Query)
	out := []protocol.SymbolInformation{}
	seen := map[string]bool{}
	add := func(path, title, container string) {
		if seen[path] {
			return
		}
		seen[path] = true
		stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		name := title
		if name == "" {
			name = stem
		}
		if query != "" && !strings.Contains(strings.ToLower(name), query) && !strings.Contains(strings.ToLower(stem), query) {
			return
		}
		out = append(out, protocol.SymbolInformation{Name: name, Kind: protocol.SymbolKindFile, ContainerName: container,
			Location: protocol.Location{URI: FileURI(path)}})
	}
	for _, root := range s.readRoots("") {
		if root == "" {
			continue
		}
		if err := walkRecipes(ctx, root, add); err != nil {
			return nil, err
		}
	}
	for _, e := range s.recipeResolver().List() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		add(e.Path, e.Title, "goose recipes: "+filepath.Dir(e.Path))
	}
	return out, nil
}

// walkRecipes finds the recipes below root (not following symlinked folders, skipping .git, node_modules,
// vendor and .venv), each read inside root, at most maxSymbolFiles files looked at.
func walkRecipes(ctx context.Context, root string, add func(path, title, container string)) error {
	seenFiles := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "vendor", ".venv":
				return filepath.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		if seenFiles++; seenFiles > maxSymbolFiles {
			return filepath.SkipAll
		}
		data, err := recipe.ReadLimitedIn(root, p, recipe.MaxLinkedFileSize)
		if err != nil || !recipe.LooksLikeRecipe(p, data) {
			return nil
		}
		title := ""
		if r, err := library.Parse(data); err == nil {
			title = r.Title
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		add(p, title, "workspace: "+rel)
		return nil
	})
	if err == ctx.Err() {
		return err
	}
	return nil
}
