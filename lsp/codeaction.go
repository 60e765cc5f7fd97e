// textDocument/codeAction: quick fixes that carry their edit, for the diagnostics in the range.

package lsp

import (
	"context"
	"encoding/json"
	"path"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

func init() { requests["textDocument/codeAction"] = codeAction }

func codeAction(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	snap, err := s.snapshot(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if snap == nil {
		return []any{}, nil
	}
	f, utf8 := snap.File, snap.UTF8
	wants := func(kind protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, k := range p.Context.Only {
			if strings.HasPrefix(string(kind), string(k)) {
				return true
			}
		}
		return false
	}
	start, end := toOffset(f.Lines, p.Range.Start, utf8), toOffset(f.Lines, p.Range.End, utf8)
	version := snap.Version // the edits are computed on this version
	s.mu.Lock()
	resourceOps := s.renameFiles
	s.mu.Unlock()
	actions := []any{}
	edit := func(edits []recipe.Edit) map[string]any {
		out := make([]protocol.TextEdit, 0, len(edits))
		for _, e := range edits {
			out = append(out, protocol.TextEdit{Range: toRange(f.Lines, e.R, utf8), NewText: e.New})
		}
		return map[string]any{"documentChanges": []any{map[string]any{
			"textDocument": map[string]any{"uri": p.TextDocument.URI, "version": version},
			"edits":        out,
		}}}
	}
	if wants(protocol.RefactorExtract) && end > start {
		if fix, ok := f.ExtractParameter(recipe.Range{Start: start, End: end}); ok {
			actions = append(actions, map[string]any{"title": fix.Title, "kind": protocol.RefactorExtract, "edit": edit(fix.Edits)})
		}
	}
	converted := snap.run.converted // converted once per check, index for index with f.Diags
	for i, d := range f.Diags {
		if d.R.End < start || d.R.Start > end || !wants(protocol.QuickFix) {
			continue
		}
		if d.Code == recipe.CodeFileExtension && resourceOps {
			newURI := strings.TrimSuffix(string(p.TextDocument.URI), ".yml") + ".yaml"
			actions = append(actions, map[string]any{
				"title": "Rename to " + path.Base(newURI), "kind": protocol.QuickFix, "isPreferred": true,
				"diagnostics": []protocol.Diagnostic{converted[i]},
				"edit": map[string]any{"documentChanges": []any{map[string]any{
					"kind": "rename", "oldUri": p.TextDocument.URI, "newUri": newURI,
				}}},
			})
			continue
		}
		for _, fix := range f.Fixes(d) {
			actions = append(actions, map[string]any{
				"title":       fix.Title,
				"kind":        protocol.QuickFix,
				"diagnostics": []protocol.Diagnostic{converted[i]},
				"isPreferred": fix.Preferred,
				"edit":        edit(fix.Edits),
			})
		}
	}
	return actions, nil
}
