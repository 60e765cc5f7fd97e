// goose.render: a recipe rendered with values (given ones, else the parameters' defaults) the way goose
// loads it for a run — the rendered text, the loaded recipe as --render-recipe prints it, and what stopped
// the render as diagnostics on the recipe — for previews in the editors.

package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// renderResult is goose.render's reply.
type renderResult struct {
	URI     protocol.DocumentURI  `json:"uri"`
	Version int32                 `json:"version"` // the document version rendered
	Text    string                `json:"text"`    // the rendered text ("" when the render failed)
	YAML    string                `json:"yaml"`    // the loaded recipe as `goose-ls run --render-recipe` prints it
	Values  map[string]string     `json:"values"`  // the values used (given, defaults, recipe_dir)
	Missing []string              `json:"missing"` // required parameters without a value
	Diags   []protocol.Diagnostic `json:"diagnostics"`
}

func renderCommand(ctx context.Context, s *Server, arg json.RawMessage) (any, error) {
	var a struct {
		URI    protocol.DocumentURI `json:"uri"`
		Values map[string]string    `json:"values"`
	}
	if err := decode(arg, &a); err != nil {
		return nil, err
	}
	snap, err := s.snapshot(ctx, a.URI)
	if err != nil {
		return nil, err
	}
	if snap == nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.render: " + string(a.URI) + " is not an open recipe"}
	}
	f := snap.File
	p := library.RenderPreview(ctx, f, a.Values, recipe.ConfinedFS(s.readRoots(f.Dir())))
	res := renderResult{URI: a.URI, Version: snap.Version, Text: p.Text, YAML: p.YAML, Values: p.Values, Missing: p.Missing, Diags: []protocol.Diagnostic{}}
	if res.Missing == nil {
		res.Missing = []string{}
	}
	res.Diags = convertDiagnostics(&recipe.File{Path: f.Path, Text: f.Text, Lines: f.Lines, Diags: p.Diags}, a.URI, snap.UTF8)
	return res, nil
}
