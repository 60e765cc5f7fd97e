// The recipe library for the CLI: goose's search folders from the environment and goose's config, and a
// recipe argument (a path or a bare name) resolved and checked as goose loads it.

package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// newResolver resolves recipe names in goose's folders: the working folder, GOOSE_RECIPE_PATH, goose's
// config folder (GOOSE_PATH_ROOT/XDG aware), ./.goose/recipes, ./.agents/recipes, ~/.agents/recipes.
func newResolver() library.Resolver {
	cfg, _ := config.Load(os.LookupEnv) // an unreadable config.yaml still has its folder
	env := library.OSEnv(os.LookupEnv, cfg.Dir)
	repo, _ := cfg.Get("GOOSE_RECIPE_GITHUB_REPO")
	return library.Resolver{Env: env, GitHubRepo: repo}
}

// loadedRecipe is a resolved recipe file with its check.
type loadedRecipe struct {
	*library.Resolved
	File  *recipe.File
	Roots []string // the folders the recipe may make goose-ls read: the working folder and its own
}

// loadRecipeArg resolves arg as goose does and checks the file (its sub-recipes and template parents read
// inside the working folder and the recipe's folder).
func loadRecipeArg(arg string) (*loadedRecipe, error) {
	res, err := newResolver().Resolve(arg)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	roots := []string{cwd, res.Dir}
	f := recipe.Check(res.Path, res.Text, &recipe.Options{Roots: roots})
	return &loadedRecipe{Resolved: res, File: f, Roots: roots}, nil
}

// loadValidRecipe is loadRecipeArg for commands that need a recipe without errors (goose's first error).
func loadValidRecipe(arg string) (*loadedRecipe, error) {
	lr, err := loadRecipeArg(arg)
	if err != nil {
		return nil, err
	}
	if err := firstError(lr.File); err != nil {
		return nil, err
	}
	return lr, nil
}

// firstError is the first error diagnostic of a check, worded for one line.
func firstError(f *recipe.File) error {
	for _, d := range f.Diags {
		if d.Severity == recipe.SeverityError {
			pos := f.Lines.RunePos(d.R.Start)
			return fmt.Errorf("%s:%d:%d: %s", filepath.Base(f.Path), pos.Line+1, pos.Col+1, d.Message)
		}
	}
	return nil
}
