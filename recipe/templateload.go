// The template loader: `include`, `import` and `extends` names read from the recipe's folder as goose's
// loader reads them (the OS resolves the name joined to the folder), confined to that folder.

package recipe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/recipe/template"
)

// errReadTemplate is goose's loader error for a name that exists but cannot be read as text: a folder, an
// empty name, a file used as a folder (`a.txt/`), a symlink loop, no permission, bytes that are not UTF-8.
var errReadTemplate = errors.New("invalid operation: could not read template")

// TemplateLoader loads templates named relative to dir, refusing paths that leave it.
func TemplateLoader(dir string, fsys FS) template.Loader {
	return func(name string) (*template.Template, error) {
		p, err := confinedPath(dir, name)
		if err != nil {
			return nil, err
		}
		if onDisk(fsys) && !canonicalName(name) {
			// `nope/../a.txt`, `a.txt/`, `sub/.`: the OS resolves them component by component, not as
			// filepath.Clean does, so find out first what goose's read would meet
			switch err := statInDir(dir, name); {
			case errors.Is(err, fs.ErrNotExist):
				if b, ok := fsys.(Buffers); !ok || !hasBuffer(b, p) {
					return nil, nil
				}
			case err != nil:
				return nil, err
			}
		}
		data, err := newConfinedReader(fsys, []string{dir}).ReadFile(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, nil
		case errors.Is(err, ErrOutsideRoots): // a symlink that leaves the folder
			return nil, errOutsideDir
		case errors.Is(err, ErrNotRegular) && onDisk(fsys) && errors.Is(statInDir(dir, name), errReadTemplate):
			return nil, errReadTemplate // a folder, or a file used as one
		case errors.Is(err, ErrUnreadable), errors.Is(err, ErrSymlinkLoop):
			return nil, errReadTemplate
		case err != nil:
			// goose would read it (a FIFO, a device, /proc, past the size cap): goose-ls's own refusal
			return nil, fmt.Errorf("%w %q: %s", errReadTemplate, name, ReadError(err))
		case !utf8.Valid(data):
			return nil, errReadTemplate // goose reads templates with read_to_string
		}
		return template.Parse(name, string(data))
	}
}

// onDisk reports whether fsys reads the disk itself (not a test FS of its own).
func onDisk(fsys FS) bool {
	switch fsys.(type) {
	case nil, OSFS, Buffers:
		return true
	}
	return false
}

func hasBuffer(b Buffers, path string) bool {
	_, ok := b.Buffer(path)
	return ok
}

// canonicalName: name is already what filepath.Clean makes of it, so reading the cleaned path reads what
// the OS would resolve.
func canonicalName(name string) bool {
	return name != "" && name != "." && filepath.Clean(name) == filepath.FromSlash(name)
}

// statInDir resolves name inside dir as the OS does (os.Root: component by component, symlinks kept inside)
// without reading anything: fs.ErrNotExist, errOutsideDir, errReadTemplate (a folder, a file used as one,
// any other failure), or nil for a file.
func statInDir(dir, name string) error {
	if name == "" {
		return errReadTemplate // goose joins it to the folder and reads the folder
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return errReadTemplate
	}
	defer root.Close()
	st, err := root.Stat(name)
	var pe *fs.PathError
	switch {
	case err == nil && st.IsDir():
		return errReadTemplate
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return fs.ErrNotExist
	case errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent":
		return errOutsideDir
	}
	return errReadTemplate
}
