// Sub-recipes in a run read only inside the run's roots: a child outside (path, symlink, device) gives no
// tool parameters and cannot start, and a parent's `values` cannot make a child read a file outside.

//go:build linux

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

const agentMarker = "MARKER-AGENT-SECRET-2c8f"

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSubRecipeReadsStayInRoots(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	child := "title: " + agentMarker + "\ndescription: " + agentMarker + "\nprompt: hi\nparameters:\n  - key: " + agentMarker + "\n    input_type: string\n    requirement: required\n    description: " + agentMarker + "\n"
	writeFile(t, filepath.Join(outside, "child.yaml"), child)
	writeFile(t, filepath.Join(outside, "secret.txt"), agentMarker)
	writeFile(t, filepath.Join(ws, "inside.yaml"), "title: In\ndescription: D\nprompt: \"{{ f }}\"\nparameters:\n  - key: f\n    input_type: file\n    requirement: required\n    description: a file\n")
	if err := os.Symlink(filepath.Join("..", "outside", "child.yaml"), filepath.Join(ws, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots := []string{ws}
	cases := []struct {
		name, path string
		want       error
	}{
		{"dot-dot", filepath.Join(ws, "..", "outside", "child.yaml"), recipe.ErrOutsideRoots},
		{"absolute", filepath.Join(outside, "child.yaml"), recipe.ErrOutsideRoots},
		{"symlink out", filepath.Join(ws, "link.yaml"), recipe.ErrOutsideRoots},
		{"FIFO", filepath.Join(ws, "pipe.yaml"), recipe.ErrNotRegular},
		{"/dev/zero", "/dev/zero", recipe.ErrOutsideRoots},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := subRecipeSpec(SubRecipeDoc{Name: "c", Path: c.path}, c.path, roots)
			raw, _ := json.Marshal(spec)
			if strings.Contains(string(raw), agentMarker) {
				t.Errorf("the tool spec carries the outside child: %s", raw)
			}
			_, err := RunRecipe(context.Background(), RunOptions{RecipePath: c.path, depth: 1, readRoots: roots})
			if !errors.Is(err, c.want) {
				t.Errorf("RunRecipe: %v, want %v", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), agentMarker) {
				t.Errorf("error echoes content: %v", err)
			}
		})
	}
	t.Run("preset file value outside", func(t *testing.T) {
		_, err := RunRecipe(context.Background(), RunOptions{RecipePath: filepath.Join(ws, "inside.yaml"), depth: 1, readRoots: roots,
			Params: map[string]string{"f": filepath.Join(outside, "secret.txt")}})
		if !errors.Is(err, recipe.ErrOutsideRoots) {
			t.Errorf("a parent's value made the child read outside: %v", err)
		}
		if err != nil && strings.Contains(err.Error(), agentMarker) {
			t.Errorf("error echoes content: %v", err)
		}
	})
	t.Run("inside child is described", func(t *testing.T) {
		p := filepath.Join(ws, "inside.yaml")
		raw, _ := json.Marshal(subRecipeSpec(SubRecipeDoc{Name: "c", Path: p}, p, roots))
		if !strings.Contains(string(raw), `"f":{"description":"a file"`) {
			t.Errorf("the inside child's parameters are missing from the tool: %s", raw)
		}
	})
}

func TestFinalOutputSchemaLoadsNoRef(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "schema.json"), `{"type":"string","description":"`+agentMarker+`"}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the final-output schema fetched %s", r.URL)
	}))
	defer srv.Close()
	for _, ref := range []string{"file://" + filepath.Join(dir, "schema.json"), srv.URL + "/schema.json"} {
		_, err := NewFinalOutput(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"` + ref + `"}}}`))
		if !errors.Is(err, recipe.ErrExternalRef) {
			t.Errorf("$ref %s: %v, want the external-ref refusal", ref, err)
		}
		if err != nil && strings.Contains(err.Error(), agentMarker) {
			t.Errorf("error echoes content: %v", err)
		}
	}
	if _, err := NewFinalOutput(json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"string"}}}`)); err != nil {
		t.Errorf("an in-document $ref must resolve: %v", err)
	}
}
