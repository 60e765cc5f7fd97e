//go:build windows

// Process groups on Windows: a new console process group at start, taskkill /T for the whole tree.

package proc

import (
	"os/exec"
	"strconv"
	"syscall"
)

// Detach starts cmd in a new process group, so Kill reaches everything it starts.
func Detach(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
}

// Terminate does nothing on Windows: console programs get no polite stop signal from outside; callers
// close the program's input first and Kill it after a grace period.
func Terminate(cmd *exec.Cmd) {}

// Kill ends the started cmd and every process it started (taskkill /T /F), or at least cmd itself.
func Kill(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	if err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run(); err != nil {
		_ = cmd.Process.Kill()
	}
}
