// `goose-ls check` (the built binary) on a hostile repository: sub-recipes and symlinks that leave it, a
// FIFO, devices and /proc; nothing outside is read or printed in text, JSON or SARIF, and nothing hangs.

//go:build linux

package main

import (
	"github.com/goose-ls/goose-ls/internal/testbin"

	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const checkMarker = "MARKER-CLI-SECRET-93c2"

// hostileRepo is a repository to check and a folder beside it that must stay unread.
func hostileRepo(t *testing.T) (repo, outside string) {
	t.Helper()
	base := t.TempDir()
	repo, outside = filepath.Join(base, "repo"), filepath.Join(base, "outside")
	secret := "title: " + checkMarker + "\ndescription: " + checkMarker + "\nprompt: " + checkMarker + "\nparameters:\n  - key: " + checkMarker + "\n    input_type: string\n    requirement: required\n    description: " + checkMarker + "\n"
	write(t, outside, "secret.yaml", secret)
	write(t, outside, "recipes/other.yaml", secret)
	write(t, outside, "schema.json", `{"type":"string","description":"`+checkMarker+`"}`)
	parent := "title: Parent\ndescription: D\nprompt: hi\nsub_recipes:\n" +
		"  - name: dotdot\n    path: ../outside/secret.yaml\n" +
		"  - name: absolute\n    path: " + filepath.Join(outside, "secret.yaml") + "\n" +
		"  - name: linked\n    path: ./link-out.yaml\n" +
		"  - name: zero\n    path: /dev/zero\n" +
		"  - name: environ\n    path: /proc/self/environ\n" +
		"  - name: stdin\n    path: /dev/stdin\n" +
		"  - name: pipe\n    path: ./pipe.yaml\n" +
		"response:\n  json_schema:\n    type: object\n    properties:\n      a:\n        $ref: \"file://" + filepath.Join(outside, "schema.json") + "\"\n"
	write(t, repo, "parent.yaml", parent)
	write(t, repo, "include.yaml", "{% include \"link-out.yaml\" %}\ntitle: T\ndescription: D\nprompt: hi\n")
	for link, target := range map[string]string{
		"link-out.yaml":       filepath.Join("..", "outside", "secret.yaml"),
		"recipes/linked.yaml": filepath.Join(outside, "secret.yaml"),
		"outdir":              filepath.Join("..", "outside", "recipes"),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(repo, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo, outside
}

// checkBinary runs the built goose-ls check with stdin left open and unwritten (a read of stdin would hang).
func checkBinary(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	bin := testbin.Build(t).GooseLS
	cmd := exec.Command(bin, append([]string{"check"}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func TestCheckBinaryStaysInsideRepository(t *testing.T) {
	repo, _ := hostileRepo(t)
	for _, format := range []string{"text", "json", "sarif"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := checkBinary(t, "--format", format, repo)
			if strings.Contains(out+errs, checkMarker) {
				t.Fatalf("content of a file outside the repository was printed:\n%s\n%s", out, errs)
			}
			if code != 1 { // include.yaml: goose's template confinement error
				t.Errorf("exit %d, want 1\n%s", code, errs)
			}
			for _, want := range []string{"FILE-OUTSIDE-WORKSPACE", "not checked: outside the workspace: ../outside/secret.yaml",
				"not checked: outside the workspace: ./link-out.yaml", "not checked: outside the workspace: /dev/zero",
				"not checked: outside the workspace: /proc/self/environ", "not checked: outside the workspace: /dev/stdin",
				"sub-recipe ./pipe.yaml cannot be read: not a regular file", "RESPONSE-SCHEMA-EXTERNAL-REF",
				"template path must stay within the recipe directory"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			for _, note := range []string{
				"goose-ls check: skipped " + filepath.Join(repo, "recipes", "linked.yaml") + ": symbolic link leads outside " + repo,
				"goose-ls check: skipped " + filepath.Join(repo, "pipe.yaml") + ": not a regular file",
				"goose-ls check: skipped " + filepath.Join(repo, "outdir") + ": symbolic link to a folder outside " + repo + " (not followed)",
			} {
				if !strings.Contains(errs, note) {
					t.Errorf("stderr lacks %q:\n%s", note, errs)
				}
			}
		})
	}
}

func TestCheckBinaryRootFlagTrustsAFolder(t *testing.T) {
	repo, outside := hostileRepo(t)
	code, out, errs := checkBinary(t, "--root", outside, filepath.Join(repo, "parent.yaml"))
	if code != 0 {
		t.Errorf("exit %d, want 0 (only warnings and information)\n%s%s", code, out, errs)
	}
	if strings.Contains(out, "outside the workspace: ../outside/secret.yaml") {
		t.Errorf("--root did not trust the folder:\n%s", out)
	}
	// the trusted child is read: its required parameter is reported as missing from `values`
	if !strings.Contains(out, "SUBRECIPE-MISSING-VALUE") {
		t.Errorf("the sub-recipe in the --root folder was not checked:\n%s", out)
	}
	if !strings.Contains(out, "not checked: outside the workspace: /dev/zero") {
		t.Errorf("/dev/zero must stay refused:\n%s", out)
	}
	if code, _, errs := checkBinary(t, "--root", filepath.Join(outside, "secret.yaml"), repo); code != 2 || !strings.Contains(errs, "is not a folder") {
		t.Errorf("--root FILE: exit %d, %s", code, errs)
	}
}

func TestCheckBinaryRefusesSpecialFileArguments(t *testing.T) {
	repo, _ := hostileRepo(t)
	for _, arg := range []string{filepath.Join(repo, "pipe.yaml"), "/dev/zero", "/dev/stdin", "/proc/self/environ"} {
		t.Run(arg, func(t *testing.T) {
			code, out, errs := checkBinary(t, arg)
			if code != 2 || !strings.Contains(errs, "not a regular file") {
				t.Errorf("exit %d, want 2 with `not a regular file`\n%s%s", code, out, errs)
			}
		})
	}
}
