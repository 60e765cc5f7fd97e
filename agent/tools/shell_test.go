//go:build !windows

// Tests for the shell tool: output, exit codes, timeouts, cancellation of whole process groups,
// truncation.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func TestShellOutputAndExitCode(t *testing.T) {
	dir := t.TempDir()
	r := Shell(context.Background(), dir, "echo out; echo err >&2; pwd", 10*time.Second, nil)
	if r.IsError || !strings.Contains(r.Text, "out") || !strings.Contains(r.Text, "err") || !strings.Contains(r.Text, dir) {
		t.Errorf("output: %+v", r)
	}
	r = Shell(context.Background(), dir, "exit 3", 10*time.Second, nil)
	if !r.IsError || r.Text != "(no output)\n\nCommand exited with code 3" {
		t.Errorf("exit code: %+v", r)
	}
	if r := Shell(context.Background(), dir, "  ", 0, nil); !r.IsError || r.Text != "Command cannot be empty." {
		t.Errorf("empty: %+v", r)
	}
}

func TestShellTimeoutKillsGroup(t *testing.T) {
	dir := t.TempDir()
	r := Shell(context.Background(), dir, "sleep 30 & echo $! > child.pid; sleep 30; echo never", 300*time.Millisecond, nil)
	if !r.IsError || !strings.HasSuffix(r.Text, "Command timed out after 0 seconds") {
		t.Errorf("timeout: %+v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	// the background child must be gone (signal 0 probes for existence)
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("background child %d survived the timeout", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestShellCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() { done <- Shell(ctx, t.TempDir(), "sleep 30", 60*time.Second, nil) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case r := <-done:
		if !r.IsError || !strings.Contains(r.Text, "Command cancelled.") {
			t.Errorf("cancel: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("cancellation did not stop the command")
	}
}

// BenchmarkShellCancel measures cancel → Shell returns with the child group killed (goal: < 200 ms).
func BenchmarkShellCancel(b *testing.B) {
	dir := b.TempDir()
	var worst time.Duration
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { Shell(ctx, dir, "sleep 30 & sleep 30", time.Minute, nil); close(done) }()
		time.Sleep(20 * time.Millisecond)
		t0 := time.Now()
		cancel()
		<-done
		worst = max(worst, time.Since(t0))
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

func TestShellTruncationWithoutSaving(t *testing.T) {
	r := Shell(context.Background(), t.TempDir(), "seq 1 3000", 10*time.Second, nil)
	// goose's count: the output's lines without the last newline
	if r.IsError || !strings.HasPrefix(r.Text, "2951\n") || !strings.HasSuffix(r.Text, "3000\n\n[Output exceeded 2000 line limit (3000 lines total). The full output was not kept.]") {
		t.Errorf("truncation: %.200q", r.Text)
	}
}

var savedTo = regexp.MustCompile(`Full output saved to (\S+)\. Read`)

func TestShellOverflowGoesToAPrivateRunFolderRemovedAtClose(t *testing.T) {
	d := &Developer{WS: Disk{Dir: t.TempDir()}, WrapSave: func(save SaveFunc) SaveFunc {
		return func(text string) (string, error) { return save(strings.ReplaceAll(text, "\n2999\n", "\n[wrapped]\n")) }
	}}
	r := d.Call(context.Background(), "shell", json.RawMessage(`{"command":"seq 1 3000"}`))
	if r.IsError || !strings.HasPrefix(r.Text, "2951\n") || !strings.Contains(r.Text, "[Output exceeded 2000 line limit (3000 lines total). Full output saved to ") {
		t.Fatalf("truncation: %.300q", r.Text)
	}
	m := savedTo.FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("no saved path in %q", r.Text[len(r.Text)-300:])
	}
	saved, dir := m[1], d.OutputDir()
	if dir == "" || filepath.Dir(saved) != dir {
		t.Fatalf("saved to %s, the run's folder is %q", saved, dir)
	}
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("folder %s: %v, mode %v", dir, err, st.Mode())
	}
	if st, err := os.Stat(saved); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file %s: %v, mode %v", saved, err, st.Mode())
	}
	data, err := os.ReadFile(saved)
	if err != nil || !strings.HasPrefix(string(data), "1\n2\n") || !strings.HasSuffix(string(data), "\n2998\n[wrapped]\n3000") {
		t.Errorf("saved text (through WrapSave): %v %.40q…%q", err, data, data[max(0, len(data)-30):])
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the run's output folder survived Close: %v", err)
	}
}

// One line too long for the model: goose keeps the last 50 lines (here the one line) and then only their
// last 10,000 bytes, cut at a character's start; the whole line is saved.
func TestShellOneHugeLine(t *testing.T) {
	d := &Developer{WS: Disk{Dir: t.TempDir()}}
	defer d.Close()
	// 5 + 237992 + 6000 × 2 + 3 = 250000 bytes and a newline; the last 10,000 bytes start inside an é
	r := d.Call(context.Background(), "shell", json.RawMessage(`{"command":"printf BEGIN; head -c 237992 /dev/zero | tr '\\0' x; yes é | head -n 6000 | tr -d '\\n'; printf 'END\\n'"}`))
	preview, notice, ok := strings.Cut(r.Text, "\n\n")
	if !ok || r.IsError {
		t.Fatalf("%.200q", r.Text)
	}
	if len(preview) != 9999 || !strings.HasPrefix(preview, "éé") || !strings.HasSuffix(preview, "ééEND") || !utf8.ValidString(preview) {
		t.Errorf("preview %d bytes: %.40q…%q", len(preview), preview, preview[max(0, len(preview)-20):])
	}
	m := savedTo.FindStringSubmatch(notice)
	if !strings.HasPrefix(notice, "[Output exceeded 50000 byte limit (250000 bytes total). Full output saved to ") || m == nil {
		t.Fatalf("notice %q", notice)
	}
	data, err := os.ReadFile(m[1])
	if err != nil || len(data) != 250000 || !strings.HasPrefix(string(data), "BEGINxxx") || !strings.HasSuffix(string(data), "ééEND") {
		t.Errorf("saved %d bytes: %v", len(data), err)
	}
}
