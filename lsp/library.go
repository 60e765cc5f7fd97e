// The recipe library in the server: goose's recipe folders for the workspace (library.Resolver), shared by
// workspace/symbol, sub-recipe path completion and goose.render's file reads.

package lsp

import (
	"os"

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
