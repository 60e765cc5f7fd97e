//go:build !windows

// Tests for the shell tool: output, exit codes, timeouts, cancellation of whole process groups,
// truncation.
package tools

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

func TestShellTruncation(t *testing.T) {
	r := Shell(context.Background(), t.TempDir(), "seq 1 3000", 10*time.Second, nil)
	if r.IsError || !strings.Contains(r.Text, "[Output exceeded 2000 line limit (3001 lines total). Full output saved to ") || !strings.HasPrefix(r.Text, "2952\n") {
		t.Errorf("truncation: %.200q", r.Text)
	}
}
