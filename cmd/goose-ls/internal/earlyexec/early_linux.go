// The early exec from a Go initialiser on Linux: goose-ls-agent replaces goose-ls before goose-ls's heavy
// packages initialise.

package earlyexec

import (
	"os"
	"syscall"
)

func init() {
	if !IsAgentCommand(os.Args[1:]) {
		return
	}
	// On Linux os.Executable is /proc/self/exe, symlinks already resolved: the same folder main's
	// findAgent looks in first. An agent found only on PATH is main's to find.
	self, err := os.Executable()
	if err != nil {
		return
	}
	bin := agentBeside(self)
	if st, err := os.Stat(bin); bin == "" || err != nil || !st.Mode().IsRegular() {
		return
	}
	_ = syscall.Exec(bin, append([]string{bin}, os.Args[1:]...), os.Environ())
	// exec failed: main execs again through the same path and reports the error in goose-ls's words
}
