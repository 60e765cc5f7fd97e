// goose.undoTurn: revert one turn's edits as one workspace edit, only where the text is still what the
// turn wrote.

package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/agent/tools"
)

func (s *Server) undoTurn(ctx context.Context, runID string, turn int) (any, error) {
	s.mu.Lock()
	r := s.runs[runID]
	root := s.root
	s.mu.Unlock()
	if r == nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run " + runID}
	}
	r.mu.Lock()
	edits := append([]turnEdit(nil), r.edits[turn]...)
	r.mu.Unlock()
	if len(edits) == 0 {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("%s has no edits in turn %d", runID, turn)}
	}
	ws := &editorWorkspace{s: s, root: root}
	// the state to restore per file: the first before of the turn; what must be there now: the last after
	first := map[string][]byte{}
	last := map[string][]byte{}
	var order []string
	for _, e := range edits {
		if _, seen := first[e.path]; !seen {
			first[e.path] = e.before
			order = append(order, e.path)
		}
		last[e.path] = e.after
	}
	var changed []string
	versions := map[string]tools.Version{}
	for _, path := range order {
		cur, ver, err := ws.Read(ctx, path)
		if err != nil || string(cur) != string(last[path]) {
			changed = append(changed, path)
		}
		versions[path] = ver
	}
	if len(changed) > 0 {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "cannot undo: these files changed after the agent's edit: " + strings.Join(changed, ", ")}
	}
	for _, path := range order {
		if err := ws.Write(ctx, path, first[path], versions[path]); err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: fmt.Sprintf("undo of %s failed: %v", path, err)}
		}
	}
	return map[string]any{"reverted": order}, nil
}
