//go:build !windows

// The file tools cannot leave the workspace: dangling links, linked folders, links made with shell,
// FIFOs and devices, and folders or files swapped for links while the tools run.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const outsideSecret = "OUTSIDE-SECRET"

// sandbox makes a workspace and a folder outside it holding secret.txt with a fixed modification time;
// the returned check fails the test if anything outside was created, changed or touched.
func sandbox(t *testing.T) (root, outside string, untouched func()) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte(outsideSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(secret, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	return root, outside, func() {
		t.Helper()
		var names []string
		_ = filepath.WalkDir(outside, func(p string, d fs.DirEntry, err error) error {
			names = append(names, p)
			return nil
		})
		if len(names) != 2 {
			t.Errorf("files appeared outside the workspace: %v", names)
		}
		st, err := os.Stat(secret)
		data, _ := os.ReadFile(secret)
		if err != nil || !st.ModTime().Equal(stamp) || string(data) != outsideSecret {
			t.Errorf("the file outside was touched: %v, mtime %v, content %q", err, st.ModTime(), data)
		}
	}
}

func newDeveloper(t *testing.T, root string) *Developer {
	t.Helper()
	d := &Developer{WS: Disk{Dir: root}}
	t.Cleanup(func() { d.Close() })
	return d
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func call(d *Developer, tool string, args map[string]any) Result {
	raw, _ := json.Marshal(args)
	return d.Call(context.Background(), tool, raw)
}

// refused fails unless r is an error result naming path and saying why (want), without outside content.
func refused(t *testing.T, what string, r Result, path, want string) {
	t.Helper()
	if !r.IsError || !strings.Contains(r.Text, path) || !strings.Contains(r.Text, want) || strings.Contains(r.Text, outsideSecret) {
		t.Errorf("%s: want a refusal naming %s with %q, got %+v", what, path, want, r)
	}
}

func TestDanglingSymlinksAreNeverWrittenThrough(t *testing.T) {
	root, outside, untouched := sandbox(t)
	d := newDeveloper(t, root)
	symlink(t, filepath.Join(outside, "created.txt"), filepath.Join(root, "abs.txt"))
	symlink(t, "../outside/created.txt", filepath.Join(root, "rel.txt"))
	symlink(t, "missing.txt", filepath.Join(root, "inside.txt"))
	for _, p := range []string{"abs.txt", "rel.txt"} {
		refused(t, "write "+p, call(d, "write", map[string]any{"path": p, "content": "x"}), p, "outside the workspace")
	}
	refused(t, "write inside.txt", call(d, "write", map[string]any{"path": "inside.txt", "content": "x"}), "inside.txt", "do not write through symbolic links")
	if _, err := os.Lstat(filepath.Join(root, "missing.txt")); err == nil {
		t.Error("a write went through a dangling link inside the workspace")
	}
	untouched()
}

func TestSymlinkedFolders(t *testing.T) {
	root, outside, untouched := sandbox(t)
	d := newDeveloper(t, root)
	symlink(t, outside, filepath.Join(root, "out"))
	writeFiles(t, root, map[string]string{"real/a.txt": "inside\n", "main.go": "package main\n"})
	symlink(t, "real", filepath.Join(root, "in"))

	refused(t, "write out/x.txt", call(d, "write", map[string]any{"path": "out/x.txt", "content": "x"}), "out/x.txt", "outside the workspace")
	refused(t, "write out/deep/x.txt", call(d, "write", map[string]any{"path": "out/deep/x.txt", "content": "x"}), "out/deep/x.txt", "outside the workspace")
	refused(t, "write out/secret.txt", call(d, "write", map[string]any{"path": "out/secret.txt", "content": "x"}), "out/secret.txt", "outside the workspace")
	refused(t, "edit out/secret.txt", call(d, "edit", map[string]any{"path": "out/secret.txt", "before": "OUTSIDE", "after": "x"}), "out/secret.txt", "outside the workspace")
	refused(t, "read out/secret.txt", call(d, "read", map[string]any{"path": "out/secret.txt"}), "out/secret.txt", "outside the workspace")
	refused(t, "read absolute", call(d, "read", map[string]any{"path": filepath.Join(root, "out", "secret.txt")}), "secret.txt", "outside the workspace")
	refused(t, "tree out", call(d, "tree", map[string]any{"path": "out"}), "out", "outside the workspace")
	if r := call(d, "tree", map[string]any{"path": ".", "depth": 0}); r.IsError || strings.Contains(r.Text, "secret") || !strings.Contains(r.Text, "a.txt") {
		t.Errorf("tree .: %+v", r)
	}

	// a link inside the workspace may be read through, never written through
	if r := call(d, "read", map[string]any{"path": "in/a.txt"}); r.IsError || r.Text != "   1: inside" {
		t.Errorf("read in/a.txt: %+v", r)
	}
	refused(t, "write in/a.txt", call(d, "write", map[string]any{"path": "in/a.txt", "content": "changed"}), "in/a.txt", "do not write through symbolic links")
	refused(t, "edit in/a.txt", call(d, "edit", map[string]any{"path": "in/a.txt", "before": "inside", "after": "changed"}), "in/a.txt", "do not write through symbolic links")
	if data, _ := os.ReadFile(filepath.Join(root, "real", "a.txt")); string(data) != "inside\n" {
		t.Errorf("real/a.txt was written through a link: %q", data)
	}
	untouched()
}

func TestSymlinkMadeByShellIsNotWrittenThrough(t *testing.T) {
	root, outside, untouched := sandbox(t)
	d := newDeveloper(t, root)
	cmd := fmt.Sprintf("ln -s %s/secret.txt link.txt && ln -s %s linkdir && ln -s %s/new.txt dangling.txt", outside, outside, outside)
	if r := call(d, "shell", map[string]any{"command": cmd}); r.IsError {
		t.Fatalf("shell: %+v", r)
	}
	refused(t, "write link.txt", call(d, "write", map[string]any{"path": "link.txt", "content": "pwned"}), "link.txt", "outside the workspace")
	refused(t, "edit link.txt", call(d, "edit", map[string]any{"path": "link.txt", "before": "OUTSIDE", "after": "pwned"}), "link.txt", "outside the workspace")
	refused(t, "read link.txt", call(d, "read", map[string]any{"path": "link.txt"}), "link.txt", "outside the workspace")
	refused(t, "write linkdir/new.txt", call(d, "write", map[string]any{"path": "linkdir/new.txt", "content": "pwned"}), "linkdir/new.txt", "outside the workspace")
	refused(t, "write dangling.txt", call(d, "write", map[string]any{"path": "dangling.txt", "content": "pwned"}), "dangling.txt", "outside the workspace")
	untouched()
}

func TestOnlyRegularFilesAreReadOrWritten(t *testing.T) {
	root, _, untouched := sandbox(t)
	d := newDeveloper(t, root)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"dir/a.txt": "a"})
	symlink(t, "/dev/zero", filepath.Join(root, "zero"))
	// a blocking open of the FIFO would hang here: the tools open it non-blocking and refuse it
	refused(t, "read pipe", call(d, "read", map[string]any{"path": "pipe"}), "pipe", "not a regular file")
	refused(t, "write pipe", call(d, "write", map[string]any{"path": "pipe", "content": "x"}), "pipe", "not a regular file")
	refused(t, "edit pipe", call(d, "edit", map[string]any{"path": "pipe", "before": "a", "after": "b"}), "pipe", "not a regular file")
	refused(t, "read dir", call(d, "read", map[string]any{"path": "dir"}), "dir", "not a regular file")
	refused(t, "read zero", call(d, "read", map[string]any{"path": "zero"}), "zero", "outside the workspace")
	untouched()
}

func TestReadIsSizeCapped(t *testing.T) {
	root := t.TempDir()
	files := openFiles(t, root)
	writeFiles(t, root, map[string]string{"big.txt": strings.Repeat("x", 100)})
	if _, err := files.ReadFile("big.txt", 99); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("over the cap: %v", err)
	}
	if data, err := files.ReadFile("big.txt", 100); err != nil || len(data) != 100 {
		t.Errorf("at the cap: %v %d", err, len(data))
	}
}

func TestTreeReadsIgnoreFilesOnlyAsRegularFilesInside(t *testing.T) {
	root, outside, untouched := sandbox(t)
	d := newDeveloper(t, root)
	writeFiles(t, root, map[string]string{"main.go": "package main\n", "sub/b.go": "b\n", "other/c.go": "c\n"})
	if err := os.WriteFile(filepath.Join(outside, "ignore-all"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "/dev/zero", filepath.Join(root, ".gitignore"))
	if err := syscall.Mkfifo(filepath.Join(root, "sub", ".gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(outside, "ignore-all"), filepath.Join(root, "other", ".ignore"))
	// the outside file says `*`: had it been read, nothing under other/ would be listed
	r := call(d, "tree", map[string]any{"path": ".", "depth": 0})
	want := "other/  [1]\n  c.go  [1]\nsub/  [1]\n  b.go  [1]\nmain.go  [1]"
	if r.IsError || r.Text != want {
		t.Errorf("tree:\n%s\nwant:\n%s", r.Text, want)
	}
	if err := os.Remove(filepath.Join(outside, "ignore-all")); err != nil {
		t.Fatal(err)
	}
	untouched()
}

// WriteFile itself (also used for the editor's disk writes) follows no link at all, in or out.
func TestWriteFileFollowsNoLink(t *testing.T) {
	root, outside, untouched := sandbox(t)
	files := openFiles(t, root)
	writeFiles(t, root, map[string]string{"real/a.txt": "inside\n"})
	symlink(t, outside, filepath.Join(root, "out"))
	symlink(t, "real", filepath.Join(root, "in"))
	symlink(t, filepath.Join(outside, "new.txt"), filepath.Join(root, "dangling.txt"))
	symlink(t, "real/a.txt", filepath.Join(root, "alias.txt"))
	for _, p := range []string{"out/x.txt", "out/deep/x.txt", "in/a.txt", "in/new.txt", "dangling.txt", "alias.txt"} {
		if _, err := files.WriteFile(p, []byte("x")); !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), p) {
			t.Errorf("WriteFile(%s) = %v, want ErrSymlink naming the path", p, err)
		}
		if _, err := files.CheckWritable(p); !errors.Is(err, ErrSymlink) {
			t.Errorf("CheckWritable(%s) = %v, want ErrSymlink", p, err)
		}
	}
	if err := files.MkdirAll("out/deep"); !errors.Is(err, ErrSymlink) {
		t.Errorf("MkdirAll(out/deep) = %v", err)
	}
	if created, err := files.WriteFile("new/deeper/b.txt", []byte("b")); err != nil || !created {
		t.Errorf("WriteFile(new/deeper/b.txt) = %v, %v", created, err)
	}
	if created, err := files.WriteFile("real/a.txt", []byte("changed")); err != nil || created {
		t.Errorf("WriteFile(real/a.txt) = %v, %v", created, err)
	}
	if exists, err := files.CheckWritable("real/a.txt"); err != nil || !exists {
		t.Errorf("CheckWritable(real/a.txt) = %v, %v", exists, err)
	}
	if exists, err := files.CheckWritable("none/x.txt"); err != nil || exists {
		t.Errorf("CheckWritable(none/x.txt) = %v, %v", exists, err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "real", "a.txt")); string(data) != "changed" {
		t.Errorf("real/a.txt = %q", data)
	}
	untouched()
}
