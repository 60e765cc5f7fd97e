// Snapshots: a request handler's view of one document — its URI, the version and the check it was
// computed on, and the position encoding — so every position and edit it returns names that version.

package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

// snapshot is one checked version of a document.
type snapshot struct {
	URI     protocol.DocumentURI
	Version int32
	File    *recipe.File
	UTF8    bool
	run     *checkRun
}

// snapshot returns the check of uri's current text, awaiting the check that is running for it (or
// starting one) — never a check of another document. It releases the message order once it has read
// the document, so later messages do not wait for the check. It returns nil for documents that are
// not open recipes, and ctx's error when the request is cancelled while it waits.
func (s *Server) snapshot(ctx context.Context, uri protocol.DocumentURI) (*snapshot, error) {
	s.mu.Lock()
	d, found := s.docs[uri]
	if !found || !d.recipe {
		s.mu.Unlock()
		return nil, nil
	}
	run := s.ensureCheck(d)
	utf8 := s.utf8
	s.mu.Unlock()
	release(ctx)
	select {
	case <-run.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &snapshot{URI: uri, Version: run.version, File: run.file, UTF8: utf8, run: run}, nil
}

// lastSnapshot returns the newest finished check of uri without waiting (nil when there is none): for
// looking at other documents, whose checks a request must not wait for. Its version may be older
// than the document's; edits built on it name that version, so the client refuses them if stale.
func (s *Server) lastSnapshot(uri protocol.DocumentURI) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, found := s.docs[uri]
	if !found || !d.recipe || d.last == nil {
		return nil
	}
	return &snapshot{URI: uri, Version: d.last.version, File: d.last.file, UTF8: s.utf8, run: d.last}
}

// snapshotFile is snapshot for handlers that need only the checked file and the encoding.
func (s *Server) snapshotFile(ctx context.Context, uri protocol.DocumentURI) (f *recipe.File, utf8 bool, ok bool, err error) {
	snap, err := s.snapshot(ctx, uri)
	if err != nil || snap == nil {
		return nil, false, false, err
	}
	return snap.File, snap.UTF8, true, nil
}
