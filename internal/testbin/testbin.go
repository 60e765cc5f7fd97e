// Package testbin builds the shipped binaries once per test process, into one folder as they are
// installed (goose-ls finds goose-ls-agent beside itself), with the MCP test server.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Bins are the built executables.
type Bins struct {
	GooseLS, Agent, MCPServer string
}

var (
	once     sync.Once
	built    Bins
	buildErr string
)

// Build builds goose-ls, goose-ls-agent and agent/mcp/testserver (once per test process) and returns them.
func Build(t testing.TB) Bins {
	t.Helper()
	once.Do(func() {
		root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
		if err != nil {
			buildErr = "go list -m: " + err.Error()
			return
		}
		dir, err := os.MkdirTemp("", "goosels-bin")
		if err != nil {
			buildErr = err.Error()
			return
		}
		b := Bins{GooseLS: filepath.Join(dir, "goose-ls"), Agent: filepath.Join(dir, "goose-ls-agent"), MCPServer: filepath.Join(dir, "testserver")}
		for pkg, out := range map[string]string{"./cmd/goose-ls": b.GooseLS, "./cmd/goose-ls-agent": b.Agent, "./agent/mcp/testserver": b.MCPServer} {
			args := []string{"build", "-o", out}
			if pkg == "./cmd/goose-ls" {
				args = append(args, GooseLSLinkFlags()...)
			}
			cmd := exec.Command("go", append(args, pkg)...)
			cmd.Dir = strings.TrimSpace(string(root))
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // statically linked, as released
			if msg, err := cmd.CombinedOutput(); err != nil {
				buildErr = "go build " + pkg + ": " + err.Error() + "\n" + string(msg)
				return
			}
		}
		built = b
	})
	if buildErr != "" {
		t.Fatal(buildErr)
	}
	return built
}

// GooseLSLinkFlags are the `go build` flags goose-ls is released with on this platform (the Makefile's
// ENTRY_LDFLAGS): EntryLinkFlags of the host.
func GooseLSLinkFlags() []string { return EntryLinkFlags(runtime.GOOS, runtime.GOARCH) }

// EntryLinkFlags are goose-ls's release link flags for goos/goarch: on linux/amd64 and linux/arm64 its own
// ELF entry, which execs goose-ls-agent for the agent's commands before the Go runtime starts
// (cmd/goose-ls/internal/earlyexec/entry_linux_*.s); none elsewhere.
func EntryLinkFlags(goos, goarch string) []string {
	if goos == "linux" && (goarch == "amd64" || goarch == "arm64") {
		return []string{"-ldflags=-E=goose_ls_entry"}
	}
	return nil
}
