//go:build !windows

// A racing goroutine swaps a folder and a file for symbolic links (out of the workspace, and to another
// place inside it) while the tools write and read through them: nothing outside is ever written or read,
// and nothing is written through a link.
package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// swapper replaces root/name with a symbolic link to one of targets and back, until stopped; swaps counts
// the links that were in place at some moment.
type swapper struct {
	stop  atomic.Bool
	swaps atomic.Int64
	wg    sync.WaitGroup
}

func (s *swapper) run(root, name string, targets []string) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		p := filepath.Join(root, name)
		for i := 0; !s.stop.Load(); i++ {
			aside := fmt.Sprintf("%s.aside-%d", p, i)
			if os.Rename(p, aside) != nil {
				continue
			}
			if os.Symlink(targets[i%len(targets)], p) == nil {
				s.swaps.Add(1)
				_ = os.Remove(p)
			}
			// the tools may have made a fresh folder or file meanwhile: put the original back regardless
			_ = os.RemoveAll(p)
			_ = os.Rename(aside, p)
		}
	}()
}

func (s *swapper) halt() { s.stop.Store(true); s.wg.Wait() }

func TestFolderAndFileSwappedForLinksDuringWritesAndReads(t *testing.T) {
	root, outside, untouched := sandbox(t)
	d := newDeveloper(t, root)
	writeFiles(t, root, map[string]string{
		"d/secret.txt": "inside d\n", "f.txt": "inside f\n", "elsewhere/secret.txt": "elsewhere\n",
	})
	var s swapper
	s.run(root, "d", []string{outside, "elsewhere"})
	s.run(root, "f.txt", []string{filepath.Join(outside, "secret.txt"), "elsewhere/secret.txt"})
	// at least 400 rounds, and on until the race has really happened both ways (bounded)
	var wrote, refusedCount int
	for i := 0; i < 400 || (s.swaps.Load() < 100 || wrote < 100 || refusedCount < 10) && i < 20000; i++ {
		for _, p := range []string{"d/secret.txt", fmt.Sprintf("d/new-%d.txt", i), "f.txt"} {
			r := call(d, "write", map[string]any{"path": p, "content": fmt.Sprintf("agent %d\n", i)})
			if r.IsError {
				refusedCount++
			} else {
				wrote++
			}
			if strings.Contains(r.Text, outsideSecret) {
				t.Fatalf("write %s answered with the outside file: %q", p, r.Text)
			}
		}
		for _, p := range []string{"d/secret.txt", "f.txt"} {
			r := call(d, "read", map[string]any{"path": p})
			if strings.Contains(r.Text, outsideSecret) {
				t.Fatalf("read %s returned the file outside: %q", p, r.Text)
			}
			r = call(d, "edit", map[string]any{"path": p, "before": "agent", "after": "agent"})
			if strings.Contains(r.Text, outsideSecret) {
				t.Fatalf("edit %s saw the file outside: %q", p, r.Text)
			}
		}
	}
	s.halt()
	t.Logf("%d swaps, %d writes done, %d refused", s.swaps.Load(), wrote, refusedCount)
	if s.swaps.Load() == 0 || wrote == 0 || refusedCount == 0 {
		t.Fatalf("the race did not happen: %d swaps, %d writes", s.swaps.Load(), wrote)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "elsewhere", "secret.txt")); string(data) != "elsewhere\n" {
		t.Errorf("a write went through a link inside the workspace: elsewhere/secret.txt = %q", data)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "elsewhere"))
	if len(entries) != 1 {
		t.Errorf("files were created through a link inside the workspace: %d entries in elsewhere/", len(entries))
	}
	untouched()
}

// The os.Root reads alone (no write-side walk): a folder swapped for a link out is never read through.
func TestReadsRaceWithFolderSwappedForLinkOut(t *testing.T) {
	root, outside, untouched := sandbox(t)
	files := openFiles(t, root)
	writeFiles(t, root, map[string]string{"d/secret.txt": "inside\n"})
	var s swapper
	s.run(root, "d", []string{outside})
	reads, failed := 0, 0
	for i := 0; i < 2000 || (s.swaps.Load() < 100 || reads < 100 || failed < 10) && i < 200000; i++ {
		data, err := files.ReadFile("d/secret.txt", MaxReadBytes)
		if err == nil {
			reads++
		} else {
			failed++
		}
		if strings.Contains(string(data), outsideSecret) {
			s.halt()
			t.Fatalf("read the file outside: %q", data)
		}
	}
	s.halt()
	t.Logf("%d swaps, %d reads done, %d refused", s.swaps.Load(), reads, failed)
	if s.swaps.Load() == 0 || reads == 0 || failed == 0 {
		t.Fatalf("the race did not happen: %d swaps, %d reads done, %d refused", s.swaps.Load(), reads, failed)
	}
	untouched()
}
