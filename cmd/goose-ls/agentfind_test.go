// The hand-over to goose-ls-agent with the built executables: the agent beside goose-ls is the only one
// used, a missing one and one of another build are refused with the install line.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testbin"
	"github.com/goose-ls/goose-ls/internal/version"
)

// buildStamped builds goose-ls into dir as a release of ver would be.
func buildStamped(t *testing.T, dir, ver string) string {
	t.Helper()
	out := filepath.Join(dir, "goose-ls")
	cmd := exec.Command("go", "build", "-ldflags", "-X "+version.Module+"/internal/version.stampedVersion="+ver, "-o", out, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return out
}

func runBuilt(t *testing.T, bin string, env []string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

func TestAgentIsFoundBesideGooseLSOnly(t *testing.T) {
	bins := testbin.Build(t)
	dir := t.TempDir()
	gooseLS := buildStamped(t, dir, "v9.9.9-test")

	// an agent on PATH is not used: goose-ls looks beside itself only
	code, out := runBuilt(t, gooseLS, []string{"PATH=" + filepath.Dir(bins.Agent) + ":" + os.Getenv("PATH")}, "sessions")
	if code != 1 || !strings.Contains(out, "goose-ls-agent is not installed beside") || !strings.Contains(out, version.InstallCommand) {
		t.Errorf("no agent beside: exit %d, %q", code, out)
	}

	// an agent of another build beside it is refused before it does anything
	agent, err := os.ReadFile(bins.Agent)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "goose-ls-agent"), agent, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out = runBuilt(t, gooseLS, nil, "sessions")
	if code != 1 || !strings.Contains(out, "another version") || !strings.Contains(out, "v9.9.9-test") || !strings.Contains(out, version.InstallCommand) {
		t.Errorf("mismatched agent: exit %d, %q", code, out)
	}

	// the pair of one build works, through a symlink to goose-ls too
	link := filepath.Join(t.TempDir(), "goose-ls")
	if err := os.Symlink(bins.GooseLS, link); err != nil {
		t.Fatal(err)
	}
	code, out = runBuilt(t, link, nil, "sessions")
	if code != 0 {
		t.Errorf("matching pair through a symlink: exit %d, %q", code, out)
	}
}
