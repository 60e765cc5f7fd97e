// textDocument/codeLens: "▶ Run recipe" above a recipe, only for a client that said which command runs
// it (the runRecipeCommand setting), since a lens is useless in an editor that cannot execute it.

package lsp

import (
	"context"
	"encoding/json"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func init() {
	requests["textDocument/codeLens"] = codeLens
}

func codeLens(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	command := s.settings.RunRecipeCommand
	s.mu.Unlock()
	out := []any{}
	if command == "" {
		return out, nil
	}
	f, utf8, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !ok || f.Tree == nil {
		return out, nil
	}
	at := source.Range{}
	for _, key := range []string{"title", "prompt", "instructions"} {
		if pair := f.Tree.Pair(key); pair != nil {
			at = pair.Key.R
			break
		}
	}
	r := toRange(f.Lines, at, utf8)
	out = append(out, map[string]any{
		"range":   map[string]any{"start": r.Start, "end": r.Start},
		"command": map[string]any{"title": "▶ Run recipe", "command": command, "arguments": []any{map[string]any{"uri": p.TextDocument.URI}}},
	})
	return out, nil
}
