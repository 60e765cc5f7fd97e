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
	notifications["workspace/didChangeConfiguration"] = didChangeConfiguration
}

// settings are the client-configurable options.
type settings struct {
	InlayHints bool `json:"inlayHints"`
}

func didChangeConfiguration(_ context.Context, s *Server, raw json.RawMessage) error {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := decode(raw, &p); err != nil {
		return err
	}
	// accept {"goose": {...}}, {"goose-ls": {...}} or the settings object itself
	var nested map[string]json.RawMessage
	body := p.Settings
	if json.Unmarshal(p.Settings, &nested) == nil {
		for _, k := range []string{"goose", "goose-ls", "gooseLs"} {
			if v, ok := nested[k]; ok {
				body = v
			}
		}
	}
	var st settings
	if len(body) > 0 && json.Unmarshal(body, &st) == nil {
		s.mu.Lock()
		s.settings = st
		s.mu.Unlock()
	}
	return nil
}

func inlayHints(_ context.Context, s *Server, raw json.RawMessage) (any, error) {
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
	f, utf8, ok := s.snapshot(p.TextDocument.URI)
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
