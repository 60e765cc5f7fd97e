//go:build windows

// replaceProcess on Windows (no exec): the agent runs as a child with this process's stdio, and its exit
// code is returned.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

var replaceProcess = func(bin string, args []string, stderr io.Writer) int {
	cmd := exec.Command(bin, args...)
	cmd.Env = agentEnv()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls:", bin+":", err)
		return 1
	}
	return 0
}
