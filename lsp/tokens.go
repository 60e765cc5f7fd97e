// textDocument/semanticTokens/full: template syntax inside YAML strings (variables, filters, keywords,
// comments, delimiters), encoded relative and split per line.

package lsp

import (
	"context"
	"encoding/json"
)

func init() { requests["textDocument/semanticTokens/full"] = semanticTokens }

// tokenTypes is the legend; the index of each type is its SpanKind.
var tokenTypes = []string{"variable", "function", "keyword", "comment", "macro"}

func semanticTokens(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	f, utf8, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]any{"data": []uint32{}}, nil
	}
	data := []uint32{}
	prevLine, prevChar := 0, 0
	for _, sp := range f.TemplateSpans() {
		// split spans that cross lines (multi-line comments)
		for start := sp.R.Start; start < sp.R.End; {
			line := f.Lines.Line(start)
			end := min(sp.R.End, f.Lines.LineEnd(line))
			if end > start {
				a, b := toPosition(f.Lines, start, utf8), toPosition(f.Lines, end, utf8)
				l, c := int(a.Line), int(a.Character)
				dc := c
				if l == prevLine {
					dc = c - prevChar
				}
				data = append(data, uint32(l-prevLine), uint32(dc), b.Character-a.Character, uint32(sp.Kind), 0)
				prevLine, prevChar = l, c
			}
			if line+1 >= f.Lines.LineCount() {
				break
			}
			start = f.Lines.LineStart(line + 1)
		}
	}
	return map[string]any{"data": data}, nil
}
