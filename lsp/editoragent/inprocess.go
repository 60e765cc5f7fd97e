// InProcess: the agent behind an lsp/agentrelay relay, in this process (tests, and a binary that links
// the agent anyway).

package editoragent

import (
	"context"
	"io"
	"log/slog"
	"net"

	"github.com/goose-ls/goose-ls/lsp/agentrelay"
)

// InProcess is an agentrelay.Starter that serves the agent on one end of an in-memory pipe.
func InProcess(opts Options) agentrelay.Starter {
	return func() (io.ReadWriteCloser, error) {
		server, agent := net.Pipe()
		go func() {
			if err := agentrelay.Serve(context.Background(), agent, New(opts)); err != nil {
				slog.Debug("editoragent: in-process agent ended", "error", err)
			}
		}()
		return server, nil
	}
}
