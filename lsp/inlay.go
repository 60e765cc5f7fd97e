// textDocument/inlayHint: a parameter's default shown after each of its uses (off unless enabled with
// the `inlayHints` setting, through initializationOptions or didChangeConfiguration).

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

func init() {
	requests["textDocument/inlayHint"] = inlayHints
}

func inlayHints(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	enabled := s.settings.InlayHints
	s.mu.Unlock()
	out := []any{}
	f, utf8, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !enabled || !ok || f.Analysis == nil || f.Recipe == nil {
		return out, nil
	}
	start, end := toOffset(f.Lines, p.Range.Start, utf8), toOffset(f.Lines, p.Range.End, utf8)
	for i := range f.Analysis.Uses {
		u := &f.Analysis.Uses[i]
		prm := f.Recipe.Param(u.Name)
		r := f.UseRange(u)
		if prm == nil || prm.Default == nil || r.End < start || r.Start > end {
			continue
		}
		out = append(out, map[string]any{
			"position":    toPosition(f.Lines, r.End, utf8),
			"label":       "= " + prm.Default.Value,
			"paddingLeft": true,
			"tooltip":     "default of " + prm.Key,
		})
	}
	return out, nil
}
