// The recipe library in the server: goose's recipe folders for the workspace (library.Resolver), shared by
// workspace/symbol, sub-recipe path completion and goose.render's file reads.

package lsp

import (
	"encoding/json"
	"os"

	"go.lsp.dev/jsonrpc2"
	lspuri "go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// recipeResolver resolves and lists recipes as goose would when started in the workspace's first folder
// (else the server's working folder), with the process's HOME, GOOSE_RECIPE_PATH and goose config folder.
func (s *Server) recipeResolver() library.Resolver {
	cfg, _ := config.Load(os.LookupEnv)
	env := library.OSEnv(os.LookupEnv, cfg.Dir)
	s.mu.Lock()
	if s.root != "" {
		env.Cwd = s.root
	}
	s.mu.Unlock()
	return library.Resolver{Env: env}
}

// readRoots are the folders a render may read files from: the workspace folders, else the recipe's folder.
func (s *Server) readRoots(recipeDir string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.roots) > 0 {
		return append([]string{}, s.roots...)
	}
	return []string{recipeDir}
}

// libraryRecipe is one recipe of goose's folders as goose.listRecipes and goose.resolveRecipe answer it.
type libraryRecipe struct {
	Name        string `json:"name"`
	URI         string `json:"uri"`
	Path        string `json:"path"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
}

// listRecipes answers goose.listRecipes: the recipes goose finds by name from the workspace (goose recipe
// list), for an editor's Run Recipe by name.
func (s *Server) listRecipes() []libraryRecipe {
	out := []libraryRecipe{}
	for _, e := range s.recipeResolver().List() {
		out = append(out, libraryRecipe{Name: e.Name, URI: string(lspuri.File(e.Path)), Path: e.Path, Title: e.Title, Description: e.Description})
	}
	return out
}

// resolveRecipeCommand answers goose.resolveRecipe {name}: the file goose would load for a bare name (or a
// path), with goose's messages when there is none.
func resolveRecipeCommand(s *Server, raw json.RawMessage) (any, error) {
	var a struct {
		Name string `json:"name"`
	}
	if err := decode(raw, &a); err != nil {
		return nil, err
	}
	if a.Name == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.resolveRecipe needs a name"}
	}
	r, err := s.recipeResolver().Resolve(a.Name)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	return libraryRecipe{Name: a.Name, URI: string(lspuri.File(r.Path)), Path: r.Path}, nil
}
