// goose-ls-agent, the binary of the agent's commands: found beside this executable (else on PATH), run in
// this process's place for `run`, `acp`, `sessions` and `secret`, and started as the language server's agent
// process (`goose-ls-agent relay`) on its first agent command.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// agentBinary is goose-ls-agent's file name on this platform.
func agentBinary() string {
	if runtime.GOOS == "windows" {
		return "goose-ls-agent.exe"
	}
	return "goose-ls-agent"
}

// findAgent is goose-ls-agent beside this executable, else the one on PATH.
func findAgent() (string, error) {
	if self, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(self); err == nil {
			self = resolved
		}
		beside := filepath.Join(filepath.Dir(self), agentBinary())
		if st, err := os.Stat(beside); err == nil && st.Mode().IsRegular() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(agentBinary()); err == nil {
		return p, nil
	}
	return "", errors.New(agentBinary() + " is neither beside goose-ls nor on PATH (install both: go install github.com/goose-ls/goose-ls/cmd/...@latest)")
}

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
	cmd := exec.Command(bin, "relay")
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
