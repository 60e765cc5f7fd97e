// Roots opened once for a short job (one check's sub-recipe reads, one walk of `check DIR`), and reads sized
// by the file instead of growing a buffer from 512 bytes.

package recipe

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// OpenRoots keeps the folders a short job reads from open as os.Roots until Close: each root, and each
// folder below it that holds a file read, opened once through its parent (so inside the root), instead of
// os.Root walking every path component for every file (9 openat calls for a file 8 folders deep). It must
// not outlive the job: a folder moved or replaced after it was opened would still be read as it was. A read
// the folder's own root refuses (a symlink that leaves that folder but perhaps not the root) is retried
// from the root, so the answer is always the root's. A nil *OpenRoots opens a root for every read. At most
// maxKeptRoots folders are kept; past that a folder is opened for the read. Safe for concurrent use.
type OpenRoots struct {
	mu     sync.Mutex
	roots  map[string]*os.Root // key: root + "\x00" + folder relative to it
	closed bool
}

// maxKeptRoots bounds the descriptors one OpenRoots keeps.
const maxKeptRoots = 256

// NewOpenRoots returns an empty set; Close it when the job is done.
func NewOpenRoots() *OpenRoots { return &OpenRoots{roots: map[string]*os.Root{}} }

// Close closes every folder the set kept; later reads open a root per read.
func (o *OpenRoots) Close() error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for k, r := range o.roots {
		r.Close()
		delete(o.roots, k)
	}
	return nil
}

// folder returns the open root for dir below root (dir "." is root itself) and whether the caller must
// close it (it is not kept by the set).
func (o *OpenRoots) folder(root, dir string) (*os.Root, bool, error) {
	if o == nil {
		r, err := os.OpenRoot(root)
		return r, true, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.folderLocked(root, dir)
}

func (o *OpenRoots) folderLocked(root, dir string) (*os.Root, bool, error) {
	key := root + "\x00" + dir
	if r, ok := o.roots[key]; ok {
		return r, false, nil
	}
	var r *os.Root
	var err error
	if dir == "." {
		r, err = os.OpenRoot(root)
	} else {
		parent, owned, perr := o.folderLocked(root, filepath.Dir(dir))
		if perr != nil {
			return nil, false, perr
		}
		r, err = parent.OpenRoot(filepath.Base(dir)) // confined to the parent, so to the root
		if owned {
			parent.Close()
		}
	}
	if err != nil {
		return nil, false, err
	}
	if o.closed || len(o.roots) >= maxKeptRoots {
		return r, true, nil
	}
	o.roots[key] = r
	return r, false, nil
}

// openRegular opens rel below root through os.Root (symlinks are resolved and must stay inside,
// atomically), without blocking, and returns the handle and its size only if fstat says it is a regular file.
func (o *OpenRoots) openRegular(root, rel string) (*os.File, int64, error) {
	if o != nil && filepath.Dir(rel) != "." {
		// through the file's own folder; any refusal is decided again from the root below
		if f, err := o.openIn(root, filepath.Dir(rel), filepath.Base(rel)); err == nil {
			return o.checked(f, rel)
		}
	}
	f, err := o.openIn(root, ".", rel)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", rel, classifyOpenError(err))
	}
	return o.checked(f, rel)
}

// openIn opens name in the folder dir below root.
func (o *OpenRoots) openIn(root, dir, name string) (*os.File, error) {
	r, owned, err := o.folder(root, dir)
	if err != nil {
		return nil, err
	}
	if owned {
		defer r.Close()
	}
	return r.OpenFile(name, os.O_RDONLY|OpenNonBlocking, 0)
}

// checked returns f and its size if it is a regular file, else closes it.
func (o *OpenRoots) checked(f *os.File, rel string) (*os.File, int64, error) {
	size, err := regularSize(f)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", rel, err)
	}
	return f, size, nil
}

// ReadLimitedIn reads name (absolute, or relative to the working folder) inside root like the reads a
// recipe makes — symlinks kept inside root, a regular file, without blocking — but up to limit bytes with
// no error past it, so a caller can report a file that is too large itself (`goose-ls check DIR`).
func (o *OpenRoots) ReadLimitedIn(root, name string, limit int) ([]byte, error) {
	c := newConfinedReader(nil, []string{root})
	path, err := filepath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, ErrUnreadable)
	}
	r, rel, ok := c.locate(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w", name, ErrOutsideRoots)
	}
	f, size, err := o.openRegular(r, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readSized(f, size, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, ErrUnreadable)
	}
	return data, nil
}

// ReadLimitedIn is (*OpenRoots)(nil).ReadLimitedIn: root opened for this one read.
func ReadLimitedIn(root, name string, limit int) ([]byte, error) {
	return (*OpenRoots)(nil).ReadLimitedIn(root, name, limit)
}

// readSized reads at most limit bytes of r into a buffer sized for size bytes (the file's size as fstat
// saw it; the file may still grow or shrink, which only costs a larger buffer).
func readSized(r io.Reader, size int64, limit int) ([]byte, error) {
	want := size
	if want < 0 || want > int64(limit) {
		want = int64(limit)
	}
	buf := make([]byte, 0, want+1) // +1: the read that finds EOF needs no larger buffer
	lr := io.LimitReader(r, int64(limit))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
