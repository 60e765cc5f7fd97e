// The corpus of real recipes (../shared/corpus beside the checkout, read only) and the fixture folder
// that extends/include load from.

package differential

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Paths locates the references beside the checkout (CI has ../shared next to the repository).
type Paths struct {
	Root string // the repository root (holds go.mod)
}

// FindPaths walks up from the working folder to the repository root.
func FindPaths() (Paths, error) {
	dir, err := os.Getwd()
	if err != nil {
		return Paths{}, fmt.Errorf("working folder: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return Paths{Root: dir}, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Paths{}, fmt.Errorf("no go.mod above the working folder")
		}
		dir = parent
	}
}

// Oracle is mj-oracle's path: minijinja 2.24.0, the version goose resolves today (goose-today.md §2.4).
func (p Paths) Oracle() string {
	return filepath.Join(p.Root, "..", "shared", "tools", "minijinja-oracle-2.24", "mj-oracle")
}

// CorpusDir is the folder of real recipes.
func (p Paths) CorpusDir() string { return filepath.Join(p.Root, "..", "shared", "corpus", "recipes") }

// LoadCorpus reads every recipe of the corpus, sorted by path (so seeds reproduce).
func LoadCorpus(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus (expected ../shared beside the checkout): %w", err)
	}
	sort.Strings(paths)
	texts := make([]string, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("corpus file: %w", err)
		}
		texts = append(texts, string(b))
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("corpus %s holds no recipes", dir)
	}
	return texts, nil
}

// fixtures are the templates the generated ones include and extend (in the recipe's folder).
var fixtures = map[string]string{
	"inc.txt":      "included {{ x }}",
	"inc_vars.txt": "{% set a = 1 %}{{ ivar }} {{ user.name }}",
	"bad.txt":      "line one\n{% if x %}\nnever closed",
	"macros.txt":   "{% macro m(a) %}{{ a }}{% endmacro %}",
	"sub/inc.txt":  "sub {{ y }}\n",
	"parent.yaml":  "title: {% block title %}T{% endblock %}\ndescription: D\nprompt: |\n  {% block body %}body{% endblock %}\n{% block a %}{% endblock %}",
	"parent_vars.yaml": "title: {% block title %}{{ ptitle }}{% endblock %}\ndescription: D {{ pdesc | default('d') }}\n" +
		"prompt: |\n  {% block body %}{{ x }}{% endblock %}\n",
	// templates whose variables goose counts when the validation render loads them (genloads.go): one line
	// each, so an include keeps the recipe's block scalar intact
	"vars_a.txt":        "A {{ pa }} {{ pb | default('b') }}",
	"vars_loop.txt":     "{% for i in pitems %}{{ i }}{% endfor %}{% if pflag %}F{% endif %}L",
	"vars_set.txt":      "{% set a = pset %}{% set b = 2 %}S{{ a }}",
	"vars_nested.txt":   "N{% include 'sub/vars_deep.txt' %}{{ pn }}",
	"sub/vars_deep.txt": "D{{ pdeep }}",
	"vars_import.txt":   "{% import 'vars_set.txt' as inner %}I{{ inner.b }}{{ pimp }}",
	"vars_dir.txt":      "R{{ recipe_dir }}{{ pr }}",
	"vars_global.txt":   "{{ range(2)|list }}{{ pg }}",
	"parent_params.yaml": "title: {% block title %}T {{ ptitle }}{% endblock %}\ndescription: D\n" +
		"prompt: |\n  {% block body %}{{ pbody }}{% endblock %}\n{% block params %}{% endblock %}\n",
	"parent_inc.yaml": "title: T\ndescription: D\nprompt: |\n  {% include 'vars_a.txt' %} {% block body %}{% endblock %}\n" +
		"{% block params %}{% endblock %}\n",
}

// besideFixtures sit beside the recipe's folder (in its parent): goose's loader refuses to reach them.
var besideFixtures = map[string]string{
	"beside_vars.txt": "B{{ pbeside }}",
	"other/inc.txt":   "O{{ pother }}",
	"beside_parent.yaml": "title: T\ndescription: D {{ pbeside }}\nprompt: |\n  {% block body %}{% endblock %}\n" +
		"{% block params %}{% endblock %}\n",
}

// fixtureLinks are symlinks in the recipe's folder: one to a file beside it (goose refuses it: its real
// path leaves the folder), one to a file inside.
var fixtureLinks = map[string]string{
	"link_out.txt": "../beside_vars.txt",
	"link_in.txt":  "vars_a.txt",
}

// WriteFixtures writes the fixture templates into dir (the recipe's folder), the ones beside it into its
// parent, and the symlinks.
func WriteFixtures(dir string) error {
	write := func(base string, files map[string]string) error {
		for name, text := range files {
			p := filepath.Join(base, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("fixture folder: %w", err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				return fmt.Errorf("fixture: %w", err)
			}
		}
		return nil
	}
	if err := write(dir, fixtures); err != nil {
		return err
	}
	if err := write(filepath.Dir(dir), besideFixtures); err != nil {
		return err
	}
	for name, target := range fixtureLinks {
		p := filepath.Join(dir, name)
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("fixture link: %w", err)
		}
		if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
			return fmt.Errorf("fixture link: %w", err)
		}
	}
	return nil
}
