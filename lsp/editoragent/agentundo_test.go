// Undo of a turn (one workspace edit; created files deleted) and change annotations on the agent's edits.
package editoragent_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// editAndCreate is a model that, in one turn, edits beta to gamma in a file and creates made.txt, then
// finishes.
func editAndCreate(file string) *wiretest.Server {
	return wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{
			{Name: "edit", Args: `{"path":"` + file + `","before":"beta","after":"gamma"}`},
			{Name: "write", Args: `{"path":"made.txt","content":"made\n"}`},
		}},
		wiretest.Reply{Text: "Done."},
	))
}

func TestUndoTurnIsOneEditAndDeletesCreatedFiles(t *testing.T) {
	root := t.TempDir()
	srv := editAndCreate("notes.txt")
	defer srv.Close()
	c := newEditorWith(t, root, srv, map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "delete"}}, nil)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	notes := c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	id := c.run("goose.ask", map[string]any{"prompt": "edit and create"})
	if done := c.waitDone(id); done["status"] != "completed" {
		t.Fatalf("done %v", done)
	}
	made := filepath.Join(root, "made.txt")
	if data, _ := os.ReadFile(made); string(data) != "made\n" || c.text(notes) != "alpha\ngamma\n" {
		t.Fatalf("after the run: made.txt %q, notes %q", data, c.text(notes))
	}
	before := len(c.Received("workspace/applyEdit"))
	var undo struct {
		Reverted []string `json:"reverted"`
	}
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.undoTurn", "arguments": []any{map[string]any{"runId": id, "turn": 1}}}, &undo); err != nil {
		t.Fatal(err)
	}
	edits := c.Received("workspace/applyEdit")
	if len(edits) != before+1 {
		t.Fatalf("undo sent %d workspace edits, want 1", len(edits)-before)
	}
	var last struct {
		Edit struct {
			DocumentChanges []docChange `json:"documentChanges"`
		} `json:"edit"`
	}
	json.Unmarshal(edits[len(edits)-1], &last)
	kinds := []string{}
	for _, dc := range last.Edit.DocumentChanges {
		kinds = append(kinds, dc.Kind)
	}
	sort.Strings(kinds)
	if strings.Join(kinds, ",") != ",delete" {
		t.Errorf("undo edit operations %q (want a text edit and a delete)", kinds)
	}
	if c.text(notes) != "alpha\nbeta\n" {
		t.Errorf("notes after undo %q", c.text(notes))
	}
	if _, err := os.Stat(made); !os.IsNotExist(err) {
		t.Errorf("made.txt still exists after undo: %v", err)
	}
	if len(undo.Reverted) != 2 {
		t.Errorf("reverted %v", undo.Reverted)
	}
	// the turn is undone: a second undo says so
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.undoTurn", "arguments": []any{map[string]any{"runId": id, "turn": 1}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "no edits in turn 1") {
		t.Errorf("second undo: %v", err)
	}
}

func TestUndoRefusesFilesTheUserChanged(t *testing.T) {
	root := t.TempDir()
	srv := editAndCreate("r.yaml")
	defer srv.Close()
	c := newEditor(t, root, srv)
	original := "title: beta\ndescription: d\nprompt: p\n"
	os.WriteFile(filepath.Join(root, "r.yaml"), []byte(original), 0o644)
	notes := c.openAs(filepath.Join(root, "r.yaml"), "yaml", original)
	id := c.run("goose.ask", map[string]any{"prompt": "edit and create"})
	c.waitDone(id)
	// the user types after the agent's edit
	c.mu.Lock()
	c.bufs[notes] += "# mine\n"
	c.vers[notes]++
	v, text := c.vers[notes], c.bufs[notes]
	c.mu.Unlock()
	c.sendChange(notes, v, text)
	c.Diagnostics(notes, uint32(v)) // the change has been processed once its diagnostics arrive
	n := len(c.Received("workspace/applyEdit"))
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.undoTurn", "arguments": []any{map[string]any{"runId": id, "turn": 1}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "r.yaml") || strings.Contains(err.Error(), "made.txt") {
		t.Fatalf("undo over a user's change: %v", err)
	}
	if len(c.Received("workspace/applyEdit")) != n || c.text(notes) != "title: gamma\ndescription: d\nprompt: p\n# mine\n" {
		t.Errorf("undo touched the buffer: %q", c.text(notes))
	}
	if _, err := os.Stat(filepath.Join(root, "made.txt")); err != nil {
		t.Errorf("made.txt removed by a refused undo: %v", err)
	}
}

