// File access for sub-recipes and template parents, confined to the recipe's folder where goose confines it.

package recipe

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// FS reads files by absolute or relative path; the language server overlays open editor buffers.
type FS interface {
	ReadFile(name string) ([]byte, error)
}

// OSFS reads the disk.
type OSFS struct{}

// ReadFile reads name from disk.
func (OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// errOutsideDir is goose's message for template paths that leave the recipe folder.
var errOutsideDir = errors.New("template path must stay within the recipe directory")

// confinedPath resolves a template name against dir, refusing absolute paths, `..` escapes and
// symlinks that point outside dir.
func confinedPath(dir, name string) (string, error) {
	if filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) {
		return "", errOutsideDir
	}
	clean := filepath.Clean(filepath.Join(dir, name))
	rel, err := filepath.Rel(dir, clean)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errOutsideDir
	}
	if real, err := filepath.EvalSymlinks(clean); err == nil {
		realDir, derr := filepath.EvalSymlinks(dir)
		if derr == nil {
			if r, err := filepath.Rel(realDir, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return "", errOutsideDir
			}
		}
	}
	return clean, nil
}

// loader loads parents and includes from the recipe's folder, as goose's minijinja loader does.
func (f *File) loader(fsys FS) template.Loader { return TemplateLoader(f.Dir(), fsys) }

// TemplateLoader loads templates named relative to dir, refusing paths that leave it.
func TemplateLoader(dir string, fsys FS) template.Loader {
	return func(name string) (*template.Template, error) {
		p, err := confinedPath(dir, name)
		if err != nil {
			return nil, err
		}
		data, err := fsys.ReadFile(p)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, nil
			}
			return nil, errors.New("could not read template")
		}
		t, err := template.Parse(name, string(data))
		if err != nil {
			return nil, err
		}
		return t, nil
	}
}
