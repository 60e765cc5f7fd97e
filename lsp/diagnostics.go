// Diagnostics off the request path: a worker pool checks documents, one check per document at a time,
// the newest version wins and results for stale versions are dropped.

package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

// schedule queues a check of uri unless a worker owns it, in which case that worker checks again after.
// It never blocks: the queue is a list.
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
	s.pending = append(s.pending, uri)
	s.mu.Unlock()
	s.signal()
}

func (s *Server) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Server) checkWorker(ctx context.Context) {
	for {
		s.mu.Lock()
		var uri protocol.DocumentURI
		n := len(s.pending)
		if n > 0 {
			uri = s.pending[0]
			s.pending = s.pending[1:]
		}
		s.mu.Unlock()
		if n == 0 {
			select {
			case <-ctx.Done():
				return
			case <-s.wake:
			}
			continue
		}
		if n > 1 {
			s.signal() // more work: wake another worker
		}
		s.checkLoop(ctx, uri)
	}
}

// checkLoop publishes the check of uri's current text (sharing a check a request already started)
// until the document stops changing under it.
func (s *Server) checkLoop(ctx context.Context, uri protocol.DocumentURI) {
	for {
		s.mu.Lock()
		d, ok := s.docs[uri]
		if !ok {
			s.mu.Unlock()
			return
		}
		d.dirty = false
		var run *checkRun
		if d.recipe {
			run = s.ensureCheck(d)
		}
		gen, version, wasPublished := d.gen, d.version, d.published
		s.mu.Unlock()

		var diags []protocol.Diagnostic
		if run != nil {
			select {
			case <-run.done:
			case <-ctx.Done():
				return
			}
			diags = run.published
		}

		s.mu.Lock()
		d, ok = s.docs[uri]
		current := ok && d.gen == gen
		publish := current && (run != nil || wasPublished)
		if publish {
			d.published = run != nil
		}
		again := ok && d.dirty
		if !again && ok {
			d.checking = false
		}
		s.mu.Unlock()
		if publish {
			s.publish(ctx, uri, gen, version, diags)
		}
		if !again {
			return
		}
	}
}

// publish sends diagnostics computed for generation gen of uri, unless something newer was published.
func (s *Server) publish(ctx context.Context, uri protocol.DocumentURI, gen uint64, version int32, diags []protocol.Diagnostic) {
	if diags == nil {
		diags = []protocol.Diagnostic{}
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if gen < s.lastPub[uri] {
		return
	}
	s.lastPub[uri] = gen
	s.notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: uri, Version: uint32(version), Diagnostics: diags})
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

// convertDiagnostics converts each diagnostic's ranges once (done once per check, kept on the checkRun).
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
