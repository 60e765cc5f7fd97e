// The session's tools.Workspace: reads and writes through the client's fs/read_text_file and
// fs/write_text_file when it advertised them (its unsaved text), else the confined disk as the CLI; every
// write is kept as a diff for the tool call's update, and a recipe written gets goose-ls's diagnostics.

package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// fileDiff is one write: oldText nil for a new file.
type fileDiff struct {
	path    string
	oldText *string
	newText string
}

// clientFS is the part of the connection the workspace delegates to.
type clientFS interface {
	ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error)
	WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error)
}

// sessionWorkspace is a prompt's workspace.
type sessionWorkspace struct {
	root      string
	sessionID string
	client    clientFS // nil: the disk only
	canRead   bool
	canWrite  bool
	disk      tools.Disk

	mu       sync.Mutex
	lastRead map[string][]byte     // the text each path last read (a write's old text)
	diffs    map[string][]fileDiff // writes not yet reported, per path
}

func newSessionWorkspace(root, sessionID string, client clientFS, caps sdk.FileSystemCapabilities) *sessionWorkspace {
	ws := &sessionWorkspace{root: root, sessionID: sessionID, disk: tools.Disk{Dir: root},
		lastRead: map[string][]byte{}, diffs: map[string][]fileDiff{}}
	if client != nil {
		ws.client, ws.canRead, ws.canWrite = client, caps.ReadTextFile, caps.WriteTextFile
	}
	return ws
}

// Root is the session's folder.
func (w *sessionWorkspace) Root() string { return w.root }

// Read returns the client's text of abs (unsaved changes included), or the disk's. The path must be a
// regular file inside the workspace on disk (no link out) even when the client reads it.
func (w *sessionWorkspace) Read(ctx context.Context, files *tools.Files, abs string) ([]byte, tools.Version, error) {
	var data []byte
	if w.canRead {
		st, err := files.Stat(abs)
		if err != nil {
			return nil, 0, err
		}
		if !st.Mode().IsRegular() {
			return nil, 0, fmt.Errorf("%s is not a regular file", abs)
		}
		resp, err := w.client.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(w.sessionID), Path: abs})
		if err != nil {
			return nil, 0, fmt.Errorf("the client could not read %s: %w", abs, err)
		}
		if len(resp.Content) > tools.MaxReadBytes {
			return nil, 0, fmt.Errorf("%s is larger than %d bytes", abs, tools.MaxReadBytes)
		}
		data = []byte(resp.Content)
	} else {
		var err error
		if data, _, err = w.disk.Read(ctx, files, abs); err != nil {
			return nil, 0, err
		}
	}
	w.mu.Lock()
	w.lastRead[abs] = data
	w.mu.Unlock()
	return data, 0, nil
}

// Write replaces abs through the client (which creates missing files) or on disk; links are never
// written through. The change is kept for the tool call's diff.
func (w *sessionWorkspace) Write(ctx context.Context, files *tools.Files, abs string, data []byte, base tools.Version) error {
	if w.canWrite {
		if _, err := files.CheckWritable(abs); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// once sent, the request is not abandoned on a cancel: the client may have written already, and
		// the write must show in the tool call's result and diff (bounded, like a terminal's clean-up)
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), clientAnswerTimeout)
		_, err := w.client.WriteTextFile(wctx, sdk.WriteTextFileRequest{SessionId: sdk.SessionId(w.sessionID), Path: abs, Content: string(data)})
		cancel()
		if err != nil {
			return fmt.Errorf("the client could not write %s: %w", abs, err)
		}
	} else if err := w.disk.Write(ctx, files, abs, data, base); err != nil {
		return err
	}
	d := fileDiff{path: abs, newText: string(data)}
	w.mu.Lock()
	if old, ok := w.lastRead[abs]; ok && base >= 0 {
		text := string(old)
		d.oldText = &text
	}
	w.lastRead[abs] = data
	w.diffs[abs] = append(w.diffs[abs], d)
	w.mu.Unlock()
	return nil
}

// KnownText is the text this workspace last read or wrote at abs (host.KnownText: the host records the
// write's old text without reading the file through the client again).
func (w *sessionWorkspace) KnownText(abs string) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, ok := w.lastRead[abs]
	return data, ok
}

// takeDiff returns the oldest unreported write of abs.
func (w *sessionWorkspace) takeDiff(abs string) (fileDiff, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	list := w.diffs[abs]
	if len(list) == 0 {
		return fileDiff{}, false
	}
	w.diffs[abs] = list[1:]
	return list[0], true
}

// abs is a tool argument's path as the tools resolve it: relative to the workspace folder.
func (w *sessionWorkspace) abs(path string) string {
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(w.root, path)
	}
	return filepath.Clean(path)
}

// Review gives the model goose-ls's diagnostics for a recipe file it just wrote, as the language server
// does.
func (w *sessionWorkspace) Review(abs string, data []byte) string {
	return recipe.Review(abs, data)
}
