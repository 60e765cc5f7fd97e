// Command goose-ls is the goose recipe language server and its CLI: check, recipe, schema, version. The
// agent's commands (run, acp, sessions, secret, configure) and the server's agent runs are goose-ls-agent's, a
// separate executable installed beside it: the server and `check` link no provider SDK, SQLite or MCP,
// so they stay small in memory, and an agent crash never takes the language server down.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/goose-ls/goose-ls/internal/version"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/lsp/agentrelay"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprint(w, `goose-ls: language server and checker for goose recipes

Usage:
  goose-ls [serve]                                    run the language server on stdin/stdout
  goose-ls acp [--debug] [--no-session]              run the Agent Client Protocol agent on stdin/stdout
  goose-ls check [--format text|json|sarif] [--desktop] PATH|NAME...
                                                      validate recipe files, folders or recipes by name
  goose-ls run [RECIPE] [--params k=v ...] [--prompt TEXT] [--no-session] [--output text|json] [--resume ID]
                                                      run a recipe (a path or a name) with the goose agent loop
  goose-ls run RECIPE [--params k=v ...] --explain     explain the recipe and its parameters; run nothing
  goose-ls run RECIPE [--params k=v ...] --render-recipe
                                                      print the recipe rendered with the values, as YAML
  goose-ls recipe list [--format text|json] [-v]      list the recipes of goose's recipe folders
  goose-ls recipe deeplink RECIPE [-p k=v ...]        print a goose://recipe link for the recipe
  goose-ls recipe validate RECIPE                     validate a recipe as goose does
  goose-ls sessions [ID]                              list stored sessions, or show one
  goose-ls secret set NAME                            store a secret (an API key) where goose keeps it:
                                                      the system keyring, or secrets.yaml; the value on stdin
  goose-ls configure                                  choose the provider, model and API key in the terminal:
                                                      writes goose's config.yaml, stores the key where goose keeps it
  goose-ls schema                                     print the recipe JSON Schema
  goose-ls version                                    print the version, commit and the goose version it agrees with
`)
}

// run dispatches a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if len(args) == 0 {
		return runServe()
	}
	switch args[0] {
	case "serve":
		return runServe()
	case "acp", "sessions", "secret", "configure": // the agent's commands: goose-ls-agent (agentexec.go)
		return execAgent(args, stderr)
	case "run":
		return runRun(args[1:], stdout, stderr)
	case "check":
		return runCheck(args[1:], stdout, stderr)
	case "recipe":
		return runRecipe(args[1:], stdout, stderr)
	case "schema":
		return runSchema(stdout)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, version.Line("goose-ls"))
		return 0
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "goose-ls: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// stdio joins stdin and stdout into the server's connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

// runServe speaks LSP on stdin/stdout; logs go to stderr only.
func runServe() int {
	b := version.Build()
	lsp.Version = b.Version + " (goose " + version.Goose + ")"
	return lsp.Serve(context.Background(), stdio{}, lsp.Options{Agent: agentrelay.New(startAgentRelay)})
}
