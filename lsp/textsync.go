// Document store and text synchronisation: didOpen, incremental didChange, didSave, didClose.

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// document is one open editor buffer. text is never modified in place: each change makes a new slice,
// so a snapshot taken under the lock stays valid after it is released.
type document struct {
	uri     protocol.DocumentURI
	path    string
	lang    string
	version int32
	text    []byte
	lines   *source.LineIndex
	recipe  bool

	// gen changes with every text (and when a file it depends on changes): checks are cached per gen
	gen       uint64
	run       *checkRun // the check of the newest gen asked for (maybe still running)
	last      *checkRun // the newest finished check
	checking  bool      // a worker owns this document's publication
	dirty     bool      // changed while being checked
	published bool      // diagnostics were published (so closing must clear them)
	cache     *recipe.Cache
}

// lostDocument is an open document whose text the server no longer knows: an edit did not fit it.
type lostDocument struct {
	path, lang string
	version    int32
}

// nextGen numbers a document event; s.mu is held.
func (s *Server) nextGen() uint64 {
	s.gen++
	return s.gen
}

// deps lists the files the document's newest finished check read; s.mu is held.
func (d *document) deps() []string {
	if d.last == nil {
		return nil
	}
	return d.last.deps
}

func init() {
	notifications["textDocument/didOpen"] = didOpen
	notifications["textDocument/didChange"] = didChange
	notifications["textDocument/didClose"] = didClose
}

func uriPath(u protocol.DocumentURI) string {
	if strings.HasPrefix(string(u), "file://") {
		return uri.URI(u).Filename()
	}
	return string(u)
}

// isRecipeDoc applies the detection rules to a YAML or JSON buffer.
func isRecipeDoc(lang, path string, text []byte) bool {
	switch lang {
	case "yaml", "json", "goose-recipe", "jsonc", "":
	default:
		return false
	}
	return recipe.LooksLikeRecipe(path, text)
}

func didOpen(_ context.Context, s *Server, raw json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	text := []byte(p.TextDocument.Text)
	d := &document{uri: p.TextDocument.URI, path: uriPath(p.TextDocument.URI), lang: string(p.TextDocument.LanguageID),
		version: p.TextDocument.Version, text: text, lines: source.NewLineIndex(text), cache: &recipe.Cache{}}
	d.recipe = isRecipeDoc(d.lang, d.path, text)
	s.mu.Lock()
	d.gen = s.nextGen()
	s.docs[d.uri] = d
	delete(s.lost, d.uri)
	s.mu.Unlock()
	s.schedule(d.uri)
	return nil
}

// changeEvent is TextDocumentContentChangeEvent with an optional range (protocol v0.12.0's is a value,
// which cannot tell a full-text change from an edit at 0:0).
type changeEvent struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []changeEvent                            `json:"contentChanges"`
}

// didChange applies the changes in order. A change that cannot apply to the text the server holds
// (a range past the end of the document or ending before it starts, or a version that does not
// increase) means the server's text no longer matches the editor's: rather than guess, the server drops
// the document's text, logs at error level and publishes one error diagnostic asking to reopen the
// file; a later change that carries the full text (or a didOpen) brings the document back.
func didChange(ctx context.Context, s *Server, raw json.RawMessage) error {
	var p didChangeParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	u := p.TextDocument.URI
	s.mu.Lock()
	d, ok := s.docs[u]
	if !ok {
		lost, isLost := s.lost[u]
		s.mu.Unlock()
		if isLost {
			return s.resync(u, lost, p)
		}
		return fmt.Errorf("didChange for a document that is not open: %s", u)
	}
	text, lines := d.text, d.lines
	var bad error
	if p.TextDocument.Version <= d.version {
		bad = fmt.Errorf("version %d does not follow version %d", p.TextDocument.Version, d.version)
	}
	for i := 0; bad == nil && i < len(p.ContentChanges); i++ {
		text, bad = applyChange(text, lines, p.ContentChanges[i], s.utf8)
		lines = source.NewLineIndex(text)
	}
	if bad != nil {
		lost := &lostDocument{path: d.path, lang: d.lang, version: p.TextDocument.Version}
		delete(s.docs, u)
		s.lost[u] = lost
		gen := s.nextGen()
		s.changedLocked()
		s.mu.Unlock()
		slog.Error("lsp: an edit does not fit the document; its text is dropped until the client sends it again", "uri", u, "error", bad)
		s.publish(ctx, u, gen, p.TextDocument.Version, []protocol.Diagnostic{serverDiagnostic(codeOutOfSync, protocol.DiagnosticSeverityError,
			fmt.Sprintf("goose-ls lost track of this file's text (an edit did not fit it: %v); close and reopen the file", bad))})
		s.recheckDependents(d.path)
		return nil
	}
	d.text, d.lines, d.version = text, lines, p.TextDocument.Version
	d.gen = s.nextGen()
	// a recipe stays a recipe while it is open: an edit that breaks detection (`titel:`) must still
	// get diagnostics ("missing field `title`"), not silence
	d.recipe = d.recipe || isRecipeDoc(d.lang, d.path, text)
	path := d.path
	s.changedLocked()
	s.mu.Unlock()
	s.schedule(d.uri)
	s.recheckDependents(path)
	return nil
}

