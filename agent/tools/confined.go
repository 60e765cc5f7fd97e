// Files: the workspace folder opened once as an os.Root, through which every disk access of the tools goes.

package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
)

// Size caps of what the tools read.
const (
	// MaxReadBytes bounds a file the read, edit and write tools load.
	MaxReadBytes = 10 << 20
	// maxIgnoreFileBytes bounds a .gitignore/.ignore file tree reads.
	maxIgnoreFileBytes = 1 << 20
)

// ErrOutside is returned for paths that leave the workspace.
var ErrOutside = errors.New("path is outside the workspace")

// ErrSymlink is returned when a write would go through a symbolic link.
var ErrSymlink = errors.New("is a symbolic link; the file tools do not write through symbolic links")

// ErrNotRegular is returned for anything but a regular file (FIFOs, devices, sockets, folders).
var ErrNotRegular = errors.New("is not a regular file")

// ErrTooLarge is returned for a file over the size cap.
var ErrTooLarge = errors.New("file is too large")

// Files is the workspace folder opened as an os.Root: `..`, absolute paths elsewhere and symbolic links
// leaving it are refused atomically by the kernel-level walk of os.Root. Writes never follow a symbolic
// link at all. Safe for concurrent use.
type Files struct {
	dir     string // absolute, clean
	realDir string // dir with symlinks resolved (absolute paths may name either)
	root    *os.Root
}

// OpenFiles opens the workspace folder dir.
func OpenFiles(dir string) (*Files, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("opening the workspace: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs
	}
	return &Files{dir: abs, realDir: real, root: root}, nil
}

// Close releases the folder handle.
func (f *Files) Close() error { return f.root.Close() }

// Dir is the absolute workspace folder.
func (f *Files) Dir() string { return f.dir }

// Local turns a path as the model gives it (relative to the workspace, or absolute inside it) into a
// clean path relative to the workspace ("." for the workspace itself). It is lexical: symbolic links are
// checked when the path is used.
func (f *Files) Local(path string) (string, error) {
	if path == "" {
		return "", errors.New("path is empty")
	}
	if strings.Contains(path, "://") {
		return "", fmt.Errorf("'%s' is a URI, not a filesystem path", path)
	}
	p := filepath.Clean(path)
	if filepath.IsAbs(p) {
		rel, ok := relativeTo(f.dir, p)
		if !ok {
			rel, ok = relativeTo(f.realDir, p)
		}
		if !ok {
			return "", fmt.Errorf("%s: %w (%s)", path, ErrOutside, f.dir)
		}
		p = rel
	}
	if p != "." && !filepath.IsLocal(p) {
		return "", fmt.Errorf("%s: %w (%s)", path, ErrOutside, f.dir)
	}
	return p, nil
}

func relativeTo(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || (rel != "." && !filepath.IsLocal(rel)) {
		return "", false
	}
	return rel, true
}

// Abs is the absolute form of a path Local accepts.
func (f *Files) Abs(path string) (string, error) {
	rel, err := f.Local(path)
	if err != nil {
		return "", err
	}
	return filepath.Join(f.dir, rel), nil
}

// refusal words an os.Root error for the model, naming the path as given.
func refusal(path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "path escapes from parent") {
		return fmt.Errorf("%s: %w (a `..` or a link on the way leads out of it)", path, ErrOutside)
	}
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// ReadFile reads a regular file under limit bytes. It is opened so it cannot block (FIFOs, devices) and
// checked with fstat on that handle; symbolic links are followed only while they stay inside.
func (f *Files) ReadFile(path string, limit int64) ([]byte, error) {
	rel, err := f.Local(path)
	if err != nil {
		return nil, err
	}
	fh, err := f.root.OpenFile(rel, os.O_RDONLY|recipe.OpenNonBlocking, 0)
	if err != nil {
		return nil, refusal(path, err)
	}
	defer fh.Close()
	return readRegular(fh, path, limit)
}

// readRegular reads an open handle that must be a regular file of at most limit bytes.
func readRegular(fh *os.File, path string, limit int64) ([]byte, error) {
	if err := recipe.CheckRegular(fh); errors.Is(err, recipe.ErrNotRegular) {
		return nil, fmt.Errorf("%s %w", path, ErrNotRegular)
	} else if err != nil {
		return nil, refusal(path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		return nil, refusal(path, err)
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", path, ErrTooLarge, st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, refusal(path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w (over %d bytes)", path, ErrTooLarge, limit)
	}
	return data, nil
}

// Stat describes path, following symbolic links that stay inside.
func (f *Files) Stat(path string) (fs.FileInfo, error) {
	rel, err := f.Local(path)
	if err != nil {
		return nil, err
	}
	st, err := f.root.Stat(rel)
	return st, refusal(path, err)
}

// ReadDir lists the folder at path (following symbolic links that stay inside).
func (f *Files) ReadDir(path string) ([]fs.DirEntry, error) {
	rel, err := f.Local(path)
	if err != nil {
		return nil, err
	}
	dir, err := f.root.Open(rel)
	if err != nil {
		return nil, refusal(path, err)
	}
	defer dir.Close()
	entries, err := dir.ReadDir(-1)
	return entries, refusal(path, err)
}

// FS is the workspace as an fs.FS (for fs.WalkDir); it stays inside like every other method.
func (f *Files) FS() fs.FS { return f.root.FS() }
