// The language server on a recipe whose sub-recipe leaves the workspace: an information diagnostic, and no
// byte of the outside file in diagnostics, hover, completion, definition or document links.

package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

const outsideMarker = "MARKER-OUTSIDE-41d7"

func TestSubRecipeOutsideWorkspaceNeverShown(t *testing.T) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := "title: " + outsideMarker + "\ndescription: " + outsideMarker + "\nprompt: hi\nparameters:\n  - key: " + outsideMarker + "\n    input_type: string\n    requirement: required\n    description: " + outsideMarker + "\n"
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "outside", "secret.yaml"), filepath.Join(ws, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	docURI := protocol.DocumentURI("file://" + filepath.Join(ws, "r.yaml"))
	text := "title: T\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: a\n    path: ../outside/secret.yaml\n    values:\n      \n  - name: b\n    path: ./link.yaml\n"

	c := lsptest.New(t)
	c.Initialize(nil)
	c.Open(docURI, "yaml", text)
	diags := c.Diagnostics(docURI, 1)
	var outsideDiags int
	for _, d := range diags {
		if d.Code == "FILE-OUTSIDE-WORKSPACE" && d.Severity == protocol.DiagnosticSeverityInformation && strings.HasPrefix(d.Message, "not checked: outside the workspace: ") {
			outsideDiags++
		}
	}
	if outsideDiags != 2 {
		t.Errorf("want 2 FILE-OUTSIDE-WORKSPACE information diagnostics, got %+v", diags)
	}
	pos := func(line, char uint32) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": map[string]any{"line": line, "character": char}}
	}
	var answers []string
	ask := func(method string, params any) {
		var raw json.RawMessage
		if err := c.Call(method, params, &raw); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		answers = append(answers, method+": "+string(raw))
	}
	ask("textDocument/hover", pos(5, 14))
	ask("textDocument/hover", pos(9, 14))
	ask("textDocument/definition", pos(5, 14))
	ask("textDocument/definition", pos(9, 14))
	ask("textDocument/completion", pos(7, 6))
	ask("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": docURI}})
	raw, _ := json.Marshal(diags)
	answers = append(answers, "diagnostics: "+string(raw))
	for _, a := range answers {
		if strings.Contains(a, outsideMarker) {
			t.Errorf("outside content reached the editor: %s", a)
		}
		if strings.Contains(a, "outside/secret.yaml\"") && strings.Contains(a, "\"uri\"") {
			t.Errorf("a location points outside the workspace: %s", a)
		}
	}
	if !strings.Contains(answers[0], "not checked: outside the workspace") {
		t.Errorf("hover on the outside path should say why it is not shown: %s", answers[0])
	}
}
