// The agent's Workspace in the editor: reads come from open buffers (unsaved text included), writes
// become versioned workspace/applyEdit requests with minimal edits, so nothing the user typed is lost.

package editoragent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// diskVersion marks text read from disk (buffers have the client's versions, which may be 0).
const diskVersion tools.Version = -2

// editorWorkspace implements tools.Workspace on the server's documents (the host records every write for
// undo and edit events).
type editorWorkspace struct {
	ed   lsp.Editor
	root string
	// annotate names the change annotation of the edits being made now (nil: none).
	annotate func() annotation
}

func (w *editorWorkspace) Root() string { return w.root }

// Read returns the buffer's text when the file is open, else the disk's (through the run's os.Root).
func (w *editorWorkspace) Read(_ context.Context, files *tools.Files, abs string) ([]byte, tools.Version, error) {
	if d := w.ed.Doc(lsp.FileURI(abs)); d != nil {
		return d.Text, tools.Version(d.Version), nil
	}
	data, err := files.ReadFile(abs, tools.MaxReadBytes)
	return data, diskVersion, err
}

// StaleError says the buffer changed after the agent read it; Current is its text now.
type StaleError struct {
	Path    string
	Current string
	Reason  string // the editor's failure reason, when it refused the edit
}

func (e *StaleError) Error() string {
	why := ""
	if e.Reason != "" {
		why = " (the editor refused the edit: " + e.Reason + ")"
	}
	return fmt.Sprintf("%s changed in the editor since it was read%s; nothing was written. Read it again and retry. Its current content is:\n%s", e.Path, why, e.Current)
}

type applyEditResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// Write sends the change to the editor as a workspace edit against the version the agent read. A path
// through a symbolic link (or to something not a regular file) is refused: the editor would follow it.
func (w *editorWorkspace) Write(ctx context.Context, files *tools.Files, abs string, data []byte, base tools.Version) error {
	if _, err := files.CheckWritable(abs); err != nil {
		return err
	}
	u := lsp.FileURI(abs)
	d := w.ed.Doc(u)
	var before []byte
	var lines *source.LineIndex
	var version int32
	if d != nil {
		before, lines, version = d.Text, d.Lines, d.Version
	}
	canCreate := w.ed.Caps().CreateFiles
	var ops []any
	switch {
	case d != nil:
		if base != tools.Version(version) && !(base == diskVersion && diskMatches(files, abs, before)) {
			return &StaleError{Path: abs, Current: string(before)}
		}
		edit, same := minimalEdit(w.ed, before, data, lines)
		if same {
			return nil
		}
		ops = append(ops, map[string]any{
			"textDocument": map[string]any{"uri": u, "version": version},
			"edits":        []any{edit},
		})
	default:
		disk, err := files.ReadFile(abs, tools.MaxReadBytes)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		exists := err == nil
		if exists && base != diskVersion {
			return &StaleError{Path: abs, Current: string(disk)}
		}
		if !exists && base != -1 && base != diskVersion {
			return &StaleError{Path: abs, Current: ""}
		}
		if !exists && !canCreate {
			// the client cannot create files through edits: write the disk, and say so
			if _, err := files.WriteFile(abs, data); err != nil {
				return err
			}
			slog.Info("agent wrote a new file to disk (the client cannot create files through edits)", "path", abs)
			return nil
		}
		if !exists {
			if err := files.MkdirAll(filepath.Dir(abs)); err != nil {
				return err
			}
			ops = append(ops, map[string]any{"kind": "create", "uri": u}) // no ignoreIfExists: Neovim 0.7 then only adds a buffer
			before = nil
		} else {
			before = disk
		}
		edit, same := minimalEdit(w.ed, before, data, source.NewLineIndex(before))
		if same && exists {
			return nil
		}
		ops = append(ops, map[string]any{"textDocument": map[string]any{"uri": u, "version": nil}, "edits": []any{edit}})
	}
	res, err := w.apply(ctx, "goose: "+filepath.Base(abs), ops)
	if err != nil {
		return err
	}
	if !res.Applied {
		reason := res.FailureReason
		if reason == "" {
			reason = "no reason given"
		}
		// the buffer has (most likely) moved on: give the model the current text to retry on
		if d := w.ed.Doc(u); d != nil {
			return &StaleError{Path: abs, Current: string(d.Text), Reason: reason}
		}
		return errors.New("the editor refused the edit: " + reason)
	}
	if d != nil {
		// the editor sends didChange around its answer; wait until the buffer holds the edit, so the next
		// read sees it and an edit the editor skipped (some answer applied for a stale version) is caught
		if cur, ok := w.ed.AwaitText(u, data, appliedEditWait); !ok {
			return &StaleError{Path: abs, Current: cur, Reason: "the editor answered applied, but its buffer does not hold the edit"}
		}
	}
	return nil
}

