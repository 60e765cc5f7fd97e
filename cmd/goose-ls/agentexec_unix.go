//go:build !windows

// replaceProcess on Unix: exec(2), so the agent keeps this process's id, stdio and signals.

package main

import (
	"fmt"
	"io"
	"syscall"
)

// replaceProcess is a variable so tests can make sure no in-process test ever replaces the test binary.
var replaceProcess = func(bin string, args []string, stderr io.Writer) int {
	err := syscall.Exec(bin, append([]string{bin}, args...), agentEnv())
	fmt.Fprintln(stderr, "goose-ls:", bin+":", err) // Exec returns only on failure
	return 1
}
