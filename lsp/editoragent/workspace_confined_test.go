//go:build !windows

// The editor workspace reaches the disk through the run's os.Root: no edit is sent for a path through a
// symbolic link (the editor would follow it), and files outside are neither read nor written.
package editoragent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	lspuri "go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestEditorWorkspaceRefusesLinks(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const secretText = "OUTSIDE-ONLY"
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte(secretText+"\n"), 0o644)
	os.WriteFile(filepath.Join(root, "real.txt"), []byte("real\n"), 0o644)
	for target, name := range map[string]string{secret: "link.txt", outside: "linkdir", "real.txt": "alias.txt"} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "read", Args: `{"path":"link.txt"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"link.txt","content":"pwned\n"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"linkdir/new.txt","content":"pwned\n"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"alias.txt","before":"real","after":"pwned"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	c := newEditor(t, root, srv)
	alias := c.open(filepath.Join(root, "alias.txt"), "real\n") // an open buffer, but its path is a link
	id := c.run("goose.runRecipe", map[string]any{"uri": string(lspuri.File(writeRecipe(t, root)))})
	if done := c.waitDone(id); done["status"] != "completed" {
		t.Fatalf("done %v", done)
	}
	if edits := c.Received("workspace/applyEdit"); len(edits) != 0 {
		t.Errorf("edits were sent for paths through links: %s", edits)
	}
	if got := c.text(alias); got != "real\n" {
		t.Errorf("alias.txt buffer: %q", got)
	}
	if data, _ := os.ReadFile(secret); string(data) != secretText+"\n" {
		t.Errorf("the file outside was written: %q", data)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("files appeared outside: %d entries", len(entries))
	}
	sent, _ := json.Marshal(srv.Requests())
	if strings.Contains(string(sent), secretText) {
		t.Error("the provider received the outside file's text")
	}
	for _, want := range []string{"Failed to read link.txt", "Failed to write link.txt", "Failed to write linkdir/new.txt", "Failed to write alias.txt", "do not write through symbolic links"} {
		if !strings.Contains(string(sent), want) {
			t.Errorf("the model was not told %q", want)
		}
	}
}
