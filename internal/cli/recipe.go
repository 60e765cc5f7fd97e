// Package cli is the CLI code goose-ls and goose-ls-agent share: goose's recipe folders from the
// environment and goose's config, a recipe argument (a path or a bare name) resolved and checked as goose loads it.
package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// NewResolver resolves recipe names in goose's folders: the working folder, GOOSE_RECIPE_PATH, goose's
// config folder (GOOSE_PATH_ROOT/XDG aware), ./.goose/recipes, ./.agents/recipes, ~/.agents/recipes.
func NewResolver() library.Resolver {
	cfg, _ := config.Load(os.LookupEnv) // an unreadable config.yaml still has its folder
	env := library.OSEnv(os.LookupEnv, cfg.Dir)
	repo, _ := cfg.Get("GOOSE_RECIPE_GITHUB_REPO")
	return library.Resolver{Env: env, GitHubRepo: repo}
}

// Loaded is a resolved recipe file with its check.
type Loaded struct {
	*library.Resolved
	File  *recipe.File
	Roots []string // the folders the recipe may make goose-ls read: the working folder and its own
}

// Load resolves arg as goose does and checks the file (its sub-recipes and template parents read
// inside the working folder and the recipe's folder).
func Load(arg string) (*Loaded, error) {
	res, err := NewResolver().Resolve(arg)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	roots := []string{cwd, res.Dir}
	f := recipe.Check(res.Path, res.Text, &recipe.Options{Roots: roots})
	return &Loaded{Resolved: res, File: f, Roots: roots}, nil
}

// LoadValid is Load for commands that need a recipe without errors (goose's first error).
func LoadValid(arg string) (*Loaded, error) {
	lr, err := Load(arg)
	if err != nil {
		return nil, err
	}
	if err := FirstError(lr.File); err != nil {
		return nil, err
	}
	return lr, nil
}

// FirstError is the first error diagnostic of a check, worded for one line.
func FirstError(f *recipe.File) error {
	for _, d := range f.Diags {
		if d.Severity == recipe.SeverityError {
			pos := f.Lines.RunePos(d.R.Start)
			return fmt.Errorf("%s:%d:%d: %s", filepath.Base(f.Path), pos.Line+1, pos.Col+1, d.Message)
		}
	}
	return nil
}
