// `goose-ls run`: run a recipe (or a prompt) headless — assistant text to stdout as it streams, tool
// activity to stderr, the final output as one line of JSON; sessions in SQLite unless --no-session. The
// run itself is agent/host's; this file is the flags and the exit codes (the terminal UI: runfrontend.go).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// paramFlags collects repeated --params k=v.
type paramFlags map[string]string

func (p paramFlags) String() string { return "" }
func (p paramFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("--params wants KEY=VALUE, got %q", v)
	}
	p[strings.TrimSpace(k)] = val
	return nil
}

type runFlags struct {
	params    paramFlags
	prompt    string
	noSession bool
	output    string
	resume    string
	maxTurns  int
	provider  string
	model     string
	workdir   string
	debug     bool
	recipe    string
	// explain and renderRecipe print the recipe (goose's --explain, --render-recipe) instead of running it
	explain      bool
	renderRecipe bool
}

func parseRunFlags(args []string, stderr io.Writer) (*runFlags, error) {
	f := &runFlags{params: paramFlags{}}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(f.params, "params", "a parameter value KEY=VALUE (repeatable)")
	fs.StringVar(&f.prompt, "prompt", "", "the first user message (replaces the recipe's prompt; required without a recipe)")
	fs.StringVar(&f.prompt, "text", "", "same as --prompt")
	fs.BoolVar(&f.noSession, "no-session", false, "do not store the session")
	fs.StringVar(&f.output, "output", "text", "text or json")
	fs.StringVar(&f.resume, "resume", "", "continue the session with this id")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "stop after this many turns (default: settings.max_turns, GOOSE_MAX_TURNS, 1000)")
	fs.StringVar(&f.provider, "provider", "", "override the provider")
	fs.StringVar(&f.model, "model", "", "override the model")
	fs.StringVar(&f.workdir, "workdir", "", "the workspace folder (default: the current folder)")
	fs.BoolVar(&f.debug, "debug", false, "log extension stderr and provider retries")
	fs.BoolVar(&f.explain, "explain", false, "print the recipe's title, description and parameters and the values it would get; run nothing")
	fs.BoolVar(&f.renderRecipe, "render-recipe", false, "print the recipe rendered with the values, as YAML, as goose loads it; run nothing")
	var positional []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) > 0 {
			positional = append(positional, args[0])
			args = args[1:]
		}
	}
	if len(positional) > 1 {
		return nil, fmt.Errorf("run takes one recipe, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	if len(positional) == 1 {
		f.recipe = positional[0]
	}
	if f.output != "text" && f.output != "json" {
		return nil, fmt.Errorf("--output must be text or json, got %q", f.output)
	}
	if (f.explain || f.renderRecipe) && f.recipe == "" {
		return nil, errors.New("--explain and --render-recipe need a recipe")
	}
	if f.recipe == "" && f.prompt == "" && f.resume == "" {
		return nil, errors.New("Must provide a recipe, --prompt TEXT, or --resume ID")
	}
	return f, nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func runRun(args []string, stdout, stderr io.Writer) int {
	f, err := parseRunFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "goose-ls run:", err)
		}
		return 2
	}
	switch {
	case f.explain:
		return runExplain(f, stdout, stderr)
	case f.renderRecipe:
		return runRenderRecipe(f, stdout, stderr)
	case f.recipe != "" && !library.IsPath(f.recipe): // a bare name: goose's recipe folders
		res, err := newResolver().Resolve(f.recipe)
		if err != nil {
			fmt.Fprintln(stderr, "goose-ls run:", err)
			return 1
		}
		f.recipe = res.Path
	}
	// one redactor for the run: it learns the provider's keys and the extensions' envs as the run starts,
	// and the --debug log, the session store and the run's events all redact with it
	redactor := &agent.Redactor{}
	slog.SetDefault(slog.New(newLogHandler(stderr, logLevel(f.debug), redactor)))
	h := host.New(host.Options{Redactor: redactor, Warn: func(msg string) { fmt.Fprintln(stderr, "goose-ls run:", msg) }})
	defer h.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cwd, _ := os.Getwd()
	root := ""
	if f.workdir != "" {
		root, _ = filepath.Abs(f.workdir)
	}
	fe := newTerminalFrontend(stdout, stderr, f.output == "json", f.resume)
	run, err := h.Start(ctx, host.Request{
		RecipePath: f.recipe, Prompt: f.prompt, Params: f.params, Root: root, DefaultRoot: cwd, ResumeID: f.resume,
		Provider: f.provider, Model: f.model, MaxTurns: f.maxTurns, NoSession: f.noSession,
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
