// Package earlyexec decides, from goose-ls's arguments alone, whether a command is goose-ls-agent's to
// answer, and on Linux execs the agent for it before goose-ls's own packages (YAML, JSON Schema, the
// language server) are initialised, so `goose-ls run` and `goose-ls acp` start the agent about as fast as
// starting it directly. On linux/amd64 and linux/arm64 goose-ls as released does it before the Go runtime
// starts, in its own ELF entry (entry_linux_*.s, linked with -ldflags=-E=goose_ls_entry); without it this
// package's initialiser does it (early_linux.go).
//
// Go initialises packages in import-path order among those whose imports are initialised (the language
// specification, since Go 1.21). This package imports only os and syscall, which goose-ls initialises
// among its first packages, and its path sorts before goose-ls's heavy dependencies (go.yaml.in,
// golang.org, go.uber.org, net/…, github.com/goose-ls/goose-ls/recipe…), so it runs before them
// (TestEarlyExecInitialisesBeforeHeavyPackages checks the order). Any other import (even strings or
// path/filepath) would wait for every package that sorts before it.
package earlyexec

// IsAgentCommand says whether goose-ls's arguments (without the program name) are goose-ls-agent's to
// answer as they stand: `acp`, `sessions`, and `run` unless it asks for --explain or --render-recipe
// (goose-ls answers those itself, so they work without the agent installed). It errs towards false: an
// argument that merely looks like one of those flags (a --prompt value) leaves the command to main,
// which execs the agent after parsing the flags.
func IsAgentCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "acp", "sessions":
		return true
	case "run":
		for _, a := range args[1:] {
			name := trimDashes(a)
			if name != a && (hasPrefix(name, "explain") || hasPrefix(name, "render-recipe")) {
				return false
			}
		}
		return true
	}
	return false
}

// agentBeside is goose-ls-agent's path beside the executable self ("" when self has no folder).
func agentBeside(self string) string {
	for i := len(self) - 1; i >= 0; i-- {
		if self[i] == '/' {
			return self[:i+1] + "goose-ls-agent"
		}
	}
	return ""
}

func trimDashes(s string) string {
	for len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	return s
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }
