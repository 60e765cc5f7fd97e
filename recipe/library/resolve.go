// Name resolution as goose does it (local_recipes.rs load_local_recipe_file): a path is read as it is, a
// bare name is looked up as NAME.yaml then NAME.json in each search folder, in SearchDirs order.

package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
)

// Extensions are goose's recipe file extensions (RECIPE_FILE_EXTENSIONS), in lookup order.
var Extensions = []string{"yaml", "json"}

// Resolved is a recipe file found for a name.
type Resolved struct {
	Path string // absolute and canonical, as goose's read_recipe_file makes it
	Dir  string // its folder (recipe_dir)
	Text []byte
	// ByName is true when the name was looked up in the search folders (not read as a path).
	ByName bool
}

// ErrNotFound is wrapped by the error of a name found in no search folder.
var ErrNotFound = errors.New("recipe not found")

// NotFoundError is goose's message for a bare name found nowhere, with the folders searched.
type NotFoundError struct {
	Name string
	Dirs []string
	// GitHubRepo is GOOSE_RECIPE_GITHUB_REPO when set: goose would look there next (with the gh CLI and
	// the network); goose-ls does not.
	GitHubRepo string
}

func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("ℹ️  Failed to retrieve %s.yaml or %s.json in %s", e.Name, e.Name, strings.Join(e.Dirs, ":"))
	if e.GitHubRepo != "" {
		msg += fmt.Sprintf(" (GOOSE_RECIPE_GITHUB_REPO=%s is not searched: GitHub recipe repositories need the gh CLI and the network, which goose-ls does not support)", e.GitHubRepo)
	}
	return msg
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// IsPath reports whether goose reads arg as a file path (it ends in .yaml or .json).
func IsPath(arg string) bool {
	for _, ext := range Extensions {
		if strings.HasSuffix(arg, "."+ext) {
			return true
		}
	}
	return false
}

// IsName reports whether goose looks arg up in the recipe folders: not a .yaml/.json path, no `/` or `\`,
// not starting with `~` or `.`, no extension.
func IsName(arg string) bool {
	return arg != "" && !IsPath(arg) && !strings.ContainsAny(arg, `/\`) && !strings.HasPrefix(arg, "~") &&
		!strings.HasPrefix(arg, ".") && filepath.Ext(arg) == ""
}

// Resolver resolves recipe names in an Env.
type Resolver struct {
	Env Env
	// GitHubRepo is GOOSE_RECIPE_GITHUB_REPO (only named in the not-found message).
	GitHubRepo string
	// MaxSize is the largest recipe read through a path; 0 means recipe.DefaultMaxSize.
	MaxSize int
}

// Resolve finds the recipe goose would load for arg: a path ending in .yaml/.json is read as given (`~/`
// expanded); a name that looks like a path or has another extension is refused with goose's message;
// a bare name is looked up in the search folders. Files in the search folders are read through the
// confined reader with those folders as roots (regular files only, never blocking: a FIFO named
// NAME.yaml is skipped).
func (rs Resolver) Resolve(arg string) (*Resolved, error) {
	if IsPath(arg) {
		return rs.readPath(arg)
	}
	if !IsName(arg) {
		return nil, fmt.Errorf("Recipe file %s is not a json or yaml file", arg)
	}
	dirs := rs.Env.SearchDirs()
	folders := rs.folders(dirs)
	fsys := recipe.ConfinedFS(folders)
	for _, dir := range folders {
		for _, ext := range Extensions {
			p := filepath.Join(dir, arg+"."+ext)
			text, err := fsys.ReadFile(p)
			if err != nil {
				continue
			}
			canon := p
			if real, err := filepath.EvalSymlinks(p); err == nil {
				canon = real
			}
			return &Resolved{Path: canon, Dir: filepath.Dir(canon), Text: text, ByName: true}, nil
		}
	}
	return nil, &NotFoundError{Name: arg, Dirs: dirs, GitHubRepo: rs.GitHubRepo}
}

func (rs Resolver) readPath(arg string) (*Resolved, error) {
	p := arg
	if rest, ok := strings.CutPrefix(p, "~/"); ok && rs.Env.Home != "" {
		p = filepath.Join(rs.Env.Home, rest)
	}
	p = rs.abs(p)
	max := rs.MaxSize
	if max == 0 {
		max = recipe.DefaultMaxSize
	}
	text, err := recipe.ReadRegularFile(p, max)
	if err != nil {
		return nil, fmt.Errorf("Failed to read recipe file %s: %w", p, err)
	}
	if len(text) > max {
		return nil, fmt.Errorf("Failed to read recipe file %s: %w", p, recipe.ErrTooLarge)
	}
	canon := p
	if real, err := filepath.EvalSymlinks(p); err == nil {
		canon = real
	}
	return &Resolved{Path: canon, Dir: filepath.Dir(canon), Text: text}, nil
}

// abs makes p absolute against the Env's working folder.
func (rs Resolver) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(rs.Env.Cwd, p)
}

// folders are the search folders that exist and are folders, absolute, in order: the roots of the
// confined reader (opening a root that is a FIFO would block, so nothing else may be one).
func (rs Resolver) folders(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		abs := rs.abs(d)
		if st, err := os.Stat(abs); err == nil && st.IsDir() {
			out = append(out, abs)
		}
	}
	return out
}
