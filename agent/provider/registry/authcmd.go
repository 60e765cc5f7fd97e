// A provider's `auth` command at run time: the credential is the command's standard output, kept for
// refresh_interval seconds and fetched again after an authentication failure (goose's
// CommandAuthProvider), and the HTTP transport that puts it on every request.

package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/proc"
)

const (
	// DefaultAuthTimeout is how long goose lets an auth command run.
	DefaultAuthTimeout = 10 * time.Second
	// maxAuthStderr is how much of a failing command's standard error goose quotes (bytes).
	maxAuthStderr = 500
	// maxAuthOutput bounds what goose-ls reads of a command's output (goose reads all of it); a
	// credential is a few KiB at most.
	maxAuthOutput = 1 << 20
)

// CommandAuth fetches and caches the credential of one provider's auth command. It is safe for
// concurrent use; requests wait while the command runs.
type CommandAuth struct {
	command string
	args    []string
	cwd     string // absolute: the command's folder and the base of a relative command path
	refresh time.Duration
	timeout time.Duration
	header  string // e.g. "Authorization"
	prefix  string // e.g. "Bearer "

	mu       sync.Mutex
	token    string
	fetched  time.Time
	have     bool
	watchers []func(...string)
}

// NewCommandAuth prepares cfg's command; the credential goes into header as prefix+credential. A
// relative cwd is taken from goose-ls's current folder now, once.
func NewCommandAuth(cfg AuthConfig, header, prefix string) *CommandAuth {
	cwd := "."
	if cfg.Cwd != nil {
		cwd = *cfg.Cwd
	}
	if !filepath.IsAbs(cwd) {
		if wd, err := os.Getwd(); err == nil {
			cwd = filepath.Join(wd, cwd)
		}
	}
	timeout := DefaultAuthTimeout
	if cfg.TimeoutSeconds != nil {
		timeout = time.Duration(min(*cfg.TimeoutSeconds, 1<<31)) * time.Second
	}
	return &CommandAuth{command: cfg.Command, args: cfg.Args, cwd: cwd, timeout: timeout,
		refresh: time.Duration(min(cfg.RefreshInterval, 1<<31)) * time.Second, header: header, prefix: prefix}
}

// fresh: a refresh interval of 0 keeps the credential until Invalidate.
func (a *CommandAuth) fresh() bool {
	return a.have && (a.refresh == 0 || time.Since(a.fetched) < a.refresh)
}

// Header is the header to send: the cached credential while fresh, else the command runs again. A
// failing command is an error (never the stale credential, which would only come back as a 401).
func (a *CommandAuth) Header(ctx context.Context) (name, value string, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.fresh() {
		token, err := a.fetch(ctx)
		if err != nil {
			return "", "", err
		}
		a.token, a.fetched, a.have = token, time.Now(), true
		for _, report := range a.watchers { // before the credential is sent anywhere
			report(token)
		}
	}
	return a.header, a.prefix + a.token, nil
}

// Watch registers report to receive every credential the command prints, as it is fetched (and the
// one held now, at once): a run's redactor.
func (a *CommandAuth) Watch(report func(...string)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.watchers = append(a.watchers, report)
	if a.have {
		report(a.token)
	}
}

// Invalidate drops the credential: the next request runs the command again.
func (a *CommandAuth) Invalidate() {
	a.mu.Lock()
	a.have, a.token = false, ""
	a.mu.Unlock()
}

// program is goose's resolve_program: an absolute path as it is, a path of several parts under cwd, a
// bare name looked up in PATH.
func (a *CommandAuth) program() string {
	if filepath.IsAbs(a.command) || !strings.ContainsAny(a.command, `/`+string(filepath.Separator)) {
		return a.command
	}
	return filepath.Join(a.cwd, a.command)
}

// cappedBuffer keeps at most maxAuthOutput bytes and remembers that more came.
type cappedBuffer struct {
	bytes.Buffer
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if room := maxAuthOutput - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

// fetch runs the command directly (no shell), stdin closed, in its own process group killed whole on
// timeout; its trimmed standard output is the credential. Error texts are goose's and never quote the
// standard output.
func (a *CommandAuth) fetch(ctx context.Context) (string, error) {
	cmd := exec.Command(a.program(), a.args...)
	cmd.Dir = a.cwd
	var stdout, stderr cappedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	proc.Detach(cmd)
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("failed to run auth command '%s': %v", a.command, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(a.timeout)
	defer timer.Stop()
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		proc.Kill(cmd)
		<-done
		return "", fmt.Errorf("auth command '%s' timed out after %s", a.command, rustDuration(a.timeout))
	case <-ctx.Done():
		proc.Kill(cmd)
		<-done
		return "", ctx.Err()
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return "", fmt.Errorf("auth command '%s' exited with %s: %s", a.command, exitStatus(exitErr.ProcessState), truncateUTF8(strings.ToValidUTF8(stderr.String(), "\uFFFD"), maxAuthStderr))
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return "", fmt.Errorf("failed to run auth command '%s': %v", a.command, err)
	case stdout.over:
		return "", fmt.Errorf("auth command '%s' wrote more than %d bytes to stdout", a.command, maxAuthOutput)
	case !utf8.Valid(stdout.Bytes()):
		return "", fmt.Errorf("auth command '%s' wrote non-UTF-8 data to stdout", a.command)
	}
	token := strings.TrimSpace(stdout.String())
	if token == "" {
		return "", fmt.Errorf("auth command '%s' produced an empty credential", a.command)
	}
	return token, nil
}

// exitStatus is how Rust prints an ExitStatus.
func exitStatus(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if name := signalName(ws.Signal()); name != "" {
			return fmt.Sprintf("signal: %d (%s)", int(ws.Signal()), name)
		}
		return fmt.Sprintf("signal: %d", int(ws.Signal()))
	}
	if runtime.GOOS == "windows" {
		return fmt.Sprintf("exit code: %d", ps.ExitCode())
	}
	return fmt.Sprintf("exit status: %d", ps.ExitCode())
}

// rustDuration is a whole number of seconds as Rust's Duration debug output prints it ("10s", "0ns").
func rustDuration(d time.Duration) string {
	if d == 0 {
		return "0ns"
	}
	return fmt.Sprintf("%ds", int64(d/time.Second))
}

// truncateUTF8 cuts s to at most n bytes on a character boundary.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Transport puts the credential on every request through base; an authentication failure (401, 403)
// drops it, and the request goes once more with a fresh one, as goose retries after refreshing.
func (a *CommandAuth) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &authTransport{auth: a, base: base}
}

type authTransport struct {
	auth *CommandAuth
	base http.RoundTripper
}

func (t *authTransport) send(req *http.Request) (*http.Response, error) {
	name, value, err := t.auth.Header(req.Context())
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	out := req.Clone(req.Context())
	out.Header.Set(name, value)
	return t.base.RoundTrip(out)
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.send(req)
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	if req.Body != nil && req.GetBody == nil {
		return resp, nil // the body cannot be sent twice
	}
	retry := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return resp, nil
		}
		retry.Body = body
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	t.auth.Invalidate()
	return t.send(retry)
}
