// Command goose-ls-agent is goose-ls's agent: `run`, `acp`, `sessions`, `secret`, `configure`, and `relay` (the language
// server's agent process, lsp/agentrelay on stdin/stdout). goose-ls runs it from beside itself; it links
// the provider SDKs, SQLite and MCP that goose-ls does not.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/internal/version"
	"github.com/goose-ls/goose-ls/lsp/agentrelay"
	"github.com/goose-ls/goose-ls/lsp/editoragent"
)

func main() {
	if err := version.CheckCaller(); err != nil {
		fmt.Fprintln(os.Stderr, "goose-ls:", err)
		os.Exit(1)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprint(w, `goose-ls-agent: goose-ls's agent (goose-ls runs it for these commands; see goose-ls help)

Usage:
  goose-ls-agent run [RECIPE] [--params k=v ...] [--prompt TEXT] [--no-session] [--output text|json] [--resume ID]
                      [--explain | --render-recipe]
  goose-ls-agent acp [--debug] [--no-session]
  goose-ls-agent sessions [ID]
  goose-ls-agent secret set NAME  store a secret where goose keeps it (the value on stdin)
  goose-ls-agent configure        choose the provider, model and API key in the terminal (goose's config.yaml)
  goose-ls-agent relay            the language server's agent process (lsp/agentrelay on stdin/stdout)
  goose-ls-agent version
`)
}

// run dispatches a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "acp":
		return runACP(args[1:], stderr)
	case "run":
		return runRun(args[1:], stdout, stderr)
	case "sessions":
		return runSessions(args[1:], stdout, stderr)
	case "secret":
		return runSecret(args[1:], os.Stdin, stdout, stderr)
	case "configure":
		return runConfigure(args[1:], stdout, stderr)
	case "relay":
		return runRelay()
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, version.Line("goose-ls-agent"))
		return 0
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "goose-ls-agent: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// runRelay serves the language server's agent commands on stdin/stdout until the server closes stdin.
func runRelay() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if err := agentrelay.Serve(ctx, stdio{}, editoragent.New(editoragent.Options{})); err != nil {
		slog.Warn("goose-ls-agent relay", "error", err)
		return 1
	}
	return 0
}

// newLogHandler is the text log on stderr; with a redactor, messages and attribute values are redacted
// (the --debug log of a run carries provider errors and extension stderr).
func newLogHandler(w io.Writer, level slog.Leveler, red *agent.Redactor) slog.Handler {
	h := slog.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	if red != nil {
		h = agent.RedactingHandler(h, red)
	}
	return h
}

// logLevel is debug with --debug, else warnings.
func logLevel(debug bool) slog.Level {
	if debug {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// stdio joins stdin and stdout into one connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
