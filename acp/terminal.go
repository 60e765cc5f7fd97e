// The developer shell tool through the client's terminal: terminal/create → wait_for_exit → output →
// release, killed on cancel or timeout (used when the client advertised `terminal`).

package acp

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// terminalOutputLimit is goose's outputByteLimit.
const terminalOutputLimit = 50_000

// clientAnswerTimeout bounds a request that a cancel does not abandon (a write, a terminal's creation):
// its answer says what the client did.
const clientAnswerTimeout = 30 * time.Second

// terminalClient is the part of the connection the shell delegates to.
type terminalClient interface {
	CreateTerminal(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error)
	WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error)
	TerminalOutput(ctx context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error)
	KillTerminal(ctx context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error)
	ReleaseTerminal(ctx context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error)
}

// terminalShell runs commands in the client's terminals; started tells the prompt which terminal a
// command got (its tool call shows it).
type terminalShell struct {
	client    terminalClient
	sessionID string
	started   func(command, terminalID string)
}

// run is a tools.Developer Shell: the command through `sh -c` in dir with goose's variables added.
func (t *terminalShell) run(ctx context.Context, dir, command string, timeout time.Duration, env []string) tools.Result {
	if strings.TrimSpace(command) == "" {
		return tools.Result{Text: "Command cannot be empty.", IsError: true}
	}
	if timeout <= 0 {
		timeout = tools.DefaultShellTimeout
	}
	sid := sdk.SessionId(t.sessionID)
	if ctx.Err() != nil {
		return tools.Result{Text: "Command cancelled.", IsError: true}
	}
	// the create request is not abandoned on a cancel: the client may have started the command already,
	// and only its answer names the terminal to kill (bounded like the clean-up below)
	createCtx, cancelCreate := context.WithTimeout(context.WithoutCancel(ctx), clientAnswerTimeout)
	created, err := t.client.CreateTerminal(createCtx, sdk.CreateTerminalRequest{SessionId: sid, Command: "sh", Args: []string{"-c", command},
		Cwd: sdk.Ptr(dir), Env: gooseShellEnv(env), OutputByteLimit: sdk.Ptr(terminalOutputLimit)})
	cancelCreate()
	if err != nil {
		return tools.Result{Text: fmt.Sprintf("Failed to start the command in the client's terminal: %v", err), IsError: true}
	}
	id := created.TerminalId
	if t.started != nil {
		t.started(command, id)
	}
	// the terminal is killed and released even when the prompt was cancelled: a fresh context, bounded
	cleanup := func(kill bool) {
		bg, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if kill {
			if _, err := t.client.KillTerminal(bg, sdk.KillTerminalRequest{SessionId: sid, TerminalId: id}); err != nil {
				slog.Debug("acp: terminal/kill", "terminal", id, "err", err)
			}
		}
		if _, err := t.client.ReleaseTerminal(bg, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: id}); err != nil {
			slog.Debug("acp: terminal/release", "terminal", id, "err", err)
		}
	}
	waitCtx, cancelWait := context.WithTimeout(ctx, timeout)
	exit, waitErr := t.client.WaitForTerminalExit(waitCtx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id})
	cancelWait()
	cancelled, timedOut := ctx.Err() != nil, waitErr != nil && ctx.Err() == nil && waitCtx.Err() != nil
	if cancelled {
		cleanup(true)
		return tools.Result{Text: "Command cancelled.", IsError: true}
	}
	outCtx, cancelOut := context.WithTimeout(ctx, 10*time.Second)
	out, outErr := t.client.TerminalOutput(outCtx, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: id})
	cancelOut()
	cleanup(timedOut || waitErr != nil)
	if outErr != nil {
		return tools.Result{Text: fmt.Sprintf("Failed to read the terminal's output: %v", outErr), IsError: true}
	}
	res := tools.Result{Text: out.Output}
	if out.Truncated {
		res.Text = "[Output truncated by the client to its last bytes]\n" + res.Text
	}
	if res.Text == "" {
		res.Text = "(no output)"
	}
	switch {
	case timedOut:
		res.IsError = true
		res.Text += fmt.Sprintf("\n\nCommand timed out after %d seconds", int(timeout.Seconds()))
	case waitErr != nil:
		res.IsError = true
		res.Text += "\n\nThe client's terminal failed: " + waitErr.Error()
	case exit.ExitCode != nil && *exit.ExitCode != 0:
		res.IsError = true
		res.Text += fmt.Sprintf("\n\nCommand exited with code %d", *exit.ExitCode)
	case exit.Signal != nil && *exit.Signal != "":
		res.IsError = true
		res.Text += "\n\nCommand killed by signal " + *exit.Signal
	}
	return res
}

// gooseShellEnv is what the tool adds to the environment (GOOSE_TERMINAL, AGENT): the client's terminal
// has the editor's own environment, which is not sent back to it.
func gooseShellEnv(env []string) []sdk.EnvVariable {
	out := []sdk.EnvVariable{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "GOOSE_TERMINAL" || k == "AGENT" {
			out = append(out, sdk.EnvVariable{Name: k, Value: v})
		}
	}
	return out
}
