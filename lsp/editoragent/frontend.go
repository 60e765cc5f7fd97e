// The editor as an agent/host front end: consent and approvals through window/showMessageRequest
// (agentprompts.go), the editor's buffers as the workspace and the recipe files, and the run's events as
// goose/runEvent notifications, work-done progress and log lines.

package editoragent

import (
	"context"
	"fmt"
	"sync"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// editorFrontend is the UI of one run started from the editor.
type editorFrontend struct {
	a    *Agent
	mu   sync.Mutex
	prog lsp.Progress // the run's work-done progress, from its start event
}

// progressToken is the work-done progress token of a run.
func progressToken(r *host.Run) string { return "goose-" + r.ID }

func (f *editorFrontend) Approve(ctx context.Context, _ *host.Run, req agent.ApprovalRequest) (agent.Decision, error) {
	return f.a.approve(ctx, req)
}

func (f *editorFrontend) Consent(ctx context.Context, _ *host.Run, c host.ConsentRequest) bool {
	return f.a.askConsent(ctx, c)
}

// Workspace is the editor's buffers (disk for files not open); each turn's edits share one change
// annotation.
func (f *editorFrontend) Workspace(r *host.Run, root string) (tools.Workspace, error) {
	return &editorWorkspace{ed: f.a.ed, root: root, annotate: func() annotation { return runAnnotation(r) }}, nil
}

// annotation is an LSP change annotation: edits of one run turn share one.
type annotation struct {
	ID, Label, Description string
}

// runAnnotation groups the run's current turn's edits for the editor's review.
func runAnnotation(r *host.Run) annotation {
	turn := r.Turn()
	return annotation{
		ID:          fmt.Sprintf("goose:%s:turn-%d", r.ID, turn),
		Label:       fmt.Sprintf("goose: %s, turn %d", r.Title, turn),
		Description: fmt.Sprintf("Edits the agent made in turn %d of %s (undo with goose.undoTurn)", turn, r.ID),
	}
}

// Files reads open buffers first (unsaved sub-recipes and includes), the disk otherwise.
func (f *editorFrontend) Files() recipe.FS { return f.a.ed.Files() }

// Asker is nil: the client asks for parameters before it runs a recipe (goose.recipeParameters).
func (f *editorFrontend) Asker() render.Asker { return nil }

// Event sends the run's event as goose/runEvent, and reports progress and log lines for clients that
// ignore custom notifications (the run redacted everything at its source).
func (f *editorFrontend) Event(r *host.Run, e host.Event) {
	ed := f.a.ed
	if e.Kind == host.KindStart {
		e.Title = "goose: " + e.Title
		e.ProgressToken = progressToken(r)
		f.mu.Lock()
		f.prog = ed.BeginProgress(r.Context(), e.ProgressToken, e.Title)
		f.mu.Unlock()
	}
	f.mu.Lock()
	prog := f.prog
	f.mu.Unlock()
	if prog == nil { // events before the run's start report no progress
		prog = noProgress{}
	}
	if le := e.Loop; le != nil {
		switch le.Kind {
		case agent.EventText:
			prog.Report("thinking")
		case agent.EventMessage, agent.EventNotice:
			ed.LogMessage(3, "goose: "+le.Text)
		case agent.EventToolStart:
			prog.Report(le.Call.Name + " " + target(le.Call.Arguments))
		case agent.EventToolEnd:
			mark := "✓"
			if le.Result.IsError {
				mark = "✗"
			}
			ed.LogMessage(4, fmt.Sprintf("goose %s %s %s: %s", mark, le.Call.Name, target(le.Call.Arguments), firstLine(le.Result.Text)))
		}
	} else if e.Kind == host.KindError { // the run could not start
		ed.LogMessage(1, fmt.Sprintf("goose %s failed: %s", r.ID, e.Text))
	}
	if e.Kind == "" {
		return
	}
	ed.Notify(context.Background(), "goose/runEvent", e)
	if e.Kind == host.KindDone && e.Agent == "" {
		prog.End(e.Status)
	}
}

// noProgress reports nothing.
type noProgress struct{}

func (noProgress) Report(string) {}
func (noProgress) End(string)    {}