// changedLocked wakes awaitChange; s.mu is held.
func (s *Server) changedLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// resync brings a lost document back when a change carries its full text (the last such change and
// every change after it apply); other changes keep it lost.
func (s *Server) resync(u protocol.DocumentURI, lost *lostDocument, p didChangeParams) error {
	full := -1
	for i, c := range p.ContentChanges {
		if c.Range == nil {
			full = i
		}
	}
	if full < 0 {
		slog.Debug("lsp: change for a document whose text is lost, ignored until its full text arrives", "uri", u)
		return nil
	}
	text := []byte(p.ContentChanges[full].Text)
	for _, c := range p.ContentChanges[full+1:] {
		var err error
		if text, err = applyChange(text, source.NewLineIndex(text), c, s.utf8); err != nil {
			return nil // still lost
		}
	}
	d := &document{uri: u, path: lost.path, lang: lost.lang, version: p.TextDocument.Version, text: text,
		lines: source.NewLineIndex(text), cache: &recipe.Cache{}, published: true}
	d.recipe = isRecipeDoc(d.lang, d.path, text)
	s.mu.Lock()
	if s.lost[u] != lost {
		s.mu.Unlock()
		return nil // reopened or closed meanwhile
	}
	delete(s.lost, u)
	d.gen = s.nextGen()
	s.docs[u] = d
	s.changedLocked()
	s.mu.Unlock()
	slog.Info("lsp: document text received again", "uri", u)
	s.schedule(u)
	s.recheckDependents(d.path)
	return nil
}

// applyChange returns a new text with one change applied, or an error when the change's range does not
// fit the text. A character past the end of its line means the line's end (LSP says so); a position
// one line past the last, at character 0, means the end of the text.
func applyChange(text []byte, lines *source.LineIndex, c changeEvent, utf8 bool) ([]byte, error) {
	if c.Range == nil {
		return []byte(c.Text), nil
	}
	r := *c.Range
	if r.Start.Line > r.End.Line || (r.Start.Line == r.End.Line && r.Start.Character > r.End.Character) {
		return nil, fmt.Errorf("range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	n := uint32(lines.LineCount())
	for _, pos := range []protocol.Position{r.Start, r.End} {
		if pos.Line > n || (pos.Line == n && pos.Character > 0) {
			return nil, fmt.Errorf("position %d:%d is past the end of the document (%d lines)", pos.Line, pos.Character, n)
		}
	}
	start, end := toOffset(lines, r.Start, utf8), toOffset(lines, r.End, utf8)
	out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
	out = append(out, text[:start]...)
	out = append(out, c.Text...)
	return append(out, text[end:]...), nil
}

func didClose(ctx context.Context, s *Server, raw json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	u := p.TextDocument.URI
	s.mu.Lock()
	d, ok := s.docs[u]
	_, wasLost := s.lost[u]
	delete(s.docs, u)
	delete(s.lost, u)
	gen := s.nextGen()
	s.mu.Unlock()
	if (ok && d.published) || wasLost {
		s.publish(ctx, u, gen, 0, nil)
	}
	if ok {
		s.recheckDependents(d.path) // the disk version now applies to recipes that use this file
	}
	return nil
}
