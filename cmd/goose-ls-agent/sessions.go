// `goose-ls sessions`: list stored sessions (or show one's messages).

package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/goose-ls/goose-ls/agent/host"
)

func runSessions(args []string, stdout, stderr io.Writer) int {
	h := host.New(host.Options{Warn: func(msg string) { fmt.Fprintln(stderr, "goose-ls sessions:", msg) }})
	defer h.Close()
	ctx := context.Background()
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		sess, msgs, err := h.Session(ctx, args[0])
		if err != nil {
			fmt.Fprintln(stderr, "goose-ls sessions:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s  %s  %s\n", sess.ID, sess.Name, sess.WorkingDir)
		for _, m := range msgs {
			switch {
			case len(m.ToolResults) > 0:
				for _, r := range m.ToolResults {
					fmt.Fprintf(stdout, "  tool result: %s\n", oneLine(r.Text, 120))
				}
			default:
				if m.Text != "" {
					fmt.Fprintf(stdout, "%s: %s\n", m.Role, oneLine(m.Text, 200))
				}
				for _, c := range m.ToolCalls {
					fmt.Fprintf(stdout, "  tool call: %s %s\n", c.Name, oneLine(string(c.Arguments), 120))
				}
			}
		}
		return 0
	}
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: goose-ls sessions [ID]")
		return 2
	}
	list, err := h.Sessions(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls sessions:", err)
		return 1
	}
	for _, s := range list {
		fmt.Fprintf(stdout, "%-12s  %s  %3d msgs  %6d tokens  %-30s  %s\n", s.ID, s.UpdatedAt.Local().Format("2006-01-02 15:04"),
			s.Messages, s.InputTokens+s.OutputTokens, oneLine(s.Name, 30), s.WorkingDir)
	}
	return 0
}
