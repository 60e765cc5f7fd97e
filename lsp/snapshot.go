// Snapshots: the checked File for a document's current version, for request handlers.

package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

// snapshot returns the check of uri's current text (running it now when the cached one is stale) and
// whether positions are UTF-8. ok is false for unknown or non-recipe documents.
func (s *Server) snapshot(uri protocol.DocumentURI) (f *recipe.File, utf8 bool, ok bool) {
	s.mu.Lock()
	d, found := s.docs[uri]
	if !found || !d.recipe {
		s.mu.Unlock()
		return nil, false, false
	}
	if d.file != nil && d.fileVer == d.version {
		f, utf8 = d.file, s.utf8
		s.mu.Unlock()
		return f, utf8, true
	}
	path, text, version, cache := d.path, d.text, d.version, d.cache
	utf8 = s.utf8
	s.mu.Unlock()
	f = recipe.Check(path, text, &recipe.Options{FS: overlayFS{s}, Cache: cache})
	deps := dependencies(f)
	s.mu.Lock()
	if d, found := s.docs[uri]; found && d.version == version && (d.file == nil || d.fileVer != version) {
		d.file, d.fileVer, d.deps = f, version, deps
	}
	s.mu.Unlock()
	return f, utf8, true
}
