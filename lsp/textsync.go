// Document store and text synchronisation: didOpen, incremental didChange, didSave, didClose.

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
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

	file      *recipe.File // last check, for the version in fileVer
	fileVer   int32
	checking  bool // a worker owns this document's check
	dirty     bool // changed while being checked
	published bool // diagnostics were published (so closing or un-recipe-ing must clear them)
	cache     *recipe.Cache
	deps      []string // files the last check read (sub-recipes, template parents)
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
	s.docs[d.uri] = d
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

func didChange(_ context.Context, s *Server, raw json.RawMessage) error {
	var p didChangeParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("didChange for a document that is not open: %s", p.TextDocument.URI)
	}
	text, lines := d.text, d.lines
	for _, c := range p.ContentChanges {
		text = applyChange(text, lines, c, s.utf8)
		lines = source.NewLineIndex(text)
	}
	d.text, d.lines, d.version = text, lines, p.TextDocument.Version
	d.recipe = isRecipeDoc(d.lang, d.path, text)
	path := d.path
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	s.schedule(d.uri)
	s.recheckDependents(path)
	return nil
}

// applyChange returns a new text with one change applied (ranges are clamped to the document).
func applyChange(text []byte, lines *source.LineIndex, c changeEvent, utf8 bool) []byte {
	if c.Range == nil {
		return []byte(c.Text)
	}
	start, end := toOffset(lines, c.Range.Start, utf8), toOffset(lines, c.Range.End, utf8)
	if end < start {
		start, end = end, start
	}
	out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
	out = append(out, text[:start]...)
	out = append(out, c.Text...)
	return append(out, text[end:]...)
}

func didClose(ctx context.Context, s *Server, raw json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return err
	}
	s.mu.Lock()
	d, ok := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	if ok && d.published {
		s.notify(ctx, "textDocument/publishDiagnostics", protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	}
	if ok {
		s.recheckDependents(d.path) // the disk version now applies to recipes that use this file
	}
	return nil
}
