// Editor runs are stored as goose sessions (SQLite, the same store as `goose-ls run`, opened once by the
// host); goose.listSessions lists them and goose.resume continues one with a new prompt.

package editoragent

import (
	"context"
	"log/slog"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/agent/host"
)

// listSessions answers goose.listSessions: the stored sessions, most recent first.
func (a *Agent) listSessions(ctx context.Context) (any, error) {
	list, err := a.host.Sessions(ctx)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
	}
	out := []map[string]any{}
	for _, se := range list {
		out = append(out, map[string]any{
			"id": se.ID, "name": se.Name, "type": se.Type, "workingDir": se.WorkingDir, "recipePath": se.RecipePath,
			"provider": se.Provider, "model": se.Model, "mode": se.GooseMode, "messages": se.Messages,
			"inputTokens": se.InputTokens, "outputTokens": se.OutputTokens,
			"createdAt": se.CreatedAt.Format(time.RFC3339), "updatedAt": se.UpdatedAt.Format(time.RFC3339),
		})
	}
	return out, nil
}

// resume answers goose.resume: the host continues the session with a new prompt, in its folder and with
// its recipe (read again, through open buffers; or the one stored with it) and parameter values.
func (a *Agent) resume(_ context.Context, id, prompt string) (any, error) {
	if id == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.resume needs a sessionId"}
	}
	slog.Debug("lsp: resuming a session", "session", id)
	return a.startRun(host.Request{ResumeID: id, Prompt: prompt})
}