func TestEditsCarryOneChangeAnnotationPerTurn(t *testing.T) {
	root := t.TempDir()
	srv := editAndCreate("notes.txt")
	defer srv.Close()
	caps := map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}, "changeAnnotationSupport": map[string]any{"groupsOnLabel": true}}
	c := newEditorWith(t, root, srv, caps, map[string]any{"reviewEdits": true})
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	id := c.run("goose.ask", map[string]any{"prompt": "edit and create"})
	c.waitDone(id)
	edits := c.Received("workspace/applyEdit")
	if len(edits) != 2 {
		t.Fatalf("%d edits", len(edits))
	}
	for _, raw := range edits {
		var p struct {
			Edit struct {
				ChangeAnnotations map[string]struct {
					Label             string `json:"label"`
					NeedsConfirmation bool   `json:"needsConfirmation"`
				} `json:"changeAnnotations"`
				DocumentChanges []map[string]any `json:"documentChanges"`
			} `json:"edit"`
		}
		json.Unmarshal(raw, &p)
		a, ok := p.Edit.ChangeAnnotations["goose:"+id+":turn-1"]
		if !ok || !a.NeedsConfirmation || !strings.Contains(a.Label, "turn 1") {
			t.Errorf("annotations %s", raw)
		}
		for _, dc := range p.Edit.DocumentChanges {
			ann := dc["annotationId"]
			if edits, ok := dc["edits"].([]any); ok {
				ann = edits[0].(map[string]any)["annotationId"]
			}
			if ann != "goose:"+id+":turn-1" {
				t.Errorf("operation without the turn's annotation: %v", dc)
			}
		}
	}
}

// A client that answers "applied" without changing the buffer (Neovim 0.7 skips an edit for an older
// version and still says applied): the tool reports the edit as not made, with the buffer's text.
func TestEditAnsweredAppliedButNotMadeIsAnError(t *testing.T) {
	root := t.TempDir()
	srv := editAndCreate("notes.txt")
	defer srv.Close()
	c := newEditor(t, root, srv)
	c.ignore = true
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	id := c.run("goose.ask", map[string]any{"prompt": "edit"})
	c.waitDone(id)
	end := c.WaitFor("goose/runEvent", func(p json.RawMessage) bool {
		return strings.Contains(string(p), `"kind":"toolEnd"`) && strings.Contains(string(p), `"tool":"edit"`)
	})
	var ev struct {
		Result  string `json:"result"`
		IsError bool   `json:"isError"`
	}
	json.Unmarshal(end, &ev)
	if !ev.IsError || !strings.Contains(ev.Result, "does not hold the edit") || !strings.Contains(ev.Result, "alpha\nbeta") {
		t.Errorf("edit result %+v", ev)
	}
}

func TestApprovalAllowForThisRunAsksOnce(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"a.txt","content":"a\nb\n"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"b.txt","content":"b"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	c := newEditor(t, root, srv, "GOOSE_MODE", "approve")
	var asked []string
	c.Handle("window/showMessageRequest", func(raw json.RawMessage) (any, error) {
		var p struct {
			Message string `json:"message"`
		}
		json.Unmarshal(raw, &p)
		asked = append(asked, p.Message) // approvals are asked one at a time
		return map[string]any{"title": "Allow for this run"}, nil
	})
	if done := c.waitDone(c.run("goose.ask", map[string]any{"prompt": "write two files"})); done["status"] != "completed" {
		t.Fatalf("done %v", done)
	}
	for _, f := range []string{"a.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s not written after approval: %v", f, err)
		}
	}
	if len(asked) != 1 || !strings.Contains(asked[0], "write a.txt (writes 2 lines)") {
		t.Errorf("asked %q", asked)
	}
}
