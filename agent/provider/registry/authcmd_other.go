//go:build !unix

// Elsewhere a killed auth command's status has no signal name.

package registry

import "syscall"

func signalName(syscall.Signal) string { return "" }
