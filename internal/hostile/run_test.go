//go:build linux

// Running the built binary under limits: an address-space cap, a watchdog, peak RSS read from rusage.

package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// addressSpaceKiB caps the process's virtual memory so a runaway allocation fails instead of taking the
	// machine (the Go runtime reserves about 1 GiB of address space at start and more as its heap grows, so
	// the cap sits well above that; the budget asserted is memBudget, on peak resident memory).
	addressSpaceKiB = 4 << 20
	// memBudget is the peak resident memory allowed for any input (issue 11: 256 MiB).
	memBudget = 256 << 20
	// watchdog ends a process that hangs; a case that reaches it fails as "hung". Timing goals (2 s per
	// file) are measured by BenchmarkHostileCheck, not asserted here.
	watchdog = 60 * time.Second
)

// binary is the goose-ls built once for the whole suite.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "goose-ls-hostile-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "goose-ls")
	build := exec.Command("go", "build", "-o", binary, "github.com/goose-ls/goose-ls/cmd/goose-ls")
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as released
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// limited is a command running goose-ls (through testdata/limit.py: a real fork, so the peak resident
// memory measured is goose-ls's own; Go's os/exec spawns with vfork, whose child inherits the test
// binary's peak) under the address-space cap, in dir, with the marker in its
// environment (so /proc/self/environ holds it) and on a standard input that never ends.
type limited struct {
	cmd    *exec.Cmd
	stdin  *os.File // the CLI's is kept open, so reading /dev/stdin would block, not end
	ctx    context.Context
	cancel context.CancelFunc
	stderr bytes.Buffer
	start  time.Time
}

// startLimited starts goose-ls with args; stdout receives its standard output; with marked, the marker is
// written to its standard input first (the CLI), otherwise the caller writes to l.stdin (the server).
func startLimited(t testing.TB, dir string, stdout io.Writer, marked bool, args ...string) *limited {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), watchdog)
	wrapper, err := filepath.Abs(filepath.Join("testdata", "limit.py"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "python3", append([]string{wrapper, strconv.Itoa(addressSpaceKiB << 10), binary}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "HOSTILE_SECRET=" + marker, "GOOSE_PATH_ROOT=" + filepath.Join(dir, ".goose-root")}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if marked {
		fmt.Fprintln(w, marker)
	}
	cmd.Stdin = r
	l := &limited{cmd: cmd, stdin: w, ctx: ctx, cancel: cancel}
	cmd.Stdout = stdout
	cmd.Stderr = &l.stderr
	l.start = time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	return l
}

// result is how a limited process ended.
type result struct {
	exit    int // -1: killed by a signal (the watchdog, or a crash)
	signal  string
	hung    bool
	maxRSS  int64 // bytes
	elapsed time.Duration
	stderr  string
}

func (l *limited) wait() result {
	err := l.cmd.Wait()
	res := result{elapsed: time.Since(l.start), stderr: l.stderr.String()}
	l.stdin.Close()
	res.hung = errors.Is(l.ctx.Err(), context.DeadlineExceeded)
	l.cancel()
	if st := l.cmd.ProcessState; st != nil {
		res.exit = st.ExitCode()
	} else if err != nil {
		res.exit = -1
		res.signal = err.Error()
	}
	// the wrapper's last lines: the peak, and the signal that ended goose-ls
	if m := peakRE.FindStringSubmatch(res.stderr); m != nil {
		kib, _ := strconv.ParseInt(m[1], 10, 64)
		res.maxRSS = kib << 10
		res.stderr = res.stderr[:strings.LastIndex(res.stderr, "\nhostile-peak-rss-kib=")]
	}
	if m := signalRE.FindStringSubmatch(l.stderr.String()); m != nil {
		n, _ := strconv.Atoi(m[1])
		res.signal = syscall.Signal(n).String()
		res.exit = -1
	}
	return res
}

var (
	peakRE   = regexp.MustCompile(`\nhostile-peak-rss-kib=(\d+)\n`)
	signalRE = regexp.MustCompile(`\nhostile-signal=(\d+)\n`)
)

// checkBounded fails the test when a process crashed, hung or went over the memory budget.
func checkBounded(t testing.TB, what string, res result) {
	t.Helper()
	switch {
	case res.hung:
		t.Errorf("%s: hung (killed by the %s watchdog)", what, watchdog)
	case res.signal != "":
		t.Errorf("%s: killed by %s\n%s", what, res.signal, tail(res.stderr))
	case strings.Contains(res.stderr, "fatal error:") || strings.Contains(res.stderr, "panic:") || strings.Contains(res.stderr, "goroutine "):
		t.Errorf("%s: crashed\n%s", what, tail(res.stderr))
	}
	if res.maxRSS > memBudget {
		t.Errorf("%s: peak RSS %d MiB, budget %d MiB", what, res.maxRSS>>20, memBudget>>20)
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// noMarker fails when text holds the marker planted outside the workspace.
func noMarker(t testing.TB, what, text string) {
	t.Helper()
	if i := strings.Index(text, marker); i >= 0 {
		lo, hi := max(0, i-200), min(len(text), i+200)
		t.Errorf("%s: content from outside the workspace leaked: …%s…", what, text[lo:hi])
	}
}

// workspace makes ws and its sibling outside folder in a fresh temporary folder.
func workspace(t testing.TB) (ws, outside string) {
	root := t.TempDir()
	ws, outside = filepath.Join(root, "ws"), filepath.Join(root, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return ws, outside
}
