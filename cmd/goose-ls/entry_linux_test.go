// goose-ls's own ELF entry (internal/earlyexec/entry_linux_*.s), in goose-ls as released: the agent's
// commands exec goose-ls-agent before the Go runtime starts, on exactly the arguments IsAgentCommand
// accepts, and every other path (another command, no agent, an agent that cannot run) continues into
// goose-ls unharmed. The host's architecture runs natively (testbin.Build links the entry); on an amd64
// host the arm64 entry runs under qemu-aarch64 (user-mode emulation: its execve of the stand-in agent, a
// shell script, is the host's).

package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/cmd/goose-ls/internal/earlyexec"
	"github.com/goose-ls/goose-ls/internal/testbin"
)

// fakeAgent prints the path it was run as ($0 of a script is the path given to exec) and its arguments.
const fakeAgent = "#!/bin/sh\necho \"agent $0 $*\"\n"

// entryBuild is goose-ls with its own entry for one architecture, and the emulator that runs it ("" for
// the host's own).
type entryBuild struct {
	arch, bin, emulator string
}

var (
	arm64Once sync.Once
	arm64Bin  string
	arm64Err  string
)

// entryBuilds are the architectures whose entry can run here: the host's, and arm64 on amd64.
func entryBuilds(t *testing.T) []entryBuild {
	t.Helper()
	var builds []entryBuild
	if len(testbin.GooseLSLinkFlags()) > 0 {
		builds = append(builds, entryBuild{arch: runtime.GOARCH, bin: testbin.Build(t).GooseLS})
	}
	if runtime.GOARCH != "amd64" {
		return builds
	}
	qemu, err := exec.LookPath("qemu-aarch64")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("qemu-aarch64 is missing; .ci/run must install qemu-user")
		}
		t.Log("qemu-aarch64 is missing (apt-get install qemu-user): the arm64 entry is not run")
		return builds
	}
	arm64Once.Do(func() {
		dir, err := os.MkdirTemp("", "goosels-arm64")
		if err != nil {
			arm64Err = err.Error()
			return
		}
		out := filepath.Join(dir, "goose-ls")
		args := append([]string{"build", "-o", out}, testbin.EntryLinkFlags("linux", "arm64")...)
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=arm64")
		if msg, err := cmd.CombinedOutput(); err != nil {
			arm64Err = "go build (linux/arm64): " + err.Error() + "\n" + string(msg)
			return
		}
		arm64Bin = out
	})
	if arm64Err != "" {
		t.Fatal(arm64Err)
	}
	return append(builds, entryBuild{arch: "arm64", bin: arm64Bin, emulator: qemu})
}

