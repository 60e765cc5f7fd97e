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

// Oracle is mj-oracle's path.
func (p Paths) Oracle() string {
	return filepath.Join(p.Root, "..", "shared", "tools", "minijinja-oracle", "mj-oracle")
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
}

// WriteFixtures writes the fixture templates into dir.
func WriteFixtures(dir string) error {
	for name, text := range fixtures {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("fixture folder: %w", err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return fmt.Errorf("fixture: %w", err)
		}
	}
	return nil
}
