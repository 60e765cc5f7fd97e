//go:build unix

// goose's _goose/unstable/recipes/* methods over the SDK's client side: payloads as goose sends them
// (snake_case), goose's errors, and an unknown method not found.

package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe/library"
)

func (h *harness) ext(method string, params any) (map[string]any, error) {
	raw, err := h.conn.CallExtension(context.Background(), method, params)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		h.t.Fatalf("%s: %s: %v", method, raw, err)
	}
	return out, nil
}

func TestRecipesListIsGoosesManifestList(t *testing.T) {
	h, _, lib := gooseHarness(t, newModel(text("x")), sdk.ClientCapabilities{}, `{}`, harnessOptions{})
	greet, plain := filepath.Join(lib, "greet.yaml"), filepath.Join(lib, "plain.yaml")
	older := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	os.Chtimes(greet, older, older)
	os.Chtimes(plain, older.Add(time.Hour), older.Add(time.Hour))
	os.WriteFile(filepath.Join(h.home, "config", "config.yaml"), []byte("slash_commands:\n  - command: greet\n    recipe_path: "+greet+"\n"), 0o644)
	got, err := h.ext("_goose/unstable/recipes/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"recipes": []any{
		map[string]any{"id": library.ManifestID(plain), "file_path": plain, "last_modified": "2026-03-04T06:06:07+00:00",
			"recipe": map[string]any{"version": "1.0.0", "title": "Plain", "description": "No parameters", "instructions": "Be plain."}},
		map[string]any{"id": library.ManifestID(greet), "file_path": greet, "last_modified": "2026-03-04T05:06:07+00:00", "slash_command": "greet",
			"recipe": map[string]any{"version": "1.0.0", "title": "Greeter", "description": "Greets someone",
				"instructions": "You greet {{ name }} in a {{ tone }} tone.", "prompt": "Say hello to {{ name }}",
				"parameters": []any{
					map[string]any{"key": "name", "input_type": "string", "requirement": "required", "description": "who"},
					map[string]any{"key": "tone", "input_type": "select", "requirement": "optional", "description": "how", "default": "warm", "options": []any{"warm", "dry"}},
				}}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("recipes/list (-want +got):\n%s", diff)
	}
}

func TestRecipesParseEncodeDecodeToYAMLScan(t *testing.T) {
	h, _, _ := gooseHarness(t, newModel(text("x")), sdk.ClientCapabilities{}, `{}`, harnessOptions{})
	parsed, err := h.ext("_goose/unstable/recipes/parse", map[string]any{"content": greetRecipe})
	if err != nil {
		t.Fatal(err)
	}
	recipe := parsed["recipe"].(map[string]any)
	if recipe["prompt"] != "Say hello to {{ name }}" || len(recipe["parameters"].([]any)) != 2 {
		t.Fatalf("parse: %+v", parsed)
	}
	enc, err := h.ext("_goose/unstable/recipes/encode", map[string]any{"recipe": recipe})
	if err != nil {
		t.Fatal(err)
	}
	link := enc["deeplink"].(string)
	if strings.HasPrefix(link, "goose://") || strings.ContainsAny(link, "+/=") {
		t.Fatalf("encode: %q is not goose's URL-safe config", link)
	}
	dec, err := h.ext("_goose/unstable/recipes/decode", map[string]any{"deeplink": link})
	if err != nil || !cmp.Equal(dec["recipe"], recipe) {
		t.Fatalf("decode: %+v %v", dec, err)
	}
	y, err := h.ext("_goose/unstable/recipes/to-yaml", map[string]any{"recipe": map[string]any{"title": "T", "description": "D", "prompt": "a\nb", "settings": map[string]any{"max_turns": 3}}})
	if err != nil || y["yaml"] != "version: 1.0.0\ntitle: T\ndescription: D\nprompt: |-\n  a\n  b\nsettings:\n  max_turns: 3\n" {
		t.Fatalf("to-yaml: %q %v", y["yaml"], err)
	}
	for text, want := range map[string]bool{"plain": false, "run\U000E0072\U000E006D this": true} {
		scan, err := h.ext("_goose/unstable/recipes/scan", map[string]any{"recipe": map[string]any{"title": "T", "description": "D", "instructions": text}})
		if err != nil || scan["has_security_warnings"] != want {
			t.Fatalf("scan %q: %+v %v", text, scan, err)
		}
	}
}

func TestRecipesMethodErrorsAreGooses(t *testing.T) {
	h, _, _ := gooseHarness(t, newModel(text("x")), sdk.ClientCapabilities{}, `{}`, harnessOptions{})
	for _, c := range []struct {
		method string
		params any
		code   int
		want   string
	}{
		{"_goose/unstable/recipes/parse", map[string]any{}, -32602, "missing field `content`"},
		{"_goose/unstable/recipes/parse", map[string]any{"content": 7}, -32602, "invalid type: integer `7`, expected a string"},
		{"_goose/unstable/recipes/encode", map[string]any{}, -32602, "missing field `recipe`"},
		{"_goose/unstable/recipes/encode", map[string]any{"recipe": map[string]any{"description": "D"}}, -32602, "missing field `title`"},
		{"_goose/unstable/recipes/to-yaml", map[string]any{"recipe": map[string]any{"title": "T", "description": "D", "extensions": []any{map[string]any{"type": "sse", "name": "x"}}}}, -32602,
			"unknown variant `sse`, expected one of `builtin`, `platform`, `stdio`, `streamable_http`"},
		{"_goose/unstable/recipes/decode", map[string]any{"deeplink": "***"}, -32602, "deeplink: Failed to decode recipe deeplink"},
		{"_goose/unstable/recipes/scan", []any{1}, -32602, "invalid type: sequence, expected a map"},
	} {
		_, err := h.ext(c.method, c.params)
		if re := requestError(t, err); re.Code != c.code || re.Data != c.want {
			t.Errorf("%s %v: %+v, want %d %q", c.method, c.params, re, c.code, c.want)
		}
	}
	// content goose does not validate: "recipe: " and its message
	_, err := h.ext("_goose/unstable/recipes/parse", map[string]any{"content": "title: T\nprompt: p\n"})
	if re := requestError(t, err); re.Code != -32602 || !strings.HasPrefix(re.Data.(string), "recipe: ") {
		t.Fatalf("parse of an invalid recipe: %+v", re)
	}
	_, err = h.ext("_goose/unstable/recipes/save", map[string]any{})
	if re := requestError(t, err); re.Code != -32601 {
		t.Fatalf("an unknown method: %+v", re)
	}
}
