// Package tools holds the builtin developer tools (write, edit, read, shell, tree). They act through a
// Workspace — the disk for `goose-ls run`, the editor's buffers in the language server — and never
// leave the workspace root.
package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Version identifies the text a tool read, so a write can be refused when the file changed since
// (editor buffers have versions; the disk uses 0).
type Version int64

// Workspace is where the tools read and write.
type Workspace interface {
	// Root is the absolute workspace folder.
	Root() string
	// Read returns the current text of the file at abs (an open buffer's unsaved text in an editor).
	Read(ctx context.Context, abs string) ([]byte, Version, error)
	// Write replaces the file at abs; base is the version the caller read (create: -1).
	Write(ctx context.Context, abs string, data []byte, base Version) error
}

// ErrOutside is returned for paths that leave the workspace.
var ErrOutside = errors.New("path is outside the workspace")

// Confine resolves a model-supplied path (relative to root, or absolute) to an absolute path inside
// root, refusing `..` escapes, absolute paths elsewhere and symlinks that point outside.
func Confine(root, path string) (string, error) {
	if path == "" {
		return "", errors.New("path is empty")
	}
	if strings.Contains(path, "://") {
		return "", fmt.Errorf("'%s' is a URI, not a filesystem path", path)
	}
	root = filepath.Clean(root)
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	if !within(root, p) {
		return "", fmt.Errorf("%s: %w (%s)", path, ErrOutside, root)
	}
	// resolve symlinks on the longest existing prefix
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	existing := p
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		existing = parent
	}
	if real, err := filepath.EvalSymlinks(existing); err == nil && !within(realRoot, real) {
		return "", fmt.Errorf("%s: %w (a symlink points to %s)", path, ErrOutside, real)
	}
	return p, nil
}

func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Disk is a Workspace on the file system.
type Disk struct{ Dir string }

// Root returns the workspace folder.
func (d Disk) Root() string { return d.Dir }

// Read reads a file.
func (d Disk) Read(_ context.Context, abs string) ([]byte, Version, error) {
	b, err := os.ReadFile(abs)
	return b, 0, err
}

// Write writes a file, creating parent folders.
func (d Disk) Write(_ context.Context, abs string, data []byte, _ Version) error {
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("Failed to create directory %s: %w", filepath.Dir(abs), err)
	}
	return os.WriteFile(abs, data, 0o644)
}
