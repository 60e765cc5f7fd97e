// goose.undoTurn: revert one turn's edits as one workspace edit, only where the text is still what the
// turn wrote; files the turn created are deleted.

package editoragent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// fileUndo is what undoing a turn does to one file.
type fileUndo struct {
	path         string
	restore, now []byte // the text before the turn, and what the turn left
	created      bool
	onDisk       bool
	version      *int32 // the open buffer's version (nil: not open)
	lines        *source.LineIndex
}

func (a *Agent) undoTurn(ctx context.Context, runID string, turn int) (any, error) {
	r := a.host.Run(runID)
	if r == nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run " + runID}
	}
	edits, err := r.Edits(turn)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	if len(edits) == 0 {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("%s has no edits in turn %d to undo", runID, turn)}
	}
	// per file: the first before of the turn is restored, the last after must still be there
	files := map[string]*fileUndo{}
	var order []*fileUndo
	caps := a.ed.Caps()
	canDelete, canCreate := caps.DeleteFiles, caps.CreateFiles
	for _, e := range edits {
		f := files[e.Path]
		if f == nil {
			// a file created while the client could not create files was written to disk
			f = &fileUndo{path: e.Path, restore: e.Before, created: e.Created, onDisk: e.Created && !canCreate}
			files[e.Path] = f
			order = append(order, f)
		}
		f.now = e.After
	}
	var changed []string
	for _, f := range order {
		if d := a.ed.Doc(lsp.FileURI(f.path)); d != nil {
			v := d.Version
			f.version, f.lines = &v, d.Lines
			if string(d.Text) != string(f.now) {
				changed = append(changed, f.path)
			}
		}
	}
	// files not open in the editor are read and removed on disk only inside the run's workspace
	disk, err := tools.OpenFiles(r.Root)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "undo: " + err.Error()}
	}
	defer disk.Close()
	for _, f := range order {
		if f.version == nil {
			if text, err := disk.ReadFile(f.path, tools.MaxReadBytes); err != nil || string(text) != string(f.now) {
				changed = append(changed, f.path)
			}
			f.lines = source.NewLineIndex(f.now)
		}
	}
	if len(changed) > 0 {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "cannot undo: these files changed after the agent's edit: " + strings.Join(changed, ", ")}
	}
	var ops []any
	var diskRemovals []string
	for _, f := range order {
		u := lsp.FileURI(f.path)
		switch {
		case f.created && f.onDisk:
			diskRemovals = append(diskRemovals, f.path)
		case f.created && canDelete:
			ops = append(ops, map[string]any{"kind": "delete", "uri": u, "options": map[string]any{"ignoreIfNotExists": true}})
		default: // restore the text (a created file the client cannot delete is emptied)
			edit, same := minimalEdit(a.ed, f.now, f.restore, f.lines)
			if same {
				continue
			}
			var version any
			if f.version != nil {
				version = *f.version
			}
			ops = append(ops, map[string]any{"textDocument": map[string]any{"uri": u, "version": version}, "edits": []any{edit}})
		}
	}
	if len(ops) > 0 {
		ws := &editorWorkspace{ed: a.ed}
		res, err := ws.apply(ctx, fmt.Sprintf("goose: undo turn %d of %s", turn, runID), ops)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "undo: " + err.Error()}
		}
		if !res.Applied {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidRequest, Message: "undo: the editor refused the edit: " + res.FailureReason}
		}
	}
	for _, p := range diskRemovals {
		if err := disk.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "undo: " + err.Error()}
		}
	}
	r.ForgetTurn(turn)
	reverted := []string{}
	for _, f := range order {
		reverted = append(reverted, f.path)
	}
	return map[string]any{"reverted": reverted}, nil
}
