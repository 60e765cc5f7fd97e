// The composite GitHub Action (action.yml): its steps' scripts run with bash as a runner runs them, with
// a stand-in `gh` that serves the release built by these tests.

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionSteps are action.yml's steps by id.
func actionSteps(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Using string
			Steps []struct {
				ID, Shell, Run string
			}
		}
	}
	if err := yaml.Unmarshal(raw, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q", action.Runs.Using)
	}
	steps := map[string]string{}
	for _, s := range action.Runs.Steps {
		if s.Shell != "bash" {
			t.Fatalf("step %s runs in %q, not bash", s.ID, s.Shell)
		}
		steps[s.ID] = s.Run
	}
	return steps
}

// runStep runs a step's script with the runner's variables; it returns the exit code and output.
func runStep(t *testing.T, script string, env []string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script) // as a runner runs `shell: bash`
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// fakeGH writes a `gh` that answers `release view` with v1.2.3 and `release download` from dist.
func fakeGH(t *testing.T, dist string) string {
	t.Helper()
	bin := t.TempDir()
	script := `#!/usr/bin/env bash
set -euo pipefail
if [ "$1 $2" = "release view" ]; then echo v1.2.3; exit 0; fi
[ "$1 $2 $3" = "release download v1.2.3" ] || { echo "fake gh: unexpected $*" >&2; exit 1; }
shift 3; dir=.; patterns=()
while [ $# -gt 0 ]; do case "$1" in --dir) dir=$2; shift 2 ;; --pattern) patterns+=("$2"); shift 2 ;; *) shift ;; esac; done
for p in "${patterns[@]}"; do for f in ` + dist + `/$p; do cp "$f" "$dir/"; done; done
`
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestActionInstallsTheReleaseAndFailsOnErrors(t *testing.T) {
	dist, err := linuxRelease()
	if err != nil {
		t.Fatal(err)
	}
	steps := actionSteps(t)
	ghDir := fakeGH(t, dist)
	runner := t.TempDir()
	githubPath := filepath.Join(runner, "github_path")
	base := []string{"PATH=" + ghDir + ":" + os.Getenv("PATH"), "HOME=" + runner, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"RUNNER_TEMP=" + runner, "GITHUB_PATH=" + githubPath, "GH_TOKEN=unused", "GOOSE_LS_VERSION=latest"}
	code, out := runStep(t, steps["install"], base)
	if code != 0 || !strings.Contains(out, "goose-ls v1.2.3") {
		t.Fatalf("install step: exit %d\n%s", code, out)
	}
	added, _ := os.ReadFile(githubPath)
	binDir := strings.TrimSpace(string(added))
	if _, err := os.Stat(filepath.Join(binDir, "goose-ls-agent")); err != nil {
		t.Fatalf("install step put %q on PATH without the agent: %v", binDir, err)
	}

	// a tampered archive is refused by the checksum
	tampered := t.TempDir()
	for _, f := range []string{ArchiveName("v1.2.3", linuxX86), "SHA256SUMS"} {
		data, _ := os.ReadFile(filepath.Join(dist, f))
		if f != "SHA256SUMS" {
			data = append(data, 0)
		}
		os.WriteFile(filepath.Join(tampered, f), data, 0o644)
	}
	otherRunner := t.TempDir()
	code, out = runStep(t, steps["install"], append([]string{"PATH=" + fakeGH(t, tampered) + ":" + os.Getenv("PATH"), "RUNNER_TEMP=" + otherRunner,
		"GITHUB_PATH=" + filepath.Join(otherRunner, "p")}, base[1:]...))
	if code == 0 {
		t.Errorf("install step accepted an archive that does not match SHA256SUMS:\n%s", out)
	}

	work := t.TempDir()
	good := filepath.Join(work, "good")
	bad := filepath.Join(work, "bad")
	os.MkdirAll(good, 0o755)
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(good, "ok.recipe.yaml"), []byte("version: 1.0.0\ntitle: T\ndescription: D\nprompt: do it\n"), 0o644)
	os.WriteFile(filepath.Join(bad, "broken.recipe.yaml"), []byte("version: 1.0.0\ntitle: T\ndescription: D\nprompt: hi {{ who }}\n"), 0o644)
	check := func(paths, failOnError string) (int, string, map[string]any) {
		sarif := filepath.Join(t.TempDir(), "out.sarif")
		output := filepath.Join(t.TempDir(), "output")
		code, out := runStep(t, steps["check"], []string{"PATH=" + binDir + ":" + os.Getenv("PATH"), "HOME=" + runner,
			"PATHS=" + paths, "SARIF=" + sarif, "FAIL_ON_ERROR=" + failOnError, "GITHUB_OUTPUT=" + output})
		var doc map[string]any
		data, err := os.ReadFile(sarif)
		if err != nil || json.Unmarshal(data, &doc) != nil {
			t.Fatalf("check step wrote no SARIF (%v): %s\n%s", err, data, out)
		}
		written, _ := os.ReadFile(output)
		if !strings.Contains(string(written), "exit-code=") {
			t.Errorf("check step set no exit-code output: %q", written)
		}
		return code, out, doc
	}
	results := func(doc map[string]any) int {
		return len(doc["runs"].([]any)[0].(map[string]any)["results"].([]any))
	}
	if code, out, doc := check(good, "true"); code != 0 || results(doc) != 0 {
		t.Errorf("valid recipes: exit %d, %d results\n%s", code, results(doc), out)
	}
	if code, out, doc := check(good+"\n"+bad, "true"); code != 1 || results(doc) == 0 || !strings.Contains(out, "who") {
		t.Errorf("an invalid recipe: exit %d, %d results\n%s", code, results(doc), out)
	}
	if code, _, doc := check(bad, "false"); code != 0 || results(doc) == 0 {
		t.Errorf("fail-on-error false: exit %d, %d results", code, results(doc))
	}
}
