// workspace/executeCommand: the recipe commands the server answers itself (parameters, render, library),
// and the agent commands it passes to its Agent (lsp/editoragent).

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
)

// The commands goose-ls answers (capabilities list them).
var commands = append(slices.Clone(AgentCommands), "goose.recipeParameters", "goose.render", "goose.listRecipes", "goose.resolveRecipe")

func init() {
	requests["workspace/executeCommand"] = executeCommand
	notifications["window/workDoneProgress/cancel"] = progressCancel
}

type commandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

func executeCommand(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p commandParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	arg := json.RawMessage("{}")
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	if slices.Contains(AgentCommands, p.Command) {
		if s.agent == nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: p.Command + ": this goose-ls runs no agent"}
		}
		return s.agent.Execute(ctx, p.Command, arg)
	}
	switch p.Command {
	case "goose.recipeParameters":
		var a struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.recipeParameters(a.URI)
	case "goose.render": // render.go
		return renderCommand(ctx, s, arg)
	case "goose.listRecipes": // library.go
		return s.listRecipes(), nil
	case "goose.resolveRecipe": // library.go
		return resolveRecipeCommand(s, arg)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "unknown command: " + p.Command}
}

// recipeParameters lists a recipe's parameters for a client to ask for values.
func (s *Server) recipeParameters(u protocol.DocumentURI) (any, error) {
	text, err := overlayFS{s}.ReadFile(uriPath(u))
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	f := recipe.Check(uriPath(u), text, &recipe.Options{NoSubRecipes: true})
	out := []map[string]any{}
	if f.Recipe == nil {
		return out, nil
	}
	for _, p := range f.Recipe.Parameters {
		item := map[string]any{"key": p.Key, "input_type": p.InputType, "requirement": p.Requirement, "description": p.Description}
		if p.Default != nil {
			item["default"] = p.Default.Value
		}
		if p.Options != nil {
			var opts []string
			for _, o := range p.Options.Items {
				opts = append(opts, o.Value)
			}
			item["options"] = opts
		}
		out = append(out, item)
	}
	return out, nil
}

func progressCancel(_ context.Context, s *Server, raw json.RawMessage) error {
	var p struct {
		Token any `json:"token"`
	}
	if err := decode(raw, &p); err != nil {
		return err
	}
	if s.agent != nil {
		s.agent.CancelProgress(fmt.Sprint(p.Token))
	}
	return nil
}
