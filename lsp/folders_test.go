// Workspace folders added and removed after initialize change what a recipe's sub-recipes may read.

package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

func TestWorkspaceFoldersChangeTheRoots(t *testing.T) {
	base := t.TempDir()
	ws, other := filepath.Join(base, "ws"), filepath.Join(base, "other")
	for _, d := range []string{ws, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	child := "title: C\ndescription: D\nprompt: \"{{ who }}\"\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: w\n"
	if err := os.WriteFile(filepath.Join(other, "child.yaml"), []byte(child), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := protocol.DocumentURI("file://" + filepath.Join(ws, "r.yaml"))
	c := lsptest.New(t)
	var res map[string]any
	if err := c.Call("initialize", map[string]any{"processId": 1, "rootUri": "file://" + ws, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": "file://" + ws, "name": "ws"}}}, &res); err != nil {
		t.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	caps, _ := json.Marshal(res["capabilities"])
	var adv struct {
		Workspace struct {
			WorkspaceFolders struct{ Supported, ChangeNotifications bool }
		}
	}
	if json.Unmarshal(caps, &adv); !adv.Workspace.WorkspaceFolders.ChangeNotifications {
		t.Errorf("workspace folder changes not advertised: %s", caps)
	}
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: c\n    path: ../other/child.yaml\n")
	codes := func(d []protocol.Diagnostic) map[string]bool {
		out := map[string]bool{}
		for _, x := range d {
			out[x.Code.(string)] = true
		}
		return out
	}
	if got := codes(c.Diagnostics(uri, 1)); !got["FILE-OUTSIDE-WORKSPACE"] {
		t.Fatalf("the sub-recipe outside the folder was not reported: %v", got)
	}
	// published waits for a publication after the earlier ones with want and without notWant
	published := func(earlier []json.RawMessage, want, notWant string) {
		t.Helper()
		c.WaitForAfter("textDocument/publishDiagnostics", len(earlier), func(raw json.RawMessage) bool {
			var p protocol.PublishDiagnosticsParams
			if json.Unmarshal(raw, &p) != nil || p.URI != uri {
				return false
			}
			got := codes(p.Diagnostics)
			return got[want] && !got[notWant]
		})
	}
	folders := func(added, removed string) {
		ev := map[string]any{"added": []any{}, "removed": []any{}}
		if added != "" {
			ev["added"] = []any{map[string]any{"uri": "file://" + added, "name": "x"}}
		}
		if removed != "" {
			ev["removed"] = []any{map[string]any{"uri": "file://" + removed, "name": "x"}}
		}
		c.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": ev})
	}
	// the other folder joins the workspace: the child is read, and its required parameter is missing
	n := c.Received("textDocument/publishDiagnostics")
	folders(other, "")
	published(n, "SUBRECIPE-MISSING-VALUE", "FILE-OUTSIDE-WORKSPACE")
	// and leaves it again
	n = c.Received("textDocument/publishDiagnostics")
	folders("", other)
	published(n, "FILE-OUTSIDE-WORKSPACE", "SUBRECIPE-MISSING-VALUE")
}
