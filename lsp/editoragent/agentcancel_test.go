// A cancel that reaches the run while the editor still holds an edit: the edit is not abandoned.

package editoragent_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// TestCancelBeforeTheEditAnswerKeepsTheEdit: the editor answers an edit only after the user cancelled
// the run (it applies it, as an editor with a review open would on the user's accept). The run still
// waits for the answer, so the edit it reports and records for undo is the one the buffer holds.
func TestCancelBeforeTheEditAnswerKeepsTheEdit(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	c := newEditor(t, root, srv)
	notes := c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	received, release := make(chan struct{}), make(chan struct{})
	c.Handle("workspace/applyEdit", func(raw json.RawMessage) (any, error) {
		close(received)
		<-release
		return c.applyEdit(raw)
	})
	id := c.run("goose.ask", map[string]any{"prompt": "change beta to gamma in notes.txt"})
	select {
	case <-received:
	case <-time.After(30 * time.Second):
		t.Fatal("no edit reached the editor")
	}
	c.Notify("window/workDoneProgress/cancel", map[string]any{"token": "goose-" + id})
	time.Sleep(300 * time.Millisecond) // the cancel is through to the run before the editor answers
	close(release)
	if done := c.waitDone(id); done["status"] != "cancelled" {
		t.Errorf("status %v, want cancelled", done["status"])
	}
	if got := c.text(notes); got != "alpha\ngamma\n" {
		t.Fatalf("buffer %q: the editor applied the edit", got)
	}
	var edited bool
	for _, p := range c.Received("goose/runEvent") {
		var ev map[string]any
		json.Unmarshal(p, &ev)
		if ev["runId"] == id && ev["kind"] == "edit" && strings.HasSuffix(ev["path"].(string), "notes.txt") {
			edited = true
		}
	}
	if !edited {
		t.Error("the run reported no edit of notes.txt, yet the buffer holds it")
	}
}
