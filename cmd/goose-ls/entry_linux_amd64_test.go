// goose-ls's own ELF entry (internal/earlyexec/entry_linux_amd64.s), in goose-ls as released
// (testbin.Build links it with testbin.GooseLSLinkFlags): the agent's commands exec goose-ls-agent before
// the Go runtime starts, on exactly the arguments IsAgentCommand accepts, and every other path (another
// command, no agent, an agent that cannot run) continues into goose-ls unharmed.

package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/cmd/goose-ls/internal/earlyexec"
	"github.com/goose-ls/goose-ls/internal/testbin"
)

// fakeAgent prints the path it was run as ($0 of a script is the path given to exec) and its arguments.
const fakeAgent = "#!/bin/sh\necho \"agent $0 $*\"\n"

// installedWithEntry is a folder with the released goose-ls and, when agent is not "", a goose-ls-agent
// with that text and mode beside it.
func installedWithEntry(t *testing.T, agent string, mode os.FileMode) string {
	t.Helper()
	if len(testbin.GooseLSLinkFlags()) == 0 {
		t.Fatal("goose-ls is released with its own entry on linux/amd64, but testbin.GooseLSLinkFlags has no flags")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(testbin.Build(t).GooseLS)
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

// runTraced runs bin with args and env (the test's environment when nil) under GODEBUG=inittrace=1:
// runtimeStarted says whether any Go package of goose-ls initialised.
func runTraced(t *testing.T, bin string, env []string, args ...string) (stdout, stderr string, runtimeStarted bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
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
	dir := installedWithEntry(t, fakeAgent, 0o755)
	bin, agent := filepath.Join(dir, "goose-ls"), filepath.Join(dir, "goose-ls-agent")
	for _, args := range [][]string{{"run", "--prompt", "hi"}, {"run", "r.yaml", "--no-session"}, {"run", "explain.yaml"},
		{"run", "-", "--", "x"}, {"acp", "--debug"}, {"acp"}, {"sessions"}, {"sessions", "abc"}} {
		stdout, stderr, started := runTraced(t, bin, nil, args...)
		if want := "agent " + agent + " " + strings.Join(args, " ") + "\n"; stdout != want {
			t.Errorf("%q: stdout %q, want %q (stderr %q)", args, stdout, want, stderr)
		}
		if started {
			t.Errorf("%q: the Go runtime started before the agent was run:\n%s", args, stderr)
		}
	}
	// through a symlink, as a package manager installs it: the agent beside the real file
	link := filepath.Join(t.TempDir(), "goose-ls")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	if stdout, _, started := runTraced(t, link, nil, "sessions"); stdout != "agent "+agent+" sessions\n" || started {
		t.Errorf("through a symlink: stdout %q, runtime started %v", stdout, started)
	}
}

func TestEntryLeavesGooseLSCommandsToTheRuntime(t *testing.T) {
	dir := installedWithEntry(t, fakeAgent, 0o755)
	bin := filepath.Join(dir, "goose-ls")
	for _, args := range [][]string{{"version"}, {}, {"check", "missing.yaml"}, {"run", "missing.yaml", "--explain"},
		{"run", "-explain=1", "missing.yaml"}, {"run", "--render-recipe", "missing.yaml"}, {"runner"}, {"ru"}, {"acpx"}} {
		stdout, stderr, started := runTraced(t, bin, nil, args...)
		if strings.Contains(stdout, "agent ") || !started {
			t.Errorf("%q: stdout %q, runtime started %v (stderr %q)", args, stdout, started, stderr)
		}
	}
	if stdout, _, _ := runTraced(t, bin, nil, "version"); !strings.HasPrefix(stdout, "goose-ls ") {
		t.Errorf("version after the entry's checks: %q", stdout)
	}
}

func TestEntryDecidesAsIsAgentCommand(t *testing.T) {
	dir := installedWithEntry(t, fakeAgent, 0o755)
	bin := filepath.Join(dir, "goose-ls")
	pieces := []string{"run", "acp", "sessions", "check", "", "-", "--", "---explain", "--explain", "-explain=1",
		"--explainer", "explain", "--render-recipe", "-render-recipe=x", "--render-recip", "render-recipe", "--prompt",
		"r.yaml", "runner", "ru", "run\u00e9", "-e", "--ex", "--no-session"}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	for range 80 {
		args := make([]string, 1+rng.IntN(4))
		for i := range args {
			args[i] = pieces[rng.IntN(len(pieces))]
		}
		if i := rng.IntN(3); i < 2 { // most lists start with one of the agent's commands
			args[0] = []string{"run", "acp", "sessions"}[rng.IntN(3)]
		}
		stdout, _, started := runTraced(t, bin, nil, args...)
		byEntry := strings.HasPrefix(stdout, "agent ") && !started
		if want := earlyexec.IsAgentCommand(args); byEntry != want {
			t.Errorf("%q: the entry execed the agent %v, IsAgentCommand says %v (stdout %q)", args, byEntry, want, stdout)
		}
	}
}

func TestEntryFallsBackWhenTheAgentCannotRun(t *testing.T) {
	// none beside and none on PATH: goose-ls starts and says so in its own words
	dir := installedWithEntry(t, "", 0)
	_, stderr, started := runTraced(t, filepath.Join(dir, "goose-ls"), []string{"PATH=" + t.TempDir()}, "run", "--prompt", "hi")
	if !started || !strings.Contains(stderr, "goose-ls-agent is neither beside goose-ls nor on PATH") {
		t.Errorf("no agent: runtime started %v, stderr %q", started, lastLines(stderr))
	}
	// one beside that cannot be executed: the entry's exec fails, goose-ls's fails the same way and reports it
	dir = installedWithEntry(t, fakeAgent, 0o644)
	stdout, stderr, started := runTraced(t, filepath.Join(dir, "goose-ls"), nil, "sessions")
	if !started || stdout != "" || !strings.Contains(stderr, "permission denied") {
		t.Errorf("agent not executable: runtime started %v, stdout %q, stderr %q", started, stdout, lastLines(stderr))
	}
}

// lastLines is the end of a traced stderr, without the init trace.
func lastLines(stderr string) string {
	lines := slices.DeleteFunc(strings.Split(stderr, "\n"), func(l string) bool { return strings.HasPrefix(l, "init ") })
	return strings.Join(lines, "\n")
}
