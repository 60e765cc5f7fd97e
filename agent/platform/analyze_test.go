// analyze: the directory, file and focus views of Go code in goose's format, the workspace confinement,
// files without a parser, and the size guard.

package platform

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const analyzeLib = `package lib

import (
	"fmt"
	"strings"
)

type Config struct {
	Name string
	Tags []string
}

func validate(x int) bool { return x > 0 }

func process() {
	validate(1)
	validate(2)
	validate(3)
	validate(4)
	helper()
}

func helper() { validate(0); fmt.Println(strings.ToUpper("x")) }

func (c *Config) Apply(ctx string, n int) error { process(); return nil }
`

func analyzeFixture(t *testing.T) (*Analyze, string) {
	t.Helper()
	ws := t.TempDir()
	writeFile(t, filepath.Join(ws, "lib/lib.go"), analyzeLib)
	writeFile(t, filepath.Join(ws, "lib/lib_test.go"), "package lib\n\nimport \"testing\"\n\nfunc TestProcess(t *testing.T) { process() }\n")
	writeFile(t, filepath.Join(ws, "main.go"), "package main\n\nfunc main() { run() }\n\nfunc run() {}\n")
	writeFile(t, filepath.Join(ws, "README.md"), "# readme\n")
	writeFile(t, filepath.Join(ws, "gen/skip.go"), "package gen\n")
	writeFile(t, filepath.Join(ws, ".hidden/h.go"), "package h\n")
	writeFile(t, filepath.Join(ws, ".gitignore"), "gen/\n")
	writeFile(t, filepath.Join(ws, "a/b/c/deep.go"), "package c\n")
	a := &Analyze{WorkDir: ws}
	t.Cleanup(func() { a.Close() })
	return a, ws
}

func analyze(a *Analyze, args string) (string, bool) {
	res := a.Call(context.Background(), "analyze", json.RawMessage(args))
	return res.Text, res.IsError
}

func TestAnalyzeDirectory(t *testing.T) {
	a, _ := analyzeFixture(t)
	text, isErr := analyze(a, `{"path":"."}`)
	want := "3 files, 35L, 7F, 1C (depth=3)\n(1 files skipped: no parser)\ngo 100%\n\n" +
		"lib/\n  lib.go [25L, 4F, 1C]\n  lib_test.go [5L, 1F]\nmain.go [5L, 2F]\n"
	if isErr || text != want {
		t.Errorf("directory view:\n%s\nwant\n%s", text, want)
	}
	text, _ = analyze(a, `{"path":".","max_depth":0}`)
	if !strings.Contains(text, "a/\n  b/\n    c/\n      deep.go [1L, 0F]") || !strings.Contains(text, "(unlimited)") {
		t.Errorf("unlimited depth:\n%s", text)
	}
}

func TestAnalyzeFile(t *testing.T) {
	a, ws := analyzeFixture(t)
	text, isErr := analyze(a, `{"path":"`+filepath.Join(ws, "lib/lib.go")+`"}`)
	want := "lib.go [25L, 4F, 1C]\n\nC: Config:8{Name,Tags}\nF: validate(x int):13•5 process:15 helper:23 Config.Apply(ctx string, n int):25\nI: fmt; strings\n"
	if isErr || text != want {
		t.Errorf("file view:\n%q\nwant\n%q", text, want)
	}
	if text, isErr := analyze(a, `{"path":"README.md"}`); !isErr || !strings.HasSuffix(text, "README.md (unsupported language or binary file)") {
		t.Errorf("markdown: %q", text)
	}
}

func TestAnalyzeFocus(t *testing.T) {
	a, _ := analyzeFixture(t)
	text, isErr := analyze(a, `{"path":".","focus":"process"}`)
	want := "FOCUS: process (1 defs, 4 refs)\n\nDEF lib/lib.go:process:15\n\n" +
		"IN:\n  lib/lib.go:process:15 → lib/lib.go:Apply:25\n\n" +
		"IN (tests):\n  lib/lib.go:process:15 → lib/lib_test.go:TestProcess:5\n\n" +
		"OUT:\n  lib/lib.go:process:15 → lib/lib.go:helper:23 → lib/lib.go:validate:13\n  lib/lib.go:process:15 → lib/lib.go:validate:13\n\n" +
		"3 files analyzed\n"
	if isErr || text != want {
		t.Errorf("focus view:\n%s\nwant\n%s", text, want)
	}
	// chains sharing all but their last link are grouped
	text, _ = analyze(a, `{"path":".","focus":"validate","follow_depth":1}`)
	if !strings.Contains(text, "IN:\n  lib/lib.go:validate:13\n    → lib/lib.go:helper:23\n    → lib/lib.go:process:15\n") {
		t.Errorf("grouped chains:\n%s", text)
	}
	if text, _ := analyze(a, `{"path":".","focus":"nothing"}`); text != "Symbol 'nothing' not found in 3 analyzed files.\n" {
		t.Errorf("unknown symbol: %q", text)
	}
	if text, _ := analyze(a, `{"path":".","focus":"process","follow_depth":0}`); strings.Contains(text, "IN:") || !strings.Contains(text, "(1 defs, 4 refs)") {
		t.Errorf("definitions only:\n%s", text)
	}
}

func TestAnalyzeStaysInTheWorkspace(t *testing.T) {
	a, ws := analyzeFixture(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.go"), "package secret\n\nfunc Secret() {}\n")
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(outside, "secret.go"), "../" + filepath.Base(outside) + "/secret.go", "link/secret.go"} {
		text, isErr := analyze(a, `{"path":"`+p+`"}`)
		if !isErr || strings.Contains(text, "Secret") || !strings.Contains(text, "outside the workspace") {
			t.Errorf("%s: %q", p, text)
		}
	}
	if text, isErr := analyze(a, `{"path":"nope"}`); !isErr || text != "Error: path not found: "+filepath.Join(ws, "nope") {
		t.Errorf("missing: %q", text)
	}
	if text, isErr := analyze(a, `{}`); !isErr || text != "Error: Failed to parse arguments: missing field `path`" {
		t.Errorf("no path: %q", text)
	}
}

func TestAnalyzeSizeGuard(t *testing.T) {
	ws := t.TempDir()
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 0; i < 3000; i++ {
		b.WriteString("func functionWithALongName" + strings.Repeat("x", 3) + strconv.Itoa(i) + "(a, b, c int) {}\n")
	}
	writeFile(t, filepath.Join(ws, "big.go"), b.String())
	a := &Analyze{WorkDir: ws}
	defer a.Close()
	text, isErr := analyze(a, `{"path":"big.go"}`)
	if !isErr || !strings.HasPrefix(text, "Output too large (") || !strings.HasSuffix(text, "limit 50000). Use `force: true` to override, or narrow scope with max_depth/focus.") {
		t.Errorf("guard: %.200q", text)
	}
	if text, isErr := analyze(a, `{"path":"big.go","force":true}`); isErr || len(text) <= analyzeSizeLimit {
		t.Errorf("forced: %d bytes, error %v", len(text), isErr)
	}
}
