// Writes through Files: parent folders walked (and created) one at a time without following any symbolic
// link, the file itself opened so that a link swapped in at the last moment is never written through.

package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
)

// ErrChanged is returned when a path changed (a folder or file swapped) while it was being written.
var ErrChanged = errors.New("changed while it was being written; nothing was written")

// WriteFile replaces or creates the file at path with data, creating parent folders. Neither the file
// nor any folder on the way may be a symbolic link, even one pointing inside the workspace.
func (f *Files) WriteFile(path string, data []byte) (created bool, err error) {
	rel, err := f.Local(path)
	if err != nil {
		return false, err
	}
	if rel == "." {
		return false, fmt.Errorf("%s is the workspace folder, not a file", path)
	}
	dir, release, err := f.openDirNoFollow(path, filepath.Dir(rel), true)
	if err != nil {
		return false, err
	}
	defer release()
	name := filepath.Base(rel)
	fi, err := dir.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// O_CREATE|O_EXCL never follows a symbolic link, dangling or not
		fh, err := dir.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|recipe.OpenNonBlocking, 0o644)
		if err != nil {
			if errors.Is(err, fs.ErrExist) {
				return false, fmt.Errorf("%s %w", path, ErrChanged)
			}
			return false, refusal(path, err)
		}
		return true, writeAndClose(fh, path, data)
	case err != nil:
		return false, refusal(path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("%s %w", path, ErrSymlink)
	case !fi.Mode().IsRegular():
		return false, fmt.Errorf("%s %w", path, ErrNotRegular)
	}
	// open without truncating, then make sure the handle is the file just checked: a link swapped in
	// meanwhile leads elsewhere (or out, which os.Root refuses) and is caught before any byte changes
	fh, err := dir.OpenFile(name, os.O_WRONLY|recipe.OpenNonBlocking, 0)
	if err != nil {
		return false, refusal(path, err)
	}
	st, err := fh.Stat()
	if err != nil || !os.SameFile(fi, st) || !st.Mode().IsRegular() {
		fh.Close()
		return false, fmt.Errorf("%s %w", path, ErrChanged)
	}
	if err := fh.Truncate(0); err != nil {
		fh.Close()
		return false, refusal(path, err)
	}
	return false, writeAndClose(fh, path, data)
}

func writeAndClose(fh *os.File, path string, data []byte) error {
	_, werr := fh.Write(data)
	cerr := fh.Close()
	if werr != nil {
		return refusal(path, werr)
	}
	return refusal(path, cerr)
}

// MkdirAll creates the folder at path and its parents, refusing symbolic links on the way.
func (f *Files) MkdirAll(path string) error {
	rel, err := f.Local(path)
	if err != nil {
		return err
	}
	_, release, err := f.openDirNoFollow(path, rel, true)
	if err != nil {
		return err
	}
	release()
	return nil
}

// CheckWritable reports whether path may be written (by someone else, e.g. an editor applying an edit):
// no folder on the way and not the file itself is a symbolic link, and the file, when it exists, is a
// regular file. Missing folders are fine (they would be created).
func (f *Files) CheckWritable(path string) (exists bool, err error) {
	rel, err := f.Local(path)
	if err != nil {
		return false, err
	}
	if rel == "." {
		return false, fmt.Errorf("%s is the workspace folder, not a file", path)
	}
	dir, release, err := f.openDirNoFollow(path, filepath.Dir(rel), false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer release()
	fi, err := dir.Lstat(filepath.Base(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, refusal(path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return true, fmt.Errorf("%s %w", path, ErrSymlink)
	case !fi.Mode().IsRegular():
		return true, fmt.Errorf("%s %w", path, ErrNotRegular)
	}
	return true, nil
}

// openDirNoFollow opens the folder rel (relative, clean) one component at a time: each must be a real
// folder (not a symbolic link), verified on the opened handle (same device and inode as the entry
// checked), so a folder swapped for a link between check and use is refused. With create, missing
// folders are made. release closes the handle.
func (f *Files) openDirNoFollow(path, rel string, create bool) (dir *os.Root, release func(), err error) {
	cur := f.root
	release = func() {}
	if rel == "." {
		return cur, release, nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		next, err := openChildNoFollow(cur, part, create)
		if cur != f.root {
			cur.Close()
		}
		if err != nil {
			return nil, nil, refusal(path, err)
		}
		cur = next
	}
	return cur, func() { cur.Close() }, nil
}

func openChildNoFollow(parent *os.Root, name string, create bool) (*os.Root, error) {
	fi, err := parent.Lstat(name)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err := parent.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = parent.Lstat(name)
	}
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("folder %s %w", name, ErrSymlink)
	case !fi.IsDir():
		return nil, fmt.Errorf("%s is not a folder", name)
	}
	child, err := parent.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	st, err := child.Stat(".")
	if err != nil || !os.SameFile(fi, st) {
		child.Close()
		return nil, fmt.Errorf("folder %s %w", name, ErrChanged)
	}
	return child, nil
}

// Remove deletes the file at path inside the workspace; a link is removed itself, never what it points at.
func (f *Files) Remove(path string) error {
	rel, err := f.Local(path)
	if err != nil {
		return err
	}
	if err := f.root.Remove(rel); err != nil {
		return refusal(path, err)
	}
	return nil
}
