// Confined reads: a file a recipe names is read only inside the roots, only if it is a regular file, without
// blocking and up to a size cap; the errors say why a file was refused and never carry its content.

package recipe

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxLinkedFileSize is the largest file a recipe may make goose-ls read (sub-recipes, template parents).
const MaxLinkedFileSize = 1 << 20

// Reasons a file named by a recipe is not read; test them with errors.Is.
var (
	// ErrOutsideRoots: the path (or a symlink on the way) leaves every root; the file is not read.
	ErrOutsideRoots = errors.New("not checked: outside the workspace")
	// ErrNotRegular: a folder, FIFO, device, socket or /proc or /sys file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the cap.
	ErrTooLarge = errors.New("too large")
	// ErrSymlinkLoop: resolving the path met a symlink loop.
	ErrSymlinkLoop = errors.New("too many levels of symbolic links")
	// ErrUnreadable: any other failure (permissions, I/O); the OS error is not repeated.
	ErrUnreadable = errors.New("cannot be read")
)

// Buffers is implemented by an FS that holds some files in memory (the language server's open editor
// buffers). A confined read takes a buffer when there is one and reads the disk itself otherwise.
type Buffers interface {
	Buffer(name string) ([]byte, bool)
}

// confinedReader reads files named by a recipe inside roots. fsys supplies editor buffers (Buffers) or,
// for an FS that is neither OSFS nor Buffers, the files themselves once the path is known to be inside.
type confinedReader struct {
	roots  []string
	fsys   FS
	max    int
	opened *OpenRoots // nil: a root opened per read
}

func newConfinedReader(fsys FS, roots []string) confinedReader {
	return confinedReader{roots: cleanRoots(roots), fsys: fsys, max: MaxLinkedFileSize}
}

// cleanRoots makes every root absolute and clean, dropping empty ones.
func cleanRoots(roots []string) []string {
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		if r == "" {
			continue
		}
		if abs, err := filepath.Abs(r); err == nil {
			r = abs
		}
		out = append(out, filepath.Clean(r))
	}
	return out
}

// within reports whether path lies lexically inside dir (or is dir) and returns it relative to dir.
func within(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// locate finds the outermost root that holds path lexically.
func (c confinedReader) locate(path string) (root, rel string, ok bool) {
	for _, r := range c.roots {
		if rr, in := within(r, path); in && (!ok || len(r) < len(root)) {
			root, rel, ok = r, rr, true
		}
	}
	return root, rel, ok
}

// contains reports whether name lies lexically inside a root (symlinks are checked when it is opened).
func (c confinedReader) contains(name string) bool {
	path, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	_, _, ok := c.locate(path)
	return ok
}

// ReadFile reads name (absolute, or relative to the working folder) if it is a regular file inside a
// root, from a buffer when fsys holds one.
func (c confinedReader) ReadFile(name string) ([]byte, error) {
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, ErrUnreadable)
	}
	root, rel, ok := c.locate(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, ErrOutsideRoots)
	}
	switch fsys := c.fsys.(type) {
	case nil, OSFS:
	case Buffers:
		if data, ok := fsys.Buffer(path); ok {
			if len(data) > c.max {
				return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
			}
			return data, nil
		}
	default:
		data, err := fsys.ReadFile(path)
		if err == nil && len(data) > c.max {
			return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
		}
		return data, err
	}
	return c.opened.readInRoot(root, rel, c.max)
}

// Stat reports whether name is a regular file inside a root without reading it (ErrNotExist when it is
// missing), for links an editor will open itself.
func (c confinedReader) Stat(name string) error {
	path, err := filepath.Abs(name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, ErrUnreadable)
	}
	root, rel, ok := c.locate(path)
	if !ok {
		return fmt.Errorf("%s: %w", name, ErrOutsideRoots)
	}
	if b, isBuf := c.fsys.(Buffers); isBuf {
		if _, ok := b.Buffer(path); ok {
			return nil
		}
	}
	f, _, err := c.opened.openRegular(root, rel)
	if err != nil {
		return err
	}
	return f.Close()
}

// readInRoot opens rel below root (see openRegular) and reads at most max bytes (ErrTooLarge past it).
func (o *OpenRoots) readInRoot(root, rel string, max int) ([]byte, error) {
	f, size, err := o.openRegular(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readSized(f, size, max+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, ErrUnreadable)
	}
	if len(data) > max {
		return nil, fmt.Errorf("%s: %w", rel, ErrTooLarge)
	}
	return data, nil
}

// CheckRegular refuses an open handle that is not a regular file, or is a pseudo file that claims to be
// regular (/proc, /sys): ErrNotRegular, or ErrUnreadable when fstat fails.
func CheckRegular(f *os.File) error {
	_, err := regularSize(f)
	return err
}

// regularSize is CheckRegular returning the file's size as fstat saw it.
func regularSize(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, ErrUnreadable
	}
	if !st.Mode().IsRegular() || isPseudoFS(f) {
		return 0, ErrNotRegular
	}
	return st.Size(), nil
}

// classifyOpenError turns an open error into one of the reasons above (os.ErrNotExist is kept).
func classifyOpenError(err error) error {
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fs.ErrNotExist
	case errors.Is(err, syscall.ELOOP):
		return ErrSymlinkLoop
	case errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent":
		// os.Root's error for `..`, absolute names and symlinks that leave the root (not exported)
		return ErrOutsideRoots
	case errors.Is(err, syscall.ENXIO), errors.Is(err, syscall.ENOTDIR):
		return ErrNotRegular // a socket opened as a file, or a file used as a folder
	}
	return ErrUnreadable
}

// ReadRegularFile reads a file the user named (not one a recipe names): it must be a regular file, opened
// so that it cannot block, and is read up to max+1 bytes so the caller can report it as too large.
func ReadRegularFile(name string, max int) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|OpenNonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := regularSize(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data, err := readSized(f, size, max+1)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}

// ReadError words a refusal for a diagnostic: the reason only, never the OS error text or any content.
func ReadError(err error) string {
	switch {
	case errors.Is(err, ErrOutsideRoots):
		return ErrOutsideRoots.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, ErrNotRegular):
		return "not a regular file"
	case errors.Is(err, ErrTooLarge):
		return fmt.Sprintf("too large (the limit is %d bytes)", MaxLinkedFileSize)
	case errors.Is(err, ErrSymlinkLoop):
		return "a symlink loop"
	}
	return "cannot be read"
}

// ConfinedFS is an FS that reads only regular files inside roots, up to MaxLinkedFileSize bytes: for files
// a recipe names outside a check (a sub-recipe run, a parameter file a parent recipe's `values` sets).
func ConfinedFS(roots []string) FS { return newConfinedReader(nil, roots) }

// ConfinedOverlay is ConfinedFS taking a file from fsys's buffers when it has one (an editor's unsaved
// text; see Buffers), so an agent run reads the files a recipe names as the editor shows them.
func ConfinedOverlay(fsys FS, roots []string) FS { return newConfinedReader(fsys, roots) }
