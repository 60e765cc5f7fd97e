// Package tools holds the builtin developer tools (write, edit, read, shell, tree). They act through a
// Workspace — the disk for `goose-ls run`, the editor's buffers in the language server — and reach the
// disk only through Files, the workspace folder opened as an os.Root, so they never leave it.
package tools

import (
	"context"
)

// Version identifies the text a tool read, so a write can be refused when the file changed since
// (editor buffers have versions; the disk uses 0).
type Version int64

// Workspace is where the tools read and write. abs is an absolute path inside the workspace (lexically);
// every disk access must go through files, which refuses symbolic links out and writes through any link.
type Workspace interface {
	// Root is the absolute workspace folder.
	Root() string
	// Read returns the current text of the file at abs (an open buffer's unsaved text in an editor).
	Read(ctx context.Context, files *Files, abs string) ([]byte, Version, error)
	// Write replaces the file at abs; base is the version the caller read (create: -1).
	Write(ctx context.Context, files *Files, abs string, data []byte, base Version) error
}

// Disk is a Workspace on the file system.
type Disk struct{ Dir string }

// Root returns the workspace folder.
func (d Disk) Root() string { return d.Dir }

// Read reads a regular file (size-capped) through files.
func (d Disk) Read(_ context.Context, files *Files, abs string) ([]byte, Version, error) {
	b, err := files.ReadFile(abs, MaxReadBytes)
	return b, 0, err
}

// Write writes a file through files, creating parent folders; no symbolic link is followed.
func (d Disk) Write(_ context.Context, files *Files, abs string, data []byte, _ Version) error {
	_, err := files.WriteFile(abs, data)
	return err
}
