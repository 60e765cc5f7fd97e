// Frontend: what a front end (the CLI, the language server, ACP) supplies to a run — its UI only.

package host

import (
	"context"
	"time"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// Frontend is a run's user interface. The host calls it from the run's goroutines; every method must be
// safe for concurrent use.
type Frontend interface {
	// Approve decides a tool call that needs approval (GOOSE_MODE approve / smart_approve); the request
	// is redacted. An error or no answer should be a denial.
	Approve(ctx context.Context, run *Run, req agent.ApprovalRequest) (agent.Decision, error)
	// Consent asks, before a recipe's commands first run, whether to run them; false declines the run.
	// The host remembers a yes for the same recipe and commands.
	Consent(ctx context.Context, run *Run, c ConsentRequest) bool
	// Workspace is where the run's tools read and write, rooted at root (an absolute folder).
	Workspace(run *Run, root string) (tools.Workspace, error)
	// Files reads every file of a run: the recipe, its sub-recipes, template parents (an editor's
	// overlay of unsaved buffers; a recipe.Buffers is read confined to the run's roots). nil: the disk.
	Files() recipe.FS
	// Asker asks for parameter values the request does not give (nil: a missing value is an error).
	Asker() render.Asker
	// Event receives every event of the run, in order, redacted.
	Event(run *Run, e Event)
}

// Terminal is an optional Frontend ability: the developer shell tool's commands run in the client (ACP's
// terminal/*) instead of a local process; the result is what the model gets.
type Terminal interface {
	Shell(ctx context.Context, run *Run, dir, command string, timeout time.Duration, env []string) tools.Result
}

// ConsentRequest names what a recipe would execute.
type ConsentRequest struct {
	RecipePath string
	// Commands are the stdio extensions' command lines, retry checks and on_failure, in the recipe's order.
	Commands []string
}

// recipeCommands lists what doc would execute: stdio extensions, retry checks, on_failure.
func recipeCommands(doc *agent.Doc) []string {
	var cmds []string
	for _, e := range doc.Extensions {
		if e.Type == "stdio" {
			cmds = append(cmds, joinCommand(e.Cmd, e.Args))
		}
	}
	if doc.Retry != nil {
		for _, c := range doc.Retry.Checks {
			cmds = append(cmds, c.Command)
		}
		if doc.Retry.OnFailure != "" {
			cmds = append(cmds, doc.Retry.OnFailure)
		}
	}
	return cmds
}
