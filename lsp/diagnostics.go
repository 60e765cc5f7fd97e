// Diagnostics off the request path: a worker pool checks documents, one check per document at a time,
// the newest version wins and results for stale versions are dropped.

package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

// schedule queues a check of uri unless one is running, in which case that worker re-checks after.
func (s *Server) schedule(uri protocol.DocumentURI) {
	s.mu.Lock()
	d, ok := s.docs[uri]
	if !ok {
		s.mu.Unlock()
		return
	}
	if d.checking {
		d.dirty = true
		s.mu.Unlock()
		return
	}
	d.checking = true
	s.mu.Unlock()
	s.queue <- uri
}

func (s *Server) checkWorker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case uri := <-s.queue:
			s.checkLoop(ctx, uri)
		}
	}
}

// checkLoop checks one document until it is clean, publishing each result that is still current.
func (s *Server) checkLoop(ctx context.Context, uri protocol.DocumentURI) {
	for {
		s.mu.Lock()
		d, ok := s.docs[uri]
		if !ok {
			s.mu.Unlock()
			return
		}
		d.dirty = false
		path, text, version, isRecipe, utf8, cache := d.path, d.text, d.version, d.recipe, s.utf8, d.cache
		s.mu.Unlock()

		var diags []protocol.Diagnostic
		var file *recipe.File
		var deps []string
		if isRecipe {
			file = recipe.Check(path, text, &recipe.Options{FS: overlayFS{s}, Cache: cache})
			diags = convertDiagnostics(file, uri, utf8)
			deps = dependencies(file)
		}

		s.mu.Lock()
		d, ok = s.docs[uri]
		publish := ok && d.version == version && (isRecipe || d.published)
		if publish {
			d.file, d.fileVer, d.deps = file, version, deps
			d.published = isRecipe
		}
		again := ok && d.dirty
		if !again && ok {
			d.checking = false
		}
		s.mu.Unlock()
		if publish {
			if diags == nil {
				diags = []protocol.Diagnostic{}
			}
			s.notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(version), Diagnostics: diags})
		}
		if !again {
			return
		}
	}
}

// overlayFS reads open buffers first (unsaved text included), the disk otherwise. recipe.Check takes only
// the buffers from it (recipe.Buffers) and reads the disk itself, confined to its roots.
type overlayFS struct{ s *Server }

// Buffer returns the text of the open buffer for name.
func (o overlayFS) Buffer(name string) ([]byte, bool) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	for _, d := range o.s.docs {
		if d.path == name {
			return d.text, true
		}
	}
	return nil, false
}

// ReadFile is the buffer for name, else the file on disk if it is a regular file (opened without blocking,
// read up to the check's size limit + 1 so the check reports a larger file as too large).
func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if text, ok := o.Buffer(name); ok {
		return text, nil
	}
	return recipe.ReadRegularFile(name, recipe.DefaultMaxSize)
}

const docsURL = "https://github.com/goose-ls/goose-ls/blob/main/docs/diagnostics.md#"

func convertDiagnostics(f *recipe.File, uri protocol.DocumentURI, utf8 bool) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(f.Diags))
	for _, d := range f.Diags {
		pd := protocol.Diagnostic{
			Range:           toRange(f.Lines, d.R, utf8),
			Severity:        protocol.DiagnosticSeverity(d.Severity),
			Code:            d.Code,
			CodeDescription: &protocol.CodeDescription{Href: protocol.URI(docsURL + strings.ToLower(d.Code))},
			Source:          "goose-ls",
			Message:         d.Message,
		}
		for _, t := range d.Tags {
			pd.Tags = append(pd.Tags, protocol.DiagnosticTag(t))
		}
		for _, r := range d.Related {
			loc := protocol.Location{URI: uri, Range: toRange(f.Lines, r.R, utf8)}
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
		}
		if len(d.Data) > 0 {
			pd.Data = d.Data
		}
		out = append(out, pd)
	}
	return out
}