// appliedEditWait bounds the wait for the didChange that follows an applied edit; generous for a
// loaded machine, and only spent in full when the editor skipped the edit.
const appliedEditWait = 2 * time.Second

// editorAnswerGrace bounds the wait for the answer to an edit sent before the run was cancelled.
const editorAnswerGrace = 30 * time.Second

// apply sends documentChanges as one workspace/applyEdit, annotated when the client supports it.
func (w *editorWorkspace) apply(ctx context.Context, label string, ops []any) (applyEditResult, error) {
	edit := map[string]any{"documentChanges": ops}
	annotations, review := w.ed.Caps().ChangeAnnotations, w.ed.Settings().ReviewEdits
	if annotations && w.annotate != nil {
		a := w.annotate()
		for _, op := range ops {
			m := op.(map[string]any)
			if edits, ok := m["edits"].([]any); ok {
				for _, e := range edits {
					e.(map[string]any)["annotationId"] = a.ID
				}
			} else {
				m["annotationId"] = a.ID
			}
		}
		edit["changeAnnotations"] = map[string]any{a.ID: map[string]any{"label": a.Label, "description": a.Description, "needsConfirmation": review}}
	}
	var res applyEditResult
	if err := ctx.Err(); err != nil {
		return res, err
	}
	// once sent, the request is not abandoned on a cancel: the editor may apply the edit (or the user
	// accept it in review) after the cancel, and the run must record what the buffer holds; a cancel
	// leaves the editor editorAnswerGrace to answer (no limit before it: a review takes its time)
	actx, stopWaiting := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWaiting()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(editorAnswerGrace, stopWaiting) })()
	if err := w.ed.Call(actx, "workspace/applyEdit", map[string]any{"label": label, "edit": edit}, &res); err != nil {
		return res, fmt.Errorf("the editor did not apply the edit: %w", err)
	}
	return res, nil
}

func diskMatches(files *tools.Files, abs string, text []byte) bool {
	disk, err := files.ReadFile(abs, tools.MaxReadBytes)
	return err == nil && string(disk) == string(text)
}

// minimalEdit is one TextEdit replacing only the part between the common prefix and suffix of old and
// new (rune-aligned); same reports there is nothing to change.
func minimalEdit(ed lsp.Editor, old, new []byte, lines *source.LineIndex) (map[string]any, bool) {
	if string(old) == string(new) {
		return nil, true
	}
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	sOld, sNew := len(old), len(new)
	for sOld > p && sNew > p && old[sOld-1] == new[sNew-1] {
		sOld--
		sNew--
	}
	for sOld < len(old) && !utf8.RuneStart(old[sOld]) {
		sOld++
		sNew++
	}
	r := lsp.Range(lines, source.Range{Start: p, End: sOld}, ed.Caps().UTF8)
	return map[string]any{"range": r, "newText": string(new[p:sNew])}, false
}

// Review gives the model goose-ls's own diagnostics for a recipe file it just wrote.
func (w *editorWorkspace) Review(abs string, data []byte) string { return recipe.Review(abs, data) }
