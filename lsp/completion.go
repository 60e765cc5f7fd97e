// textDocument/completion: the engine's candidates as LSP completion items.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func init() { requests["textDocument/completion"] = completion }

var itemKinds = map[recipe.ItemKind]protocol.CompletionItemKind{
	recipe.ItemVariable: protocol.CompletionItemKindVariable,
	recipe.ItemFunction: protocol.CompletionItemKindFunction,
	recipe.ItemField:    protocol.CompletionItemKindField,
	recipe.ItemValue:    protocol.CompletionItemKindEnumMember,
	recipe.ItemSnippet:  protocol.CompletionItemKindSnippet,
}

func completion(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	snap, off, err := positionParams(ctx, s, raw)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
	items := f.Complete(off, overlayFS{s})
	if _, replace, ok := f.SubRecipePathAt(off); ok { // and the recipes of goose's folders (library.go)
		items = append(items, library.SubRecipeItems(s.recipeResolver().List(), f.Path, replace)...)
	}
	out := make([]protocol.CompletionItem, 0, len(items))
	for i, it := range items {
		ci := protocol.CompletionItem{
			Label:            it.Label,
			Kind:             itemKinds[it.Kind],
			Detail:           it.Detail,
			InsertTextFormat: protocol.InsertTextFormatPlainText,
			SortText:         sortKey(i),
		}
		if it.Doc != "" {
			ci.Documentation = protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Doc}
		}
		insert := it.Insert
		if insert == "" {
			insert = it.Label
		}
		if it.Snippet {
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		ci.TextEdit = &protocol.TextEdit{Range: toRange(f.Lines, it.Replace, utf8), NewText: insert}
		out = append(out, ci)
	}
	return protocol.CompletionList{IsIncomplete: false, Items: out}, nil
}

// sortKey keeps the engine's order in clients that sort by sortText.
func sortKey(i int) string {
	const digits = "0123456789"
	b := []byte{'0', '0', '0', '0'}
	for k := 3; k >= 0 && i > 0; k-- {
		b[k] = digits[i%10]
		i /= 10
	}
	return string(b)
}
