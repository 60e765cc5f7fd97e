// File access for sub-recipes and template parents: the workspace roots for sub-recipes, the recipe's folder
// for templates (goose-ls confines them there; goose does not), every read through the confined reader (confine.go).

package recipe

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// FS supplies the files a recipe names. Check reads them only inside its roots: from the FS's buffers when
// it implements Buffers (the language server's open editors), from the disk itself for OSFS and Buffers,
// and through ReadFile for any other FS.
type FS interface {
	ReadFile(name string) ([]byte, error)
}

// OSFS is the disk.
type OSFS struct{}

// ReadFile reads name if it is a regular file of at most MaxLinkedFileSize bytes (opened without blocking).
func (OSFS) ReadFile(name string) ([]byte, error) {
	data, err := ReadRegularFile(name, MaxLinkedFileSize)
	if err == nil && len(data) > MaxLinkedFileSize {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	return data, err
}

// readRoots are the folders the recipe may make goose-ls read: Options.Roots, else the recipe's folder.
func (f *File) readRoots() []string {
	if len(f.roots) > 0 {
		return f.roots
	}
	return []string{f.Dir()}
}

// reader reads files the recipe names, inside its roots.
func (f *File) reader(fsys FS) confinedReader { return newConfinedReader(fsys, f.readRoots()) }

// errOutsideDir is goose's loader error for template paths that leave the recipe folder (an
// InvalidOperation, so minijinja prints its kind first).
var errOutsideDir = errors.New("invalid operation: template path must stay within the recipe directory")

// confinedPath resolves a template name against dir, refusing what goose's loader refuses before it
// reads: an absolute path, or any `..` component, even one that stays inside (`sub/../a.txt`). Symlinks
// that leave dir are refused when the file is opened, through os.Root.
func confinedPath(dir, name string) (string, error) {
	if filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) {
		return "", errOutsideDir
	}
	if slices.Contains(strings.FieldsFunc(name, isPathSeparator), "..") {
		return "", errOutsideDir
	}
	clean := filepath.Clean(filepath.Join(dir, name))
	if _, ok := within(filepath.Clean(dir), clean); !ok {
		return "", errOutsideDir
	}
	return clean, nil
}

// loader loads parents and includes from the recipe's folder, as goose's minijinja loader does.
func (f *File) loader(fsys FS) template.Loader { return TemplateLoader(f.Dir(), fsys) }

// isPathSeparator is a separator of the components goose's loader inspects (Rust's Path on this OS).
func isPathSeparator(r rune) bool { return r == '/' || r == filepath.Separator }
