// Package testbin builds the shipped binaries once per test process, into one folder as they are
// installed (goose-ls finds goose-ls-agent beside itself), with the MCP test server.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
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
			cmd := exec.Command("go", "build", "-o", out, pkg)
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
