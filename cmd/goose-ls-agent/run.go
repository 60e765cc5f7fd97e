// `goose-ls run`: run a recipe (or a prompt) headless — assistant text to stdout as it streams, tool
// activity to stderr, the final output as one line of JSON; sessions in SQLite unless --no-session. The
// run itself is agent/host's; this file is the flags and the exit codes (the terminal UI: runfrontend.go).

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe/render"
)

func runRun(args []string, stdout, stderr io.Writer) int {
	f, code, done := cli.PrepareRun(args, stdout, stderr)
	if done {
		return code
	}
	// one redactor for the run: it learns the provider's keys and the extensions' envs as the run starts,
	// and the --debug log, the session store and the run's events all redact with it
	redactor := &agent.Redactor{}
	slog.SetDefault(slog.New(newLogHandler(stderr, logLevel(f.Debug), redactor)))
	h := host.New(host.Options{Redactor: redactor, Warn: func(msg string) { fmt.Fprintln(stderr, "goose-ls run:", msg) }})
	defer h.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cwd, _ := os.Getwd()
	root := ""
	if f.Workdir != "" {
		root, _ = filepath.Abs(f.Workdir)
	}
	fe := newTerminalFrontend(stdout, stderr, f.Output == "json", f.Resume)
	run, err := h.Start(ctx, host.Request{
		RecipePath: f.Recipe, Prompt: f.Prompt, Params: f.Params, Root: root, DefaultRoot: cwd, ResumeID: f.Resume,
		Provider: f.Provider, Model: f.Model, MaxTurns: f.MaxTurns, NoSession: f.NoSession,
	}, fe)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls run:", err)
		var settingsErr *host.SettingsError
		var resumeErr *host.ResumeError
		var missing *render.MissingError
		switch {
		case errors.As(err, &settingsErr):
			if settingsErr.Loaded { // the configuration loaded; GOOSE_MODE is wrong
				return 2
			}
			return 1
		case errors.As(err, &resumeErr), errors.As(err, &missing):
			return 2
		}
		return 1
	}
	out, err := run.Wait()
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls run:", err) // the host redacted it
		var missing *render.MissingError
		if errors.As(err, &missing) || errors.Is(err, agent.ErrNoPrompt) {
			return 2
		}
		return 1
	}
	fe.printer.finish(out)
	if out.Status == agent.StatusCompleted {
		return 0
	}
	return 1
}
