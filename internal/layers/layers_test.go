// The dependency rules of ARCHITECTURE.md, checked on each package's direct imports with `go list`.

package layers

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/goose-ls/goose-ls/"

// deps returns, for each package of the module, what it imports directly (code and tests).
func deps(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	list, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(list))
	for sc.Scan() {
		pkg := sc.Text()
		d, err := exec.Command("go", "list", "-f", `{{join .Imports " "}} {{join .TestImports " "}}`, pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		out[pkg] = strings.Fields(string(d))
	}
	return out
}

func TestLayers(t *testing.T) {
	rules := []struct {
		from     string // package prefix (relative to the module)
		mayNot   string // import prefix it may not use
		unlessIn []string
	}{
		{"recipe", module + "lsp", nil},
		{"recipe", module + "agent", nil},
		{"recipe", module + "cmd", nil},
		{"agent", module + "lsp", nil},
		{"agent", module + "acp", nil},
		// the loop and its packages know nothing of the host that runs them
		{"agent", module + "agent/host", []string{"agent/host"}},
		// front ends are leaves: only cmd wires them
		{"", module + "lsp", []string{"lsp", "cmd"}},
		// the language server proper knows nothing of the agent: lsp/editoragent plugs it in (lsp.Agent)
		{"lsp", module + "agent/host", []string{"lsp/editoragent", "lsp/lsptest"}},
		{"", module + "acp", []string{"acp", "cmd"}},
		{"recipe", module + "acp", nil},
		{"lsp", module + "acp", nil},
		{"acp", module + "lsp", nil},
		{"", "go.lsp.dev/", []string{"lsp", "cmd", "internal/lspbench"}},
		{"", "github.com/mark3labs/mcp-go", []string{"agent/mcp", "cmd/goose-ls-agent"}},
		{"", "github.com/openai/openai-go", []string{"agent/provider/openai"}},
		{"", "github.com/anthropics/anthropic-sdk-go", []string{"agent/provider/anthropic"}},
		{"", "modernc.org/sqlite", []string{"agent/session"}},
		{"", "github.com/coder/acp-go-sdk", []string{"acp", "cmd/goose-ls-agent"}},
	}
	all := deps(t)
	if len(all) < 5 {
		t.Fatalf("listed only %d packages", len(all))
	}
	for pkg, ds := range all {
		rel := strings.TrimPrefix(pkg, module)
		for _, r := range rules {
			if !strings.HasPrefix(rel, r.from) {
				continue
			}
			allowed := false
			for _, u := range r.unlessIn {
				if strings.HasPrefix(rel, u) {
					allowed = true
				}
			}
			if allowed {
				continue
			}
			for _, d := range ds {
				if strings.HasPrefix(d, r.mayNot) {
					t.Errorf("%s imports %s (rule: %s may not import %s)", rel, d, r.from, r.mayNot)
				}
			}
		}
	}
}

// TestGooseLSLinksNoAgent: the goose-ls binary (checker, language server) and package lsp, with
// everything they need, link no agent package and no agent SDK — those are goose-ls-agent's (issue 17:
// without them goose-ls starts in half the time and memory).
func TestGooseLSLinksNoAgent(t *testing.T) {
	for _, pkg := range []string{"../../lsp", "../../cmd/goose-ls"} {
		linksNoAgent(t, pkg)
	}
}

func linksNoAgent(t *testing.T, pkg string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	heavy := []string{module + "agent/host", module + "agent/provider", module + "agent/mcp", module + "agent/session",
		"github.com/openai/", "github.com/anthropics/", "modernc.org/sqlite", "github.com/mark3labs/mcp-go", "github.com/go-git/"}
	n := 0
	for _, dep := range strings.Fields(string(out)) {
		n++
		for _, h := range heavy {
			if strings.HasPrefix(dep, h) {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
	if n < 20 {
		t.Fatalf("go list -deps listed only %d packages", n)
	}
}
