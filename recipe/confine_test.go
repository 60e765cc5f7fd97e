// The confined reader on real files: symlinks out, `..`, absolute paths, FIFOs, devices, /proc, stdin,
// folders, oversized files and symlink loops are refused with the right reason; inside files are read.

//go:build linux

package recipe_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

// secretMarker is placed in every file a test must not read; no output may ever contain it.
const secretMarker = "MARKER-SECRET-5b1e9c"

// hostileTree is a workspace and a folder outside it, with every kind of hostile entry in the workspace.
type hostileTree struct {
	ws, outside string
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// newHostileTree builds:
//
//	outside/secret.yaml           a recipe holding the marker
//	ws/inside.yaml                a plain recipe
//	ws/link-out.yaml       ->     ../outside/secret.yaml (relative symlink out)
//	ws/abs-link.yaml       ->     /…/outside/secret.yaml (absolute symlink)
//	ws/link-in.yaml        ->     inside.yaml
//	ws/zero.yaml           ->     /dev/zero
//	ws/environ.yaml        ->     /proc/self/environ
//	ws/pipe.yaml                  a FIFO nobody writes to
//	ws/dir.yaml/                  a folder
//	ws/big.yaml                   2 MiB, the marker at its start
//	ws/loop.yaml <-> ws/loop2.yaml  a symlink loop
//	ws/outdir              ->     ../outside (a symlinked folder)
func newHostileTree(t *testing.T) hostileTree {
	t.Helper()
	base := t.TempDir()
	h := hostileTree{ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	secret := "title: " + secretMarker + "\ndescription: " + secretMarker + "\nprompt: hi\nparameters:\n  - key: " + secretMarker + "\n    input_type: string\n    requirement: required\n    description: " + secretMarker + "\n"
	mustWrite(t, filepath.Join(h.outside, "secret.yaml"), secret)
	mustWrite(t, filepath.Join(h.ws, "inside.yaml"), "title: Inside\ndescription: D\nprompt: hi\n")
	mustSymlink(t, filepath.Join("..", "outside", "secret.yaml"), filepath.Join(h.ws, "link-out.yaml"))
	mustSymlink(t, filepath.Join(h.outside, "secret.yaml"), filepath.Join(h.ws, "abs-link.yaml"))
	mustSymlink(t, "inside.yaml", filepath.Join(h.ws, "link-in.yaml"))
	mustSymlink(t, "/dev/zero", filepath.Join(h.ws, "zero.yaml"))
	mustSymlink(t, "/proc/self/environ", filepath.Join(h.ws, "environ.yaml"))
	if err := syscall.Mkfifo(filepath.Join(h.ws, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.ws, "dir.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(h.ws, "big.yaml"), secretMarker+"\n"+strings.Repeat("# padding\n", 2<<20/10))
	mustSymlink(t, "loop2.yaml", filepath.Join(h.ws, "loop.yaml"))
	mustSymlink(t, "loop.yaml", filepath.Join(h.ws, "loop2.yaml"))
	mustSymlink(t, filepath.Join("..", "outside"), filepath.Join(h.ws, "outdir"))
	return h
}

func TestConfinedFSRefusals(t *testing.T) {
	h := newHostileTree(t)
	cases := []struct {
		name  string
		roots []string
		path  string
		want  error // nil: read
		text  string
	}{
		{name: "inside", roots: []string{h.ws}, path: filepath.Join(h.ws, "inside.yaml"), text: "title: Inside"},
		{name: "symlink inside to inside", roots: []string{h.ws}, path: filepath.Join(h.ws, "link-in.yaml"), text: "title: Inside"},
		{name: "relative symlink out", roots: []string{h.ws}, path: filepath.Join(h.ws, "link-out.yaml"), want: recipe.ErrOutsideRoots},
		{name: "absolute symlink out", roots: []string{h.ws}, path: filepath.Join(h.ws, "abs-link.yaml"), want: recipe.ErrOutsideRoots},
		{name: "symlinked folder out", roots: []string{h.ws}, path: filepath.Join(h.ws, "outdir", "secret.yaml"), want: recipe.ErrOutsideRoots},
		{name: "dot-dot", roots: []string{h.ws}, path: filepath.Join(h.ws, "..", "outside", "secret.yaml"), want: recipe.ErrOutsideRoots},
		{name: "absolute path outside", roots: []string{h.ws}, path: filepath.Join(h.outside, "secret.yaml"), want: recipe.ErrOutsideRoots},
		{name: "second root trusted", roots: []string{h.ws, h.outside}, path: filepath.Join(h.outside, "secret.yaml"), text: secretMarker},
		{name: "FIFO", roots: []string{h.ws}, path: filepath.Join(h.ws, "pipe.yaml"), want: recipe.ErrNotRegular},
		{name: "folder", roots: []string{h.ws}, path: filepath.Join(h.ws, "dir.yaml"), want: recipe.ErrNotRegular},
		{name: "oversized", roots: []string{h.ws}, path: filepath.Join(h.ws, "big.yaml"), want: recipe.ErrTooLarge},
		{name: "symlink loop", roots: []string{h.ws}, path: filepath.Join(h.ws, "loop.yaml"), want: recipe.ErrSymlinkLoop},
		{name: "missing", roots: []string{h.ws}, path: filepath.Join(h.ws, "missing.yaml"), want: fs.ErrNotExist},
		{name: "symlink to /dev/zero", roots: []string{h.ws}, path: filepath.Join(h.ws, "zero.yaml"), want: recipe.ErrOutsideRoots},
		{name: "/dev/zero under a /dev root", roots: []string{"/dev"}, path: "/dev/zero", want: recipe.ErrNotRegular},
		{name: "/dev/stdin under a /dev root", roots: []string{"/dev"}, path: "/dev/stdin", want: recipe.ErrOutsideRoots},
		{name: "/proc/self/environ under a /proc root", roots: []string{"/proc"}, path: "/proc/self/environ", want: recipe.ErrNotRegular},
		{name: "/proc/self/environ outside", roots: []string{h.ws}, path: "/proc/self/environ", want: recipe.ErrOutsideRoots},
		{name: "no roots", roots: nil, path: filepath.Join(h.ws, "inside.yaml"), want: recipe.ErrOutsideRoots},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := recipe.ConfinedFS(c.roots).ReadFile(c.path)
			if c.want == nil {
				if err != nil {
					t.Fatalf("read failed: %v", err)
				}
				if !strings.Contains(string(data), c.text) {
					t.Fatalf("read %q, want it to contain %q", data, c.text)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if data != nil {
				t.Errorf("refused read returned %d bytes", len(data))
			}
			if strings.Contains(err.Error(), secretMarker) {
				t.Errorf("error echoes content: %v", err)
			}
		})
	}
}

func TestReadRegularFileRefusesSpecialFiles(t *testing.T) {
	h := newHostileTree(t)
	for _, path := range []string{"/dev/zero", "/dev/stdin", "/proc/self/environ", filepath.Join(h.ws, "pipe.yaml"), filepath.Join(h.ws, "dir.yaml"), filepath.Join(h.ws, "zero.yaml")} {
		t.Run(path, func(t *testing.T) {
			data, err := recipe.ReadRegularFile(path, 1<<20)
			if err == nil {
				t.Fatalf("read %d bytes of a special file", len(data))
			}
		})
	}
	data, err := recipe.ReadRegularFile(filepath.Join(h.ws, "big.yaml"), 100)
	if err != nil || len(data) != 101 {
		t.Errorf("a large regular file is read up to limit+1 bytes: got %d bytes, %v", len(data), err)
	}
}

func TestReadLimitedInStaysInRoot(t *testing.T) {
	h := newHostileTree(t)
	if _, err := recipe.ReadLimitedIn(h.ws, filepath.Join(h.ws, "link-out.yaml"), 1<<20); !errors.Is(err, recipe.ErrOutsideRoots) {
		t.Errorf("symlink out: %v", err)
	}
	if _, err := recipe.ReadLimitedIn(h.ws, filepath.Join(h.ws, "pipe.yaml"), 1<<20); !errors.Is(err, recipe.ErrNotRegular) {
		t.Errorf("FIFO: %v", err)
	}
	data, err := recipe.ReadLimitedIn(h.ws, filepath.Join(h.ws, "big.yaml"), 10)
	if err != nil || len(data) != 10 {
		t.Errorf("limit: %d bytes, %v", len(data), err)
	}
}
