// goose-ls-agent, the binary of the agent's commands: found beside this executable, run in
// this process's place for `run`, `acp`, `sessions`, `secret` and `configure`, and started as the language server's agent
// process (`goose-ls-agent relay`) on its first agent command.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/internal/version"
)

// agentBinary is goose-ls-agent's file name on this platform.
func agentBinary() string {
	if runtime.GOOS == "windows" {
		return "goose-ls-agent.exe"
	}
	return "goose-ls-agent"
}

// findAgent is goose-ls-agent beside this executable (symlinks resolved): the one place goose-ls looks,
// so an older agent elsewhere on PATH is never run by mistake. Both executables come from one install
// line (version.InstallCommand) or one release archive; the agent itself refuses to run for another
// build (version.CheckCaller).
func findAgent() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find goose-ls's own executable to look for %s beside it: %w", agentBinary(), err)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	bin := filepath.Join(filepath.Dir(self), agentBinary())
	if st, err := os.Stat(bin); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not installed beside %s; install both with: %s", agentBinary(), self, version.InstallCommand)
	}
	return bin, nil
}

// checkAgentVersion runs `goose-ls-agent version` before the language server starts its relay (once per
// server), so a mismatched agent is the editor command's error sentence, not a relay that dies at once.
func checkAgentVersion(bin string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "version").Output()
	if err != nil {
		return fmt.Errorf("%s does not start (%v); reinstall both with: %s", bin, err, version.InstallCommand)
	}
	return version.CompareAgent(strings.TrimSpace(string(out)), version.Line("goose-ls-agent"))
}

// agentEnv is this process's environment with the agent version goose-ls expects.
func agentEnv() []string { return append(os.Environ(), version.ExpectAgentEnv()) }

// execAgent runs goose-ls-agent with args in this process's place (its exit code is this command's).
func execAgent(args []string, stderr io.Writer) int {
	bin, err := findAgent()
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls:", err)
		return 1
	}
	return replaceProcess(bin, args, stderr)
}

// agentProcess is the language server's agent process: its stdin and stdout joined; closing it closes
// its stdin (the agent then cancels its runs and exits) and waits for it.
type agentProcess struct {
	io.WriteCloser // stdin
	io.Reader      // stdout
	cmd            *exec.Cmd
}

func (p *agentProcess) Close() error {
	err := p.WriteCloser.Close()
	_ = p.cmd.Wait()
	return err
}

// startAgentRelay starts `goose-ls-agent relay` (its log goes to this process's stderr).
func startAgentRelay() (io.ReadWriteCloser, error) {
	bin, err := findAgent()
	if err != nil {
		return nil, err
	}
	if err := checkAgentVersion(bin); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "relay")
	cmd.Env = agentEnv()
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", bin, err)
	}
	return &agentProcess{WriteCloser: in, Reader: out, cmd: cmd}, nil
}
