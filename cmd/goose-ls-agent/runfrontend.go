// The terminal front end of `goose-ls run` on agent/host: approvals and missing parameter values asked
// on the terminal (denied without one), the disk as the workspace, events printed.

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

type terminalFrontend struct {
	stderr   io.Writer
	printer  *eventPrinter
	resumed  string // the session the user asked to resume
	stdinTTY bool
	askMu    sync.Mutex // one question on the terminal at a time
	in       *bufio.Reader
}

func newTerminalFrontend(stdout, stderr io.Writer, jsonOutput bool, resumed string) *terminalFrontend {
	return &terminalFrontend{
		stderr: stderr, printer: &eventPrinter{stdout: stdout, stderr: stderr, json: jsonOutput}, resumed: resumed,
		stdinTTY: cli.IsTerminal(os.Stdin), in: bufio.NewReader(os.Stdin),
	}
}

// Approve asks on the terminal; without one every call needing approval is denied with goose's advice.
func (t *terminalFrontend) Approve(_ context.Context, run *host.Run, req agent.ApprovalRequest) (agent.Decision, error) {
	if !t.stdinTTY {
		return agent.Deny, fmt.Errorf("GOOSE_MODE=%s needs approval for %s but standard input is not a terminal; set GOOSE_MODE=auto to allow tools in headless runs", run.Mode, req.Tool)
	}
	t.askMu.Lock()
	defer t.askMu.Unlock()
	fmt.Fprintf(t.stderr, "\n%s %s\ngoose would like to call the above tool, do you allow? [y]es / [a]lways / [n]o / [c]ancel: ", req.Tool, req.Arguments)
	line, err := t.in.ReadString('\n')
	if err != nil {
		return agent.Cancel, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return agent.Allow, nil
	case "a", "always":
		return agent.AlwaysAllow, nil
	case "c", "cancel":
		return agent.Cancel, nil
	}
	return agent.Deny, nil
}

// Consent is given: the user named the recipe on the command line.
func (t *terminalFrontend) Consent(context.Context, *host.Run, host.ConsentRequest) bool { return true }

// Workspace is the disk under root (through the run's os.Root).
func (t *terminalFrontend) Workspace(_ *host.Run, root string) (tools.Workspace, error) {
	return tools.Disk{Dir: root}, nil
}

// Files: the disk.
func (t *terminalFrontend) Files() recipe.FS { return nil }

// Asker asks for missing values on the terminal (none without one: a missing value is an error).
func (t *terminalFrontend) Asker() render.Asker {
	if !t.stdinTTY {
		return nil
	}
	return func(key, description string) (string, error) {
		t.askMu.Lock()
		defer t.askMu.Unlock()
		fmt.Fprintf(t.stderr, "%s (%s): ", key, description)
		line, err := t.in.ReadString('\n')
		return strings.TrimRight(line, "\r\n"), err
	}
}

// Event prints the loop's events and the session's id.
func (t *terminalFrontend) Event(_ *host.Run, e host.Event) {
	switch {
	case e.Loop != nil:
		t.printer.print(*e.Loop)
	case e.Kind == host.KindSession && t.resumed != "":
		fmt.Fprintf(t.stderr, "session %s (a copy of %s)\n", e.SessionID, t.resumed)
	case e.Kind == host.KindSession:
		fmt.Fprintf(t.stderr, "session %s\n", e.SessionID)
	}
}
