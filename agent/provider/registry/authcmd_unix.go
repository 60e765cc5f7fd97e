//go:build unix

// Signal names for an auth command's exit status, as Rust prints them (SIGKILL).

package registry

import (
	"syscall"

	"golang.org/x/sys/unix"
)

func signalName(s syscall.Signal) string { return unix.SignalName(s) }
