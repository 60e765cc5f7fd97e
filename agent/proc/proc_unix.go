//go:build !windows

// Process groups on Unix: Setpgid at start, signals to the negative pid.

package proc

import (
	"os/exec"
	"syscall"
)

// Detach makes cmd the leader of a new process group, so Kill reaches everything it starts.
func Detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Terminate asks the started cmd's whole process group to stop (SIGTERM).
func Terminate(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }

// Kill stops the started cmd's whole process group at once (SIGKILL).
func Kill(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGKILL) }

func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}
