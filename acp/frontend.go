// The ACP front end of agent/host: one prompt's UI — approvals and consent as session/request_permission,
// the session's workspace (the client's fs/* when advertised), recipe files through the client, the shell
// through terminal/*, and the run's events as session/update.

package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// promptFrontend is one prompt's host.Frontend.
type promptFrontend struct {
	ctx      context.Context // the prompt's: client reads made for the run end with it
	conn     *sdk.AgentSideConnection
	session  *acpSession
	approver *approver
	ws       *sessionWorkspace
	updates  *promptUpdates
	ask      render.Asker
}

// consentSeq numbers the consent questions' pseudo tool calls.
var consentSeq atomic.Int64

func (f *promptFrontend) Approve(ctx context.Context, _ *host.Run, req agent.ApprovalRequest) (agent.Decision, error) {
	return f.approver.Approve(ctx, req)
}

// Consent asks, as a permission request on a pending "execute" tool call, whether the recipe's commands
// (stdio extensions, retry checks) may run; anything but "allow" declines the run.
func (f *promptFrontend) Consent(ctx context.Context, _ *host.Run, c host.ConsentRequest) bool {
	id := sdk.ToolCallId(fmt.Sprintf("consent-%d", consentSeq.Add(1)))
	title := fmt.Sprintf("Run the commands of recipe %s: %s", filepath.Base(c.RecipePath), strings.Join(c.Commands, "; "))
	f.updates.send(sdk.StartToolCall(id, title, sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusPending),
		sdk.WithStartRawInput(map[string]any{"recipe": c.RecipePath, "commands": c.Commands})))
	resp, err := f.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(f.session.id),
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: id, Title: sdk.Ptr(title), Kind: sdk.Ptr(sdk.ToolKindExecute), Status: sdk.Ptr(sdk.ToolCallStatusPending)},
		Options: []sdk.PermissionOption{
			{OptionId: "allow_once", Name: "Run the recipe", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "reject_once", Name: "Do not run it", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
	ok := err == nil && resp.Outcome.Selected != nil && resp.Outcome.Selected.OptionId == "allow_once"
	status := sdk.ToolCallStatusCompleted
	if !ok {
		status = sdk.ToolCallStatusFailed
	}
	f.updates.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(status)))
	return ok
}

func (f *promptFrontend) Workspace(_ *host.Run, _ string) (tools.Workspace, error) { return f.ws, nil }

func (f *promptFrontend) Files() recipe.FS { return clientFiles{ctx: f.ctx, ws: f.ws} }

func (f *promptFrontend) Asker() render.Asker { return f.ask }

// Event maps the loop's own events to session/update (the host's start, session, edit and done events
// have no ACP update: diffs travel with the tool call, the end with the prompt's reply).
func (f *promptFrontend) Event(_ *host.Run, e host.Event) {
	if e.Loop != nil {
		f.updates.event(*e.Loop)
	}
}

// terminalFrontend adds the client's terminal/* as the shell (host.Terminal).
type terminalFrontend struct {
	*promptFrontend
	shell *terminalShell
}

func (f *terminalFrontend) Shell(ctx context.Context, _ *host.Run, dir, command string, timeout time.Duration, env []string) tools.Result {
	return f.shell.run(ctx, dir, command, timeout, env)
}

// clientFiles reads a run's recipe files — the recipe, sub-recipes, template parents — through the
// client (its unsaved text) when they lie in the session's folder and the client reads files, else from
// the disk; as recipe.Buffers, files a recipe names are still read only inside the run's folders.
type clientFiles struct {
	ctx context.Context
	ws  *sessionWorkspace
}

// Buffer is the client's text of a file in the session's folder.
func (c clientFiles) Buffer(path string) ([]byte, bool) {
	rel, err := filepath.Rel(c.ws.root, path)
	if err != nil || !c.ws.canRead || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	resp, err := c.ws.client.ReadTextFile(c.ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(c.ws.sessionID), Path: path})
	if err != nil || len(resp.Content) > recipe.DefaultMaxSize {
		return nil, false
	}
	return []byte(resp.Content), true
}

// ReadFile reads the run's own recipe (which may lie in goose's recipe folders, outside the session's).
func (c clientFiles) ReadFile(path string) ([]byte, error) {
	if text, ok := c.Buffer(path); ok {
		return text, nil
	}
	return recipe.ReadRegularFile(path, recipe.DefaultMaxSize)
}
