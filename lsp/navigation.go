// Navigation: definition, references, document highlight, prepareRename and rename of parameters,
// definition of sub-recipe paths and extends/include names.

package lsp

import (
	"context"
	"encoding/json"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	requests["textDocument/definition"] = definition
	requests["textDocument/references"] = references
	requests["textDocument/documentHighlight"] = highlight
	requests["textDocument/prepareRename"] = prepareRename
	requests["textDocument/rename"] = rename
}

// positionParams decodes a text-document position request and resolves it (snap is nil when the
// document is not an open recipe).
func positionParams(ctx context.Context, s *Server, raw json.RawMessage) (*snapshot, int, error) {
	var p protocol.TextDocumentPositionParams
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	return s.at(ctx, p)
}

// at resolves an already decoded position to the document's current check and a byte offset.
func (s *Server) at(ctx context.Context, p protocol.TextDocumentPositionParams) (*snapshot, int, error) {
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil || snap == nil {
		return nil, 0, err
	}
	return snap, toOffset(snap.File.Lines, p.Position, snap.UTF8), nil
}

func definition(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	snap, off, err := positionParams(ctx, s, raw)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8, u := snap.File, snap.UTF8, snap.URI
	if ref := f.ParamRefAt(off); ref != nil && ref.Param != nil {
		return []protocol.Location{{URI: u, Range: toRange(f.Lines, ref.Decl, utf8)}}, nil
	}
	if target, _, ok := f.LinkAt(off); ok {
		return []protocol.Location{{URI: protocol.DocumentURI(uri.File(target))}}, nil
	}
	return nil, nil
}

func references(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	u := p.TextDocument.URI
	snap, off, err := s.at(ctx, p.TextDocumentPositionParams)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
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
	for _, pk := range s.parentKeys(u, f.Path, ref.Name) {
		for _, r := range pk.ranges {
			out = append(out, protocol.Location{URI: pk.uri, Range: r})
		}
	}
	return out, nil
}

func highlight(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	snap, off, err := positionParams(ctx, s, raw)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
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

func prepareRename(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	snap, off, err := positionParams(ctx, s, raw)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
	ref := f.ParamRefAt(off)
	if ref == nil || ref.Param == nil {
		return nil, nil
	}
	return map[string]any{"range": toRange(f.Lines, ref.At, utf8), "placeholder": ref.Name}, nil
}

func rename(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.RenameParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	u := p.TextDocument.URI
	snap, off, err := s.at(ctx, p.TextDocumentPositionParams)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
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
		"textDocument": map[string]any{"uri": u, "version": snap.Version},
		"edits":        edits,
	}}
	for _, pk := range s.parentKeys(u, f.Path, ref.Name) {
		pe := make([]protocol.TextEdit, 0, len(pk.ranges))
		for _, r := range pk.ranges {
			pe = append(pe, protocol.TextEdit{Range: r, NewText: p.NewName})
		}
		changes = append(changes, map[string]any{"textDocument": map[string]any{"uri": pk.uri, "version": pk.version}, "edits": pe})
	}
	return map[string]any{"documentChanges": changes}, nil
}

// parentKey lists, in one other open recipe, the sub_recipes values keys that name a parameter, at the
// version they were found in.
type parentKey struct {
	uri     protocol.DocumentURI
	version int32
	ranges  []protocol.Range
}

// parentKeys finds the keys in the other open recipes, from their last finished checks: a request on
// one document never waits for another document's check.
func (s *Server) parentKeys(self protocol.DocumentURI, path, name string) []parentKey {
	s.mu.Lock()
	var others []protocol.DocumentURI
	for u, d := range s.docs {
		if u != self && d.recipe {
			others = append(others, u)
		}
	}
	s.mu.Unlock()
	sort.Slice(others, func(i, j int) bool { return others[i] < others[j] })
	var out []parentKey
	for _, u := range others {
		snap := s.lastSnapshot(u)
		if snap == nil {
			continue
		}
		pk := parentKey{uri: u, version: snap.Version}
		for _, r := range snap.File.ValueKeysFor(path, name) {
			pk.ranges = append(pk.ranges, toRange(snap.File.Lines, r, snap.UTF8))
		}
		if len(pk.ranges) > 0 {
			out = append(out, pk)
		}
	}
	return out
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
