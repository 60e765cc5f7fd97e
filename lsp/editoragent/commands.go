// Package editoragent runs goose's agent for the language server: workspace/executeCommand starts a run
// on agent/host and replies at once with its runId (the run's UI is frontend.go), cancels runs, undoes a
// turn, lists and resumes sessions. It reaches the editor only through lsp.Editor.
package editoragent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// Options configure the agent of a server.
type Options struct {
	// Providers replaces the configured LLM providers of agent runs (tests and benchmarks).
	Providers agent.ProviderFactory
}

// New returns the lsp.Options.Agent factory.
func New(opts Options) func(lsp.Editor) lsp.Agent {
	return func(ed lsp.Editor) lsp.Agent {
		a := &Agent{ed: ed}
		a.host = host.New(host.Options{Providers: opts.Providers, Warn: func(msg string) { ed.LogMessage(2, "goose: "+msg) }})
		return a
	}
}

// Agent is one server's agent: the host's runs, with the editor as their front end.
type Agent struct {
	ed lsp.Editor
	// host runs the editor's agent runs: settings, the session store (opened once), redaction, the run table
	host *host.Host
}

// Close closes the host (its session store).
func (a *Agent) Close() error { return a.host.Close() }

// CancelProgress cancels the run reporting progress under token.
func (a *Agent) CancelProgress(token string) {
	for _, r := range a.host.Runs() {
		if progressToken(r) == token {
			r.Cancel()
		}
	}
}

// decode reads a command's argument object.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}

// Execute answers one of lsp.AgentCommands.
func (a *Agent) Execute(ctx context.Context, command string, arg json.RawMessage) (any, error) {
	switch command {
	case "goose.runRecipe":
		var p struct {
			URI    protocol.DocumentURI `json:"uri"`
			Params map[string]string    `json:"params"`
		}
		if err := decode(arg, &p); err != nil {
			return nil, err
		}
		return a.startRun(host.Request{RecipePath: lsp.URIPath(p.URI), Params: p.Params})
	case "goose.ask":
		var p struct {
			Prompt string               `json:"prompt"`
			URI    protocol.DocumentURI `json:"uri"`
			Range  *protocol.Range      `json:"range"`
		}
		if err := decode(arg, &p); err != nil {
			return nil, err
		}
		if strings.TrimSpace(p.Prompt) == "" {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.ask needs a prompt"}
		}
		return a.startRun(host.Request{Prompt: a.askPrompt(p.Prompt, p.URI, p.Range)})
	case "goose.cancel":
		var p struct {
			RunID string `json:"runId"`
		}
		if err := decode(arg, &p); err != nil {
			return nil, err
		}
		r := a.host.Run(p.RunID)
		if r == nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run " + p.RunID}
		}
		r.Cancel()
		return map[string]any{"cancelled": true}, nil
	case "goose.undoTurn":
		var p struct {
			RunID string `json:"runId"`
			Turn  int    `json:"turn"`
		}
		if err := decode(arg, &p); err != nil {
			return nil, err
		}
		return a.undoTurn(ctx, p.RunID, p.Turn)
	case "goose.listSessions":
		return a.listSessions(ctx)
	case "goose.resume":
		var p struct {
			SessionID string `json:"sessionId"`
			Prompt    string `json:"prompt"`
		}
		if err := decode(arg, &p); err != nil {
			return nil, err
		}
		return a.resume(ctx, p.SessionID, p.Prompt)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "unknown command: " + command}
}

func rawJSON(v any) *json.RawMessage {
	b, _ := json.Marshal(v)
	m := json.RawMessage(b)
	return &m
}

// askPrompt adds the file and selection as context.
func (a *Agent) askPrompt(prompt string, u protocol.DocumentURI, rng *protocol.Range) string {
	if u == "" {
		return prompt
	}
	var b strings.Builder
	b.WriteString(prompt)
	fmt.Fprintf(&b, "\n\nThe user is looking at %s.", lsp.URIPath(u))
	utf8 := a.ed.Caps().UTF8
	if d := a.ed.Doc(u); d != nil && rng != nil {
		start, end := lsp.Offset(d.Lines, rng.Start, utf8), lsp.Offset(d.Lines, rng.End, utf8)
		if start <= end && end <= len(d.Text) {
			fmt.Fprintf(&b, " Selected (lines %d-%d):\n```\n%s\n```", rng.Start.Line+1, rng.End.Line+1, d.Text[start:end])
		}
	}
	return b.String()
}

// startRun starts a run on the host; the reply carries its id (and a resumed run's session).
func (a *Agent) startRun(req host.Request) (any, error) {
	req.DefaultRoot, req.NoSession = a.ed.Root(), a.ed.Settings().NoSessions
	r, err := a.host.Start(context.Background(), req, &editorFrontend{a: a})
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
