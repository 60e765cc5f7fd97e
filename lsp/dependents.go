// Dependents: when a file changes (open buffer, save, or on disk), re-check the open recipes whose
// sub-recipes or extends/include parents it is.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

func init() {
	notifications["textDocument/didSave"] = didSave
	notifications["workspace/didChangeWatchedFiles"] = didChangeWatchedFiles
	requests["textDocument/diagnostic"] = pullDiagnostics
}

// dependencies lists the files a checked document reads or links: sub-recipes, template parents,
// recipe_dir links (existing or not). Computed once per check (outside the lock) and kept on the
// document; it touches no file (it used to stat every link after every keystroke).
func dependencies(f *recipe.File) []string {
	if f == nil {
		return nil
	}
	return f.Dependencies()
}

// recheckDependents schedules every open recipe that depends on path; their cached checks are stale.
func (s *Server) recheckDependents(path string) {
	s.mu.Lock()
	var uris []protocol.DocumentURI
	for u, d := range s.docs {
		if d.path == path {
			continue
		}
		for _, dep := range d.deps() {
			if dep == path {
				uris = append(uris, u)
				d.gen = s.nextGen()
				break
			}
		}
	}
	s.mu.Unlock()
	for _, u := range uris {
		s.schedule(u)
	}
}

func didSave(_ context.Context, s *Server, raw json.RawMessage) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.recheckDependents(uriPath(p.TextDocument.URI))
	return nil
}

func didChangeWatchedFiles(_ context.Context, s *Server, raw json.RawMessage) error {
	var p protocol.DidChangeWatchedFilesParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	for _, ch := range p.Changes {
		s.recheckDependents(uriPath(ch.URI))
	}
	return nil
}

// pullDiagnostics answers textDocument/diagnostic (LSP 3.17) with a full report.
func pullDiagnostics(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	items := []protocol.Diagnostic{}
	if snap != nil {
		items = snap.run.published
	}
	return map[string]any{"kind": "full", "items": items}, nil
}