// installBeside puts the goose-ls binary bin in a new folder and, when agent is not "", a goose-ls-agent with
// that text and mode beside it; it returns the folder.
func installBeside(t *testing.T, bin, agent string, mode os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "goose-ls"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if agent != "" {
		if err := os.WriteFile(filepath.Join(dir, "goose-ls-agent"), []byte(agent), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run runs bin (b's goose-ls, installed) with args and env (the test's environment when nil) under
// GODEBUG=inittrace=1: runtimeStarted says whether any Go package of goose-ls initialised.
func (b entryBuild) run(t *testing.T, bin string, env []string, args ...string) (stdout, stderr string, runtimeStarted bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if b.emulator != "" {
		cmd = exec.Command(b.emulator, append([]string{bin}, args...)...)
	}
	cmd.Env = append(append([]string{}, env...), "GODEBUG=inittrace=1")
	if env == nil {
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	}
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	return out.String(), errb.String(), strings.Contains(errb.String(), "init runtime @")
}

func TestEntryExecsTheAgentBeforeTheRuntime(t *testing.T) {
	for _, b := range entryBuilds(t) {
		dir := installBeside(t, b.bin, fakeAgent, 0o755)
		bin, agent := filepath.Join(dir, "goose-ls"), filepath.Join(dir, "goose-ls-agent")
		for _, args := range [][]string{{"run", "--prompt", "hi"}, {"run", "r.yaml", "--no-session"}, {"run", "explain.yaml"},
			{"run", "-", "--", "x"}, {"acp", "--debug"}, {"acp"}, {"sessions"}, {"sessions", "abc"}} {
			stdout, stderr, started := b.run(t, bin, nil, args...)
			if want := "agent " + agent + " " + strings.Join(args, " ") + "\n"; stdout != want {
				t.Errorf("%s %q: stdout %q, want %q (stderr %q)", b.arch, args, stdout, want, stderr)
			}
			if started {
				t.Errorf("%s %q: the Go runtime started before the agent was run:\n%s", b.arch, args, stderr)
			}
		}
		// through a symlink, as a package manager installs it: the agent beside the real file
		link := filepath.Join(t.TempDir(), "goose-ls")
		if err := os.Symlink(bin, link); err != nil {
			t.Fatal(err)
		}
		if stdout, _, started := b.run(t, link, nil, "sessions"); stdout != "agent "+agent+" sessions\n" || started {
			t.Errorf("%s through a symlink: stdout %q, runtime started %v", b.arch, stdout, started)
		}
	}
}

func TestEntryLeavesGooseLSCommandsToTheRuntime(t *testing.T) {
	for _, b := range entryBuilds(t) {
		bin := filepath.Join(installBeside(t, b.bin, fakeAgent, 0o755), "goose-ls")
		for _, args := range [][]string{{"version"}, {}, {"check", "missing.yaml"}, {"run", "missing.yaml", "--explain"},
			{"run", "-explain=1", "missing.yaml"}, {"run", "--render-recipe", "missing.yaml"}, {"runner"}, {"ru"}, {"acpx"}} {
			stdout, stderr, started := b.run(t, bin, nil, args...)
			if strings.Contains(stdout, "agent ") || !started {
				t.Errorf("%s %q: stdout %q, runtime started %v (stderr %q)", b.arch, args, stdout, started, stderr)
			}
		}
		if stdout, _, _ := b.run(t, bin, nil, "version"); !strings.HasPrefix(stdout, "goose-ls ") {
			t.Errorf("%s version after the entry's checks: %q", b.arch, stdout)
		}
	}
}

func TestEntryDecidesAsIsAgentCommand(t *testing.T) {
	pieces := []string{"run", "acp", "sessions", "check", "", "-", "--", "---explain", "--explain", "-explain=1",
		"--explainer", "explain", "--render-recipe", "-render-recipe=x", "--render-recip", "render-recipe", "--prompt",
		"r.yaml", "runner", "ru", "run\u00e9", "-e", "--ex", "--no-session"}
	for _, b := range entryBuilds(t) {
		bin := filepath.Join(installBeside(t, b.bin, fakeAgent, 0o755), "goose-ls")
		seed := rand.Uint64()
		t.Logf("%s: seed %d", b.arch, seed)
		rng := rand.New(rand.NewPCG(seed, 0))
		cases := 60
		if b.emulator != "" {
			cases = 20 // a Go start under emulation takes ~0.3 s
		}
		for range cases {
			args := make([]string, 1+rng.IntN(4))
			for i := range args {
				args[i] = pieces[rng.IntN(len(pieces))]
			}
			if rng.IntN(3) < 2 { // most lists start with one of the agent's commands
				args[0] = []string{"run", "acp", "sessions"}[rng.IntN(3)]
			}
			stdout, _, started := b.run(t, bin, nil, args...)
			byEntry := strings.HasPrefix(stdout, "agent ") && !started
			if want := earlyexec.IsAgentCommand(args); byEntry != want {
				t.Errorf("%s %q: the entry execed the agent %v, IsAgentCommand says %v (stdout %q)", b.arch, args, byEntry, want, stdout)
			}
		}
	}
}

func TestEntryFallsBackWhenTheAgentCannotRun(t *testing.T) {
	for _, b := range entryBuilds(t) {
		// none beside and none on PATH: goose-ls starts and says so in its own words
		bin := filepath.Join(installBeside(t, b.bin, "", 0), "goose-ls")
		_, stderr, started := b.run(t, bin, []string{"PATH=" + t.TempDir()}, "run", "--prompt", "hi")
		if !started || !strings.Contains(stderr, "goose-ls-agent is neither beside goose-ls nor on PATH") {
			t.Errorf("%s, no agent: runtime started %v, stderr %q", b.arch, started, lastLines(stderr))
		}
		// one beside that cannot be executed: the entry's exec fails, goose-ls's fails the same way and reports it
		bin = filepath.Join(installBeside(t, b.bin, fakeAgent, 0o644), "goose-ls")
		stdout, stderr, started := b.run(t, bin, nil, "sessions")
		if !started || stdout != "" || !strings.Contains(stderr, "permission denied") {
			t.Errorf("%s, agent not executable: runtime started %v, stdout %q, stderr %q", b.arch, started, stdout, lastLines(stderr))
		}
	}
}

// lastLines is a traced stderr without the init trace.
func lastLines(stderr string) string {
	lines := slices.DeleteFunc(strings.Split(stderr, "\n"), func(l string) bool { return strings.HasPrefix(l, "init ") })
	return strings.Join(lines, "\n")
}
