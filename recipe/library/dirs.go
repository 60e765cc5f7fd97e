// Package library is goose's recipe library: the folders goose looks in for a recipe named without a path,
// name resolution, listing, deeplinks, and the recipe as goose's serde types hold it (render output).
package library

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Env is what goose's folder list depends on.
type Env struct {
	Cwd       string // the working folder
	Home      string // $HOME (~/.agents/recipes)
	ConfigDir string // goose's config folder (<config>/recipes), e.g. ~/.config/goose
	// RecipePath is GOOSE_RECIPE_PATH (entries separated by ':'); HasRecipePath tells set from unset.
	RecipePath    string
	HasRecipePath bool
}

// OSEnv reads the working folder, $HOME and GOOSE_RECIPE_PATH; configDir is goose's config folder (the
// caller knows GOOSE_PATH_ROOT and XDG_CONFIG_HOME).
func OSEnv(lookup func(string) (string, bool), configDir string) Env {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cwd, _ := os.Getwd()
	home, _ := lookup("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	rp, ok := lookup("GOOSE_RECIPE_PATH")
	return Env{Cwd: cwd, Home: home, ConfigDir: configDir, RecipePath: rp, HasRecipePath: ok}
}

// SearchDirs is goose's list of recipe folders (local_recipes.rs local_recipe_dirs): `.`, each
// GOOSE_RECIPE_PATH entry, <config>/recipes, ./.goose/recipes, ./.agents/recipes, ~/.agents/recipes — each
// canonicalised when it exists (else kept as given), sorted component by component as Rust orders paths,
// and de-duplicated. So the search order is lexicographic, not the order above.
func (e Env) SearchDirs() []string {
	dirs := []string{"."}
	if e.HasRecipePath {
		dirs = append(dirs, strings.Split(e.RecipePath, ":")...)
	}
	dirs = append(dirs, filepath.Join(e.ConfigDir, "recipes"), filepath.Join(e.Cwd, ".goose", "recipes"),
		filepath.Join(e.Cwd, ".agents", "recipes"))
	if e.Home != "" {
		dirs = append(dirs, filepath.Join(e.Home, ".agents", "recipes"))
	}
	for i, d := range dirs {
		dirs[i] = e.canonical(d)
	}
	sort.SliceStable(dirs, func(i, j int) bool { return comparePaths(dirs[i], dirs[j]) < 0 })
	out := dirs[:0]
	for _, d := range dirs {
		if len(out) > 0 && comparePaths(out[len(out)-1], d) == 0 {
			continue
		}
		out = append(out, d)
	}
	return out
}

// canonical is Rust's canonicalize relative to the working folder: absolute with symlinks resolved when
// the path exists, the path as given otherwise.
func (e Env) canonical(dir string) string {
	p := dir
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.Cwd, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return dir
	}
	if _, err := os.Stat(real); err != nil {
		return dir
	}
	return real
}

// component kinds in the order Rust's `Component` derives Ord.
const (
	compRoot = iota + 1
	compCur
	compParent
	compNormal
)

type component struct {
	kind int
	name string
}

// components splits a path as Rust's Path::components does: a root, a leading `.`, `..`, and names;
// repeated separators and inner `.` vanish.
func components(p string) []component {
	var out []component
	if strings.HasPrefix(p, "/") {
		out = append(out, component{kind: compRoot})
	}
	parts := strings.Split(p, "/")
	for i, part := range parts {
		switch {
		case part == "":
		case part == ".":
			if i == 0 {
				out = append(out, component{kind: compCur})
			}
		case part == "..":
			out = append(out, component{kind: compParent})
		default:
			out = append(out, component{kind: compNormal, name: part})
		}
	}
	return out
}

// comparePaths orders paths as Rust's PathBuf does: component by component, a name by its bytes.
func comparePaths(a, b string) int {
	ca, cb := components(a), components(b)
	for i := 0; i < len(ca) && i < len(cb); i++ {
		if ca[i].kind != cb[i].kind {
			return ca[i].kind - cb[i].kind
		}
		if c := strings.Compare(ca[i].name, cb[i].name); c != 0 {
			return c
		}
	}
	return len(ca) - len(cb)
}
