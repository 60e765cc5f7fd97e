// recordingWorkspace: the front end's workspace with every write recorded under the run's current turn
// (undo data and an edit event), whatever the front end.

package host

import (
	"bytes"
	"context"
	"errors"
	"io/fs"

	"github.com/goose-ls/goose-ls/agent/tools"
)

type recordingWorkspace struct {
	tools.Workspace
	onEdit func(Edit)
}

// Write reads the file's text as the workspace shows it, writes, and records the change (none when the
// text was already the same).
func (w recordingWorkspace) Write(ctx context.Context, files *tools.Files, abs string, data []byte, base tools.Version) error {
	before, _, rerr := w.Workspace.Read(ctx, files, abs)
	created := errors.Is(rerr, fs.ErrNotExist)
	if rerr != nil {
		before = nil
	}
	if err := w.Workspace.Write(ctx, files, abs, data, base); err != nil {
		return err
	}
	if rerr == nil && bytes.Equal(before, data) {
		return nil
	}
	w.onEdit(Edit{Path: abs, Before: before, After: append([]byte(nil), data...), Created: created})
	return nil
}

// Review passes the front end's review of a written file on (tools.Reviewer).
func (w recordingWorkspace) Review(abs string, data []byte) string {
	if r, ok := w.Workspace.(tools.Reviewer); ok {
		return r.Review(abs, data)
	}
	return ""
}
