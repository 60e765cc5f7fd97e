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

// KnownText is an optional Workspace ability: the text the workspace itself last read or wrote at abs,
// so recording a write needs no second read (over ACP, a second fs/read_text_file round trip).
type KnownText interface {
	KnownText(abs string) ([]byte, bool)
}

// Write reads the file's text as the workspace shows it (or takes the text it knows), writes, and records
// the change (none when the text was already the same).
func (w recordingWorkspace) Write(ctx context.Context, files *tools.Files, abs string, data []byte, base tools.Version) error {
	var before []byte
	var rerr error
	known := false
	if k, ok := w.Workspace.(KnownText); ok {
		before, known = k.KnownText(abs)
	}
	if !known {
		before, _, rerr = w.Workspace.Read(ctx, files, abs)
	}
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
