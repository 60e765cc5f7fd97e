// Sub-recipes in a run are read only inside the run's roots: a child outside (path, symlink, device) is
// described by its path only, cannot be loaded or delegated to, and neither a parent's `values` nor the
// model's `parameters` can make a child read a file outside.

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
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

const agentMarker = "MARKER-AGENT-SECRET-2c8f"

// parentNaming is a recipe whose only sub-recipe is path (with preset values).
func parentNaming(path, values string) string {
	return "title: P\ndescription: D\nprompt: go\nsub_recipes:\n  - name: c\n    path: " + strconv.Quote(path) + "\n" + values
}

func TestSubRecipeReadsStayInRoots(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	child := "title: " + agentMarker + "\ndescription: " + agentMarker + "\ninstructions: " + agentMarker + "\nprompt: hi\nparameters:\n  - key: " + agentMarker + "\n    input_type: string\n    requirement: optional\n    default: x\n    description: " + agentMarker + "\n"
	writeFile(t, filepath.Join(outside, "child.yaml"), child)
	writeFile(t, filepath.Join(outside, "secret.txt"), agentMarker)
	writeFile(t, filepath.Join(ws, "inside.yaml"), "title: In\ndescription: D\nprompt: \"{{ f }}\"\nparameters:\n  - key: f\n    input_type: file\n    requirement: required\n    description: a file\n")
	if err := os.Symlink(filepath.Join("..", "outside", "child.yaml"), filepath.Join(ws, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	neverAsked := func(provider.Settings) (provider.Setup, error) {
		t.Error("a sub-agent started on a child that was refused")
		return provider.Setup{}, errors.New("refused")
	}
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
			s := summonFor(t, ws, parentNaming(c.path, ""), neverAsked)
			if _, err := s.readConfined(s.subs[0].Path); !errors.Is(err, c.want) {
				t.Errorf("read: %v, want %v", err, c.want)
			}
			listing := summonCall(s, "load", `{}`)
			if !strings.Contains(listing.Text, "• c - Subrecipe from "+s.subs[0].Path+"\n") {
				t.Errorf("load() must describe the refused child by its path only:\n%s", listing.Text)
			}
			loaded := summonCall(s, "load", `{"source":"c"}`)
			res := summonCall(s, "delegate", `{"source":"c"}`)
			if !res.IsError || !strings.HasPrefix(res.Text, "Error: Failed to build subrecipe: ") {
				t.Errorf("delegate: %+v", res)
			}
			for _, text := range []string{listing.Text, loaded.Text, res.Text, s.Instructions()} {
				if strings.Contains(text, agentMarker) {
					t.Errorf("the outside child reached the model: %s", text)
				}
			}
		})
	}
	t.Run("preset file value outside", func(t *testing.T) {
		s := summonFor(t, ws, parentNaming(filepath.Join(ws, "inside.yaml"), "    values:\n      f: "+strconv.Quote(filepath.Join(outside, "secret.txt"))+"\n"), neverAsked)
		res := summonCall(s, "delegate", `{"source":"c"}`)
		if !res.IsError || !strings.Contains(res.Text, recipe.ErrOutsideRoots.Error()) || strings.Contains(res.Text, agentMarker) {
			t.Errorf("a parent's value made the child read outside: %+v", res)
		}
	})
	t.Run("the model's parameter naming a file outside", func(t *testing.T) {
		s := summonFor(t, ws, parentNaming(filepath.Join(ws, "inside.yaml"), ""), neverAsked)
		res := summonCall(s, "delegate", `{"source":"c","parameters":{"f":`+strconv.Quote(filepath.Join(outside, "secret.txt"))+`}}`)
		if !res.IsError || !strings.Contains(res.Text, recipe.ErrOutsideRoots.Error()) || strings.Contains(res.Text, agentMarker) {
			t.Errorf("the model's parameter made the child read outside: %+v", res)
		}
	})
	t.Run("whole run", func(t *testing.T) {
		writeFile(t, filepath.Join(ws, "run.yaml"), parentNaming(filepath.Join(outside, "child.yaml"), ""))
		model := &capture{calls: []provider.ToolCall{toolCall("load", map[string]any{}), toolCall("load", map[string]any{"source": "c"}), toolCall("delegate", map[string]any{"source": "c"})}}
		factoryCalls := 0
		out, err := RunRecipe(context.Background(), RunOptions{RecipePath: filepath.Join(ws, "run.yaml"), Workspace: tools.Disk{Dir: ws}, Lookup: noLookup,
			Providers: func(provider.Settings) (provider.Setup, error) {
				factoryCalls++
				return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
			}})
		if err != nil || out.Status != StatusCompleted {
			t.Fatalf("run: %v %s", err, out.Status)
		}
		if strings.Contains(model.sent(), agentMarker) {
			t.Errorf("the outside child reached the model")
		}
		if factoryCalls != 1 {
			t.Errorf("a sub-agent started: %d providers", factoryCalls)
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
