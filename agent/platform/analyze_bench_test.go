// Benchmarks of the analyze views and of skill discovery on generated workspaces.

package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goWorkspace writes n Go files of 20 functions each under a few folders.
func goWorkspace(b *testing.B, n int) string {
	b.Helper()
	ws := b.TempDir()
	for i := 0; i < n; i++ {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\nimport \"fmt\"\n\ntype T%d struct{ A, B int }\n\n", i%10, i)
		for f := 0; f < 20; f++ {
			fmt.Fprintf(&src, "func F%d_%d(x int) int {\n\tfmt.Println(x)\n\treturn F%d_%d(x - 1)\n}\n\n", i, f, i, (f+1)%20)
		}
		path := filepath.Join(ws, fmt.Sprintf("pkg%d", i%10), fmt.Sprintf("f%d.go", i))
		writeFileB(b, path, src.String())
	}
	return ws
}

func writeFileB(b *testing.B, path, text string) {
	b.Helper()
	if err := mkdirWrite(path, text); err != nil {
		b.Fatal(err)
	}
}

func mkdirWrite(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o600)
}

func BenchmarkAnalyzeDirectory200Files(b *testing.B) {
	ws := goWorkspace(b, 200)
	a := &Analyze{WorkDir: ws}
	defer a.Close()
	args := json.RawMessage(`{"path":".","force":true}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := a.Call(context.Background(), "analyze", args); res.IsError {
			b.Fatal(res.Text)
		}
	}
}

func BenchmarkAnalyzeFocus200Files(b *testing.B) {
	ws := goWorkspace(b, 200)
	a := &Analyze{WorkDir: ws}
	defer a.Close()
	args := json.RawMessage(`{"path":".","focus":"F7_3","force":true}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := a.Call(context.Background(), "analyze", args); res.IsError {
			b.Fatal(res.Text)
		}
	}
}

func BenchmarkLoadSkill100Skills(b *testing.B) {
	ws := b.TempDir()
	for i := 0; i < 100; i++ {
		dir := filepath.Join(ws, ".agents/skills", fmt.Sprintf("s%d", i))
		if err := mkdirWrite(filepath.Join(dir, "SKILL.md"), fmt.Sprintf("---\nname: s%d\ndescription: skill %d\n---\nBody $1.\n", i, i)); err != nil {
			b.Fatal(err)
		}
		if err := mkdirWrite(filepath.Join(dir, "ref.md"), "reference"); err != nil {
			b.Fatal(err)
		}
	}
	s := &Skills{WorkDir: ws}
	defer s.Close()
	args := json.RawMessage(`{"name":"s50","args":"x"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := s.Call(context.Background(), "load_skill", args); res.IsError {
			b.Fatal(res.Text)
		}
	}
}
