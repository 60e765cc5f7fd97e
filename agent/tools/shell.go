// The shell tool: runs a command in the workspace with a timeout, kills the whole process group on
// timeout or cancellation, and truncates long output the way goose does (the full text goes to a file).

package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/proc"
)

const (
	// DefaultShellTimeout is goose's default extension timeout.
	DefaultShellTimeout = 300 * time.Second
	maxLines            = 2000
	maxBytes            = 50000
	tailLines           = 50
	tailBytes           = 10000
	captureLimit        = 10 << 20
)

// lockedBuffer interleaves stdout and stderr in arrival order, keeping at most captureLimit bytes.
type lockedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	dropped int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := captureLimit - l.b.Len(); room < len(p) {
		if room > 0 {
			l.b.Write(p[:room])
		}
		l.dropped += len(p) - max(room, 0)
		return len(p), nil
	}
	return l.b.Write(p)
}

// Shell runs command with sh (or $GOOSE_SHELL, else bash when present) in dir. env is the environment
// the command gets (nil: the current one). Output too long for the model is truncated and not kept.
func Shell(ctx context.Context, dir, command string, timeout time.Duration, env []string) Result {
	return RunShell(ctx, dir, command, timeout, env, nil)
}

// RunShell is Shell handing the full text of output too long for the model to save (nil: not kept).
func RunShell(ctx context.Context, dir, command string, timeout time.Duration, env []string, save SaveFunc) Result {
	if strings.TrimSpace(command) == "" {
		return errorf("Command cannot be empty.")
	}
	if timeout <= 0 {
		timeout = DefaultShellTimeout
	}
	_, bashErr := exec.LookPath("bash")
	sh, args, err := proc.Shell(runtime.GOOS, os.Getenv("GOOSE_SHELL"), bashErr == nil, command)
	if err != nil {
		return errorf("%v", err)
	}
	cmd := exec.Command(sh, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	proc.Detach(cmd)
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 500 * time.Millisecond
	if err := cmd.Start(); err != nil {
		return errorf("Failed to start %s: %v", sh, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	kill := func() { proc.Kill(cmd) }
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	timedOut, cancelled := false, false
	select {
	case err = <-done:
	case <-timer.C:
		timedOut = true
		kill()
		err = <-done
	case <-ctx.Done():
		cancelled = true
		kill()
		err = <-done
	}
	// goose collects the output line by line and joins the lines with "\n": the last newline is not part
	// of it
	text := strings.TrimSuffix(out.b.String(), "\n")
	if out.dropped > 0 {
		text += fmt.Sprintf("\n[Capture limit reached: %d bytes dropped. Showing the beginning and end of the output.]", out.dropped)
	}
	res := Result{Text: truncateOutput(text, save)}
	if res.Text == "" {
		res.Text = "(no output)"
	}
	switch {
	case cancelled:
		res.IsError = true
		res.Text += "\n\nCommand cancelled."
	case timedOut:
		res.IsError = true
		res.Text += fmt.Sprintf("\n\nCommand timed out after %d seconds", int(timeout.Seconds()))
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			res.IsError = true
			res.Text += fmt.Sprintf("\n\nCommand exited with code %d", ee.ExitCode())
		} else if errors.Is(err, exec.ErrWaitDelay) {
			res.Text += "\n\nOutput may be incomplete because stream draining timed out after process exit."
		} else {
			res.IsError = true
			res.Text += "\n\n" + err.Error()
		}
	}
	return res
}

// truncateOutput keeps the last 50 lines of output over goose's limits (at most their last 10,000 bytes:
// one huge line does not reach the model whole) and hands the whole text to save.
func truncateOutput(text string, save SaveFunc) string {
	lines := strings.Count(text, "\n") + 1
	if lines <= maxLines && len(text) <= maxBytes {
		return text
	}
	limit := fmt.Sprintf("%d line limit (%d lines total)", maxLines, lines)
	if lines <= maxLines {
		limit = fmt.Sprintf("%d byte limit (%d bytes total)", maxBytes, len(text))
	}
	notice := fmt.Sprintf("[Output exceeded %s. The full output was not kept.]", limit)
	if save != nil {
		if saved, err := save(text); err != nil {
			slog.Warn("shell: the full output could not be saved", "err", err)
		} else {
			notice = fmt.Sprintf("[Output exceeded %s. Full output saved to %s. Read it with shell commands like `head`, `tail`, or `sed -n '100,200p'` up to %d lines at a time.]", limit, saved, maxLines)
		}
	}
	all := strings.Split(text, "\n")
	tail := strings.Join(all[max(0, len(all)-tailLines):], "\n")
	if len(tail) > tailBytes { // a few huge lines: the last tailBytes, from a character's start
		start := len(tail) - tailBytes
		for start < len(tail) && !utf8.RuneStart(tail[start]) {
			start++
		}
		tail = tail[start:]
	}
	return tail + "\n\n" + notice
}
