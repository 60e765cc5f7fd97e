// Navigation: definition, references, document highlight, prepareRename and rename of parameters,
// definition of sub-recipe paths and extends/include names.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/recipe"
)

func init() {
	requests["textDocument/definition"] = definition
	requests["textDocument/references"] = references
	requests["textDocument/documentHighlight"] = highlight
	requests["textDocument/prepareRename"] = prepareRename
	requests["textDocument/rename"] = rename
}

// positionParams decodes a text-document position request and resolves it (f is nil when the document
// is not an open recipe).
func positionParams(s *Server, raw json.RawMessage) (*recipe.File, bool, int, protocol.DocumentURI, error) {
	var p protocol.TextDocumentPositionParams
	if err := decode(raw, &p); err != nil {
		return nil, false, 0, "", err
	}
	f, utf8, off := s.at(p)
	return f, utf8, off, p.TextDocument.URI, nil
}

// at resolves an already decoded position to the document's current check and a byte offset.
func (s *Server) at(p protocol.TextDocumentPositionParams) (*recipe.File, bool, int) {
	f, utf8, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return nil, false, 0
	}
	return f, utf8, toOffset(f.Lines, p.Position, utf8)
}

func definition(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	f, utf8, off, u, err := positionParams(s, raw)
	if err != nil || f == nil {
		return nil, err
	}
	if ref := f.ParamRefAt(off); ref != nil && ref.Param != nil {
		return []protocol.Location{{URI: u, Range: toRange(f.Lines, ref.Decl, utf8)}}, nil
	}
	if target, _, ok := f.LinkAt(off); ok {
		return []protocol.Location{{URI: protocol.DocumentURI(uri.File(target))}}, nil
	}
	return nil, nil
}

func references(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	u := p.TextDocument.URI
	f, utf8, off := s.at(p.TextDocumentPositionParams)
	if f == nil {
		return nil, nil
	}
	ref := f.ParamRefAt(off)
	if ref == nil {
		return nil, nil
	}
	out := []protocol.Location{}
	if p.Context.IncludeDeclaration && ref.Param != nil {
		out = append(out, protocol.Location{URI: u, Range: toRange(f.Lines, ref.Decl, utf8)})
	}
	for _, r := range ref.Uses {
		out = append(out, protocol.Location{URI: u, Range: toRange(f.Lines, r, utf8)})
	}
	for pu, rs := range s.parentKeys(u, f.Path, ref.Name) {
		for _, r := range rs {
			out = append(out, protocol.Location{URI: pu, Range: r})
		}
	}
	return out, nil
}

func highlight(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	f, utf8, off, _, err := positionParams(s, raw)
	if err != nil || f == nil {
		return nil, err
	}
	ref := f.ParamRefAt(off)
	if ref == nil {
		return nil, nil
	}
	out := []protocol.DocumentHighlight{}
	if ref.Param != nil {
		out = append(out, protocol.DocumentHighlight{Range: toRange(f.Lines, ref.Decl, utf8), Kind: protocol.DocumentHighlightKindWrite})
	}
	for _, r := range ref.Uses {
		out = append(out, protocol.DocumentHighlight{Range: toRange(f.Lines, r, utf8), Kind: protocol.DocumentHighlightKindRead})
	}
	return out, nil
}

func prepareRename(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	f, utf8, off, _, err := positionParams(s, raw)
	if err != nil || f == nil {
		return nil, err
	}
	ref := f.ParamRefAt(off)
	if ref == nil || ref.Param == nil {
		return nil, nil
	}
	return map[string]any{"range": toRange(f.Lines, ref.At, utf8), "placeholder": ref.Name}, nil
}

func rename(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.RenameParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	u := p.TextDocument.URI
	f, utf8, off := s.at(p.TextDocumentPositionParams)
	if f == nil {
		return nil, nil
	}
	ref := f.ParamRefAt(off)
	if ref == nil || ref.Param == nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "no parameter to rename here"}
	}
	if !validName(p.NewName) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "a parameter name is letters, digits and _, not starting with a digit"}
	}
	edits := []protocol.TextEdit{{Range: toRange(f.Lines, ref.Decl, utf8), NewText: p.NewName}}
	for _, r := range ref.Uses {
		edits = append(edits, protocol.TextEdit{Range: toRange(f.Lines, r, utf8), NewText: p.NewName})
	}
	changes := []any{map[string]any{
		"textDocument": map[string]any{"uri": u, "version": s.version(u)},
		"edits":        edits,
	}}
	for pu, rs := range s.parentKeys(u, f.Path, ref.Name) {
		pe := make([]protocol.TextEdit, 0, len(rs))
		for _, r := range rs {
			pe = append(pe, protocol.TextEdit{Range: r, NewText: p.NewName})
		}
		changes = append(changes, map[string]any{"textDocument": map[string]any{"uri": pu, "version": s.version(pu)}, "edits": pe})
	}
	return map[string]any{"documentChanges": changes}, nil
}

// parentKeys finds, in the other open recipes, the sub_recipes values keys that name this parameter.
func (s *Server) parentKeys(self protocol.DocumentURI, path, name string) map[protocol.DocumentURI][]protocol.Range {
	s.mu.Lock()
	var others []protocol.DocumentURI
	for u, d := range s.docs {
		if u != self && d.recipe {
			others = append(others, u)
		}
	}
	s.mu.Unlock()
	out := map[protocol.DocumentURI][]protocol.Range{}
	for _, u := range others {
		f, utf8, ok := s.snapshot(u)
		if !ok {
			continue
		}
		for _, r := range f.ValueKeysFor(path, name) {
			out[u] = append(out[u], toRange(f.Lines, r, utf8))
		}
	}
	return out
}

func (s *Server) version(u protocol.DocumentURI) int32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.docs[u]; ok {
		return d.version
	}
	return 0
}

func validName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}
