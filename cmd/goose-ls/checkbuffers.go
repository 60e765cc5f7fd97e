// The files `check DIR` has read, handed to its checks as buffers: a parent's sub-recipes and template
// parents are then not opened and read a second time.

package main

import (
	"sync"

	"github.com/goose-ls/goose-ls/recipe"
)

// walkedFiles holds the text of each regular file the walk read, by its clean absolute path. It is a
// recipe.FS with recipe.Buffers: a confined read of one of these paths takes the text instead of the
// disk, after the reader's own root check (a path outside the check's roots is refused before). Only
// files that are not symlinks, in folders the walk entered (it never follows a symlinked folder), are
// kept, so every root that lexically holds the path reads the same file through os.Root; and only files
// a sub-recipe read may take whole (at most recipe.MaxLinkedFileSize bytes), so a larger one is read,
// and refused, as before.
type walkedFiles struct {
	mu    sync.RWMutex
	texts map[string][]byte
}

func newWalkedFiles() *walkedFiles { return &walkedFiles{texts: map[string][]byte{}} }

// keep records the text read at abs (a clean absolute path of a regular file, not a symlink).
func (w *walkedFiles) keep(abs string, data []byte) {
	if len(data) > recipe.MaxLinkedFileSize {
		return
	}
	w.mu.Lock()
	w.texts[abs] = data
	w.mu.Unlock()
}

// Buffer is the text the walk read at name (absolute and clean, as the confined reader asks).
func (w *walkedFiles) Buffer(name string) ([]byte, bool) {
	w.mu.RLock()
	data, ok := w.texts[name]
	w.mu.RUnlock()
	return data, ok
}

// ReadFile is the disk's (the confined reader reads the disk itself for a Buffers FS; this is for
// callers that use the FS directly).
func (w *walkedFiles) ReadFile(name string) ([]byte, error) { return recipe.OSFS{}.ReadFile(name) }
