// Package proc starts commands in a process group of their own and stops the whole group, on Unix and
// Windows alike, and picks the shell goose would use for a command on each OS.
package proc

import (
	"errors"
	"path/filepath"
	"strings"
)

// Shell returns the program and arguments that run command the way goose's shell tool does: on Unix
// $GOOSE_SHELL, else bash when present, else sh, each with `-c`; on Windows $GOOSE_SHELL, else cmd with
// `/C`, and pwsh/powershell with `-NoProfile -NonInteractive -Command`. cmd cuts a command at its first
// newline, so a multi-line command for cmd is refused rather than run in part.
func Shell(goos, gooseShell string, hasBash bool, command string) (string, []string, error) {
	sh := gooseShell
	if goos != "windows" {
		if sh == "" {
			sh = "sh"
			if hasBash {
				sh = "bash"
			}
		}
		return sh, []string{"-c", command}, nil
	}
	if sh == "" {
		sh = "cmd"
	}
	switch strings.ToLower(strings.TrimSuffix(filepath.Base(strings.ReplaceAll(sh, `\`, "/")), filepath.Ext(sh))) {
	case "cmd":
		if strings.ContainsAny(strings.TrimRight(command, "\r\n"), "\r\n") {
			return "", nil, errors.New("cmd.exe runs only the first line of a multi-line command; join the lines with && or set GOOSE_SHELL to pwsh or bash")
		}
		return sh, []string{"/C", command}, nil
	case "pwsh", "powershell":
		return sh, []string{"-NoProfile", "-NonInteractive", "-Command", command}, nil
	default:
		return sh, []string{"-c", command}, nil
	}
}
