// `goose-ls run`: run a recipe (or a prompt) headless — assistant text to stdout as it streams, tool
// activity to stderr, the final output as one line of JSON; sessions in SQLite unless --no-session.

package main

import (
	"bufio"
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
	"sync"
	"sync/atomic"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/agent/tools"
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
	st, err := agent.LoadSettings(os.LookupEnv)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls run:", err)
		if st.Config != nil { // the configuration loaded; GOOSE_MODE is wrong
			return 2
		}
		return 1
	}
	if st.PermsErr != nil {
		fmt.Fprintln(stderr, "goose-ls run:", st.PermsErr)
	}
	cfg, mode := st.Config, st.Mode
	workdir := f.workdir
	if workdir == "" {
		workdir, _ = os.Getwd()
	}
	workdir, _ = filepath.Abs(workdir)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var store *session.Store
	var history []provider.Message
	var rec *session.Recorder
	if !f.noSession || f.resume != "" {
		store, err = session.Open(session.DefaultPath(cfg.DataDir), redactor.Redact)
		if err != nil {
			fmt.Fprintln(stderr, "goose-ls run:", err)
			return 1
		}
		defer store.Close()
		if notice := store.Notice(); notice != nil {
			fmt.Fprintln(stderr, "goose-ls run:", notice)
		}
	}
	var resumeDoc *agent.Doc // a resumed session's stored recipe, when it has no recipe file (goose's sessions)
	if f.resume != "" {
		sess, msgs, err := store.Get(ctx, f.resume)
		if err != nil {
			fmt.Fprintln(stderr, "goose-ls run:", err)
			return 2
		}
		history = msgs
		rec = &session.Recorder{Store: store, ID: sess.ID, OnCreate: func(id string) { fmt.Fprintf(stderr, "session %s (a copy of %s)\n", id, sess.ID) }}
		if f.recipe == "" {
			f.recipe = sess.RecipePath
		}
		if f.workdir == "" && sess.WorkingDir != "" {
			workdir = sess.WorkingDir
		}
		if text := sess.ResumeRecipe(); f.recipe == "" && text != nil {
			resumeDoc, _, err = agent.LoadRecipeText(filepath.Join(workdir, sess.ID+".recipe.json"), text, nil, nil)
			if err != nil {
				fmt.Fprintf(stderr, "goose-ls run: the recipe stored with session %s: %v\n", sess.ID, err)
				return 1
			}
		}
		for k, v := range sess.RecipeValues {
			if _, set := f.params[k]; !set {
				f.params[k] = v
			}
		}
		if f.prompt == "" {
			f.prompt = "Continue where you left off."
		}
	}

	stdinTTY := isTerminal(os.Stdin)
	var askMu sync.Mutex
	in := bufio.NewReader(os.Stdin)
	var asker render.Asker
	if stdinTTY {
		asker = func(key, description string) (string, error) {
			askMu.Lock()
			defer askMu.Unlock()
			fmt.Fprintf(stderr, "%s (%s): ", key, description)
			line, err := in.ReadString('\n')
			return strings.TrimRight(line, "\r\n"), err
		}
	}
	approver := agent.ApproverFunc(func(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
		if !stdinTTY {
			return agent.Deny, fmt.Errorf("GOOSE_MODE=%s needs approval for %s but standard input is not a terminal; set GOOSE_MODE=auto to allow tools in headless runs", mode, req.Tool)
		}
		askMu.Lock()
		defer askMu.Unlock()
		fmt.Fprintf(stderr, "\n%s %s\ngoose would like to call the above tool, do you allow? [y]es / [a]lways / [n]o / [c]ancel: ", req.Tool, req.Arguments)
		line, err := in.ReadString('\n')
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
	})
	if store != nil && rec == nil {
		abs := ""
		if f.recipe != "" {
			abs, _ = filepath.Abs(f.recipe)
		}
		rec = &session.Recorder{Store: store, Meta: session.Session{Name: session.NameFor(f.recipe, f.prompt), WorkingDir: workdir, RecipePath: abs, RecipeValues: f.params, GooseMode: string(mode)},
			OnCreate: func(id string) { fmt.Fprintf(stderr, "session %s\n", id) }}
	}
	// --provider/--model choose the run's own model (the first one resolved); sub-agents then inherit it or
	// pick theirs in goose's order (delegate's arguments, the sub-recipe's settings, GOOSE_SUBAGENT_*)
	var resolvedTopLevel atomic.Bool
	factory := func(s provider.Settings) (provider.Setup, error) {
		if !resolvedTopLevel.Swap(true) {
			if f.provider != "" {
				s.Provider = f.provider
			}
			if f.model != "" {
				s.Model = f.model
			}
		}
		return configure.Resolve(cfg.Get, s)
	}

	printer := &eventPrinter{stdout: stdout, stderr: stderr, json: f.output == "json"}
	opts := agent.RunOptions{
		RecipePath: f.recipe, Params: f.params, Prompt: f.prompt, Workspace: tools.Disk{Dir: workdir},
		Providers: factory, Lookup: cfg.Get, Mode: mode, Approver: approver, Perms: st.Perms, Ask: asker,
		MaxTurns: f.maxTurns, History: history, Redactor: redactor,
	}
	opts.Events = printer.print
	if rec != nil { // (a nil *Recorder in the interface would not be nil)
		opts.Recorder = rec
	}
	var out agent.Outcome
	if resumeDoc != nil {
		out, err = agent.RunDoc(ctx, resumeDoc, opts)
	} else {
		out, err = agent.RunRecipe(ctx, opts)
	}
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls run:", redactor.Redact(err.Error()))
		var missing *render.MissingError
		if errors.As(err, &missing) || errors.Is(err, agent.ErrNoPrompt) {
			return 2
		}
		return 1
	}
	if rec != nil && rec.Err() != nil {
		fmt.Fprintln(stderr, "goose-ls run: storing the session:", rec.Err())
	}
	printer.finish(out)
	if out.Status == agent.StatusCompleted {
		return 0
	}
	return 1
}
