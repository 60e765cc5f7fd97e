// Structure: document symbols (outline), folding ranges and document links.

package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

func init() {
	requests["textDocument/documentSymbol"] = documentSymbol
	requests["textDocument/foldingRange"] = foldingRange
	requests["textDocument/documentLink"] = documentLink
}

type docParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
}

func documentSymbol(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	f, utf8, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !ok || f.Tree == nil {
		return []any{}, nil
	}
	sym := func(name, detail string, kind protocol.SymbolKind, n *yamltree.Node, sel source.Range) protocol.DocumentSymbol {
		return protocol.DocumentSymbol{Name: name, Detail: detail, Kind: kind,
			Range: toRange(f.Lines, n.R, utf8), SelectionRange: toRange(f.Lines, sel, utf8)}
	}
	model := f.Recipe
	if model == nil { // the check stopped (deadline) after parsing: the outline has no children
		model = &recipe.Recipe{}
	}
	var out []protocol.DocumentSymbol
	for _, pr := range f.Tree.Pairs {
		whole := yamltree.Node{R: source.Range{Start: pr.Key.R.Start, End: max(pr.Key.R.End, pr.Value.R.End)}}
		top := sym(pr.Key.Value, "", protocol.SymbolKindField, &whole, pr.Key.R)
		switch pr.Key.Value {
		case "parameters":
			top.Kind = protocol.SymbolKindArray
			for _, prm := range model.Parameters {
				sel := prm.Node.R
				if prm.KeyNode != nil {
					sel = prm.KeyNode.R
				}
				top.Children = append(top.Children, sym(nonEmpty(prm.Key, fmt.Sprintf("[%d]", prm.Index)), prm.InputType+" "+prm.Requirement, protocol.SymbolKindVariable, prm.Node, sel))
			}
		case "extensions":
			top.Kind = protocol.SymbolKindArray
			for _, e := range model.Extensions {
				top.Children = append(top.Children, sym(nonEmpty(e.Name, fmt.Sprintf("[%d]", e.Index)), e.Type, protocol.SymbolKindModule, e.Node, e.Node.R))
			}
		case "sub_recipes":
			top.Kind = protocol.SymbolKindArray
			for _, sr := range model.SubRecipes {
				top.Children = append(top.Children, sym(nonEmpty(sr.Name, fmt.Sprintf("[%d]", sr.Index)), sr.Path, protocol.SymbolKindFunction, sr.Node, sr.Node.R))
			}
		case "retry":
			if checks := pr.Value.Get("checks"); checks != nil && checks.Kind == yamltree.Seq {
				for i, c := range checks.Items {
					cmd := ""
					if n := c.Get("command"); n != nil {
						cmd = n.Value
					}
					top.Children = append(top.Children, sym(fmt.Sprintf("check %d", i+1), cmd, protocol.SymbolKindEvent, c, c.R))
				}
			}
		}
		out = append(out, top)
	}
	return out, nil
}

func nonEmpty(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

func foldingRange(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	f, _, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !ok || f.Tree == nil {
		return []any{}, nil
	}
	var out []protocol.FoldingRange
	add := func(r source.Range) {
		a, b := f.Lines.Line(r.Start), f.Lines.Line(r.End)
		if b > a {
			out = append(out, protocol.FoldingRange{StartLine: uint32(a), EndLine: uint32(b)})
		}
	}
	var walk func(n *yamltree.Node)
	walk = func(n *yamltree.Node) {
		for _, pr := range n.Pairs {
			add(source.Range{Start: pr.Key.R.Start, End: pr.Value.R.End})
			walk(pr.Value)
		}
		for _, it := range n.Items {
			add(it.R)
			walk(it)
		}
	}
	walk(f.Tree)
	return out, nil
}

func documentLink(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	f, utf8, ok, err := s.snapshotFile(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if !ok {
		return []any{}, nil
	}
	out := []protocol.DocumentLink{}
	for _, l := range f.Links() {
		out = append(out, protocol.DocumentLink{Range: toRange(f.Lines, l.R, utf8), Target: protocol.DocumentURI(uri.File(l.Target))})
	}
	return out, nil
}
