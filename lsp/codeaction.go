// textDocument/codeAction: quick fixes that carry their edit, for the diagnostics in the range.

package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"
)

func init() { requests["textDocument/codeAction"] = codeAction }

func codeAction(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	f, utf8, ok := s.snapshot(p.TextDocument.URI)
	if !ok {
		return []any{}, nil
	}
	if len(p.Context.Only) > 0 {
		wanted := false
		for _, k := range p.Context.Only {
			if strings.HasPrefix(string(protocol.QuickFix), string(k)) {
				wanted = true
			}
		}
		if !wanted {
			return []any{}, nil
		}
	}
	start, end := toOffset(f.Lines, p.Range.Start, utf8), toOffset(f.Lines, p.Range.End, utf8)
	s.mu.Lock()
	version := int32(0)
	if d, ok := s.docs[p.TextDocument.URI]; ok {
		version = d.version
	}
	s.mu.Unlock()
	actions := []any{}
	converted := convertDiagnostics(f, p.TextDocument.URI, utf8)
	for i, d := range f.Diags {
		if d.R.End < start || d.R.Start > end {
			continue
		}
		for _, fix := range f.Fixes(d) {
			edits := make([]protocol.TextEdit, 0, len(fix.Edits))
			for _, e := range fix.Edits {
				edits = append(edits, protocol.TextEdit{Range: toRange(f.Lines, e.R, utf8), NewText: e.New})
			}
			actions = append(actions, map[string]any{
				"title":       fix.Title,
				"kind":        protocol.QuickFix,
				"diagnostics": []protocol.Diagnostic{converted[i]},
				"isPreferred": fix.Preferred,
				"edit": map[string]any{"documentChanges": []any{map[string]any{
					"textDocument": map[string]any{"uri": p.TextDocument.URI, "version": version},
					"edits":        edits,
				}}},
			})
		}
	}
	return actions, nil
}
