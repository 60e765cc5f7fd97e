// `goose-ls acp`: the Agent Client Protocol agent on stdin/stdout (stdout carries only protocol; the log,
// redacted, goes to stderr).

package main

import (
	"github.com/goose-ls/goose-ls/internal/version"

	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/goose-ls/goose-ls/acp"
	"github.com/goose-ls/goose-ls/agent"
)

func runACP(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	debug := fs.Bool("debug", false, "log protocol problems, extension stderr and provider retries")
	noSession := fs.Bool("no-session", false, "do not store sessions")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "goose-ls acp: takes no arguments")
		return 2
	}
	redactor := &agent.Redactor{}
	slog.SetDefault(slog.New(newLogHandler(stderr, logLevel(*debug), redactor)))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := acp.Serve(ctx, os.Stdin, os.Stdout, acp.Options{Version: version.Build().Version, NoSessions: *noSession, Redactor: redactor}); err != nil {
		fmt.Fprintln(stderr, "goose-ls acp:", err)
		return 1
	}
	return 0
}
