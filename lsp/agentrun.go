// Agent commands from the editor: workspace/executeCommand starts a run on agent/host and replies at
// once with its runId (the run's UI is agentfrontend.go), cancels runs, lists a recipe's parameters.

package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// The commands goose-ls answers.
var agentCommands = []string{"goose.runRecipe", "goose.ask", "goose.cancel", "goose.recipeParameters", "goose.undoTurn", "goose.listSessions", "goose.resume", "goose.render", "goose.listRecipes", "goose.resolveRecipe"}

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
	switch p.Command {
	case "goose.runRecipe":
		var a struct {
			URI    protocol.DocumentURI `json:"uri"`
			Params map[string]string    `json:"params"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.startRun(host.Request{RecipePath: uriPath(a.URI), Params: a.Params})
	case "goose.ask":
		var a struct {
			Prompt string               `json:"prompt"`
			URI    protocol.DocumentURI `json:"uri"`
			Range  *protocol.Range      `json:"range"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		if strings.TrimSpace(a.Prompt) == "" {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.ask needs a prompt"}
		}
		return s.startRun(host.Request{Prompt: s.askPrompt(a.Prompt, a.URI, a.Range)})
	case "goose.cancel":
		var a struct {
			RunID string `json:"runId"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		r := s.host.Run(a.RunID)
		if r == nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run " + a.RunID}
		}
		r.Cancel()
		return map[string]any{"cancelled": true}, nil
	case "goose.recipeParameters":
		var a struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.recipeParameters(a.URI)
	case "goose.undoTurn":
		var a struct {
			RunID string `json:"runId"`
			Turn  int    `json:"turn"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.undoTurn(ctx, a.RunID, a.Turn)
	case "goose.listSessions":
		return s.listSessions(ctx)
	case "goose.render": // render.go
		return renderCommand(ctx, s, arg)
	case "goose.listRecipes": // library.go
		return s.listRecipes(), nil
	case "goose.resolveRecipe": // library.go
		return resolveRecipeCommand(s, arg)
	case "goose.resume":
		var a struct {
			SessionID string `json:"sessionId"`
			Prompt    string `json:"prompt"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.resume(ctx, a.SessionID, a.Prompt)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "unknown command: " + p.Command}
}

func rawJSON(v any) *json.RawMessage {
	b, _ := json.Marshal(v)
	m := json.RawMessage(b)
	return &m
}

// askPrompt adds the file and selection as context.
func (s *Server) askPrompt(prompt string, u protocol.DocumentURI, rng *protocol.Range) string {
	if u == "" {
		return prompt
	}
	var b strings.Builder
	b.WriteString(prompt)
	fmt.Fprintf(&b, "\n\nThe user is looking at %s.", uriPath(u))
	s.mu.Lock()
	d := s.docs[u]
	if d != nil && rng != nil {
		start, end := toOffset(d.lines, rng.Start, s.utf8), toOffset(d.lines, rng.End, s.utf8)
		if start <= end && end <= len(d.text) {
			fmt.Fprintf(&b, " Selected (lines %d-%d):\n```\n%s\n```", rng.Start.Line+1, rng.End.Line+1, d.text[start:end])
		}
	}
	s.mu.Unlock()
	return b.String()
}

// startRun starts a run on the host; the reply carries its id (and a resumed run's session).
func (s *Server) startRun(req host.Request) (any, error) {
	s.mu.Lock()
	req.DefaultRoot, req.NoSession = s.root, s.settings.NoSessions
	s.mu.Unlock()
	r, err := s.host.Start(context.Background(), req, &editorFrontend{s: s})
	if err != nil {
		return nil, startError(err)
	}
	reply := map[string]any{"runId": r.ID}
	if r.ResumedID != "" {
		reply["sessionId"] = r.ResumedID
	}
	return reply, nil
}

// startError is the JSON-RPC error of a run that could not start.
func startError(err error) error {
	var missing *render.MissingError
	var resume *host.ResumeError
	var store *host.StoreError
	switch {
	case errors.As(err, &missing):
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error(), Data: rawJSON(map[string]any{"missing": missing.Keys})}
	case errors.As(err, &resume) && !errors.Is(err, session.ErrNotFound):
		return &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "sessions: " + err.Error()}
	case errors.As(err, &store):
		return &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
	}
	return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
}

// target names what a tool call works on: its path, command or url.
func target(args json.RawMessage) string {
	var a map[string]any
	_ = json.Unmarshal(args, &a)
	for _, k := range []string{"path", "command", "url", "query"} {
		if v, ok := a[k].(string); ok {
			return firstLine(v)
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
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
	tok := fmt.Sprint(p.Token)
	for _, r := range s.host.Runs() {
		if progressToken(r) == tok {
			r.Cancel()
		}
	}
	return nil
}
