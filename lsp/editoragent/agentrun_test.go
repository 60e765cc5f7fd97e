// Agent runs through the language server with a recording client and a scripted OpenAI-format server:
// executeCommand → progress → versioned applyEdit → didChange; stale edits refused and retried; a new
// file created; approvals; cancellation; undo of a turn.
package editoragent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	lspuri "go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

// editorClient is a client that applies the server's edits to its buffers like an editor.
type editorClient struct {
	*lsptest.Client
	t       *testing.T
	mu      sync.Mutex
	bufs    map[protocol.DocumentURI]string
	vers    map[protocol.DocumentURI]int32
	refuse  func(uri protocol.DocumentURI) bool // answer applied:false (after the user typed)
	ignore  bool                                // answer applied:true but change nothing (Neovim 0.7 on a stale version)
	applied int
}

// editorCaps is the client's workspaceEdit capability of most tests: versioned edits and file creation.
var editorCaps = map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}}

func newEditor(t *testing.T, root string, srv *wiretest.Server, env ...string) *editorClient {
	t.Helper()
	return newEditorWith(t, root, srv, editorCaps, nil, env...)
}

// newEditorWith starts a client with the given workspaceEdit capability and initializationOptions.
func newEditorWith(t *testing.T, root string, srv *wiretest.Server, editCaps, initOpts map[string]any, env ...string) *editorClient {
	t.Helper()
	t.Setenv("GOOSE_PROVIDER", "openai")
	t.Setenv("OPENAI_HOST", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-lsp-test")
	t.Setenv("GOOSE_PATH_ROOT", filepath.Join(root, ".goose-home"))
	t.Setenv("GOOSE_MODE", "auto")
	for i := 0; i+1 < len(env); i += 2 {
		t.Setenv(env[i], env[i+1])
	}
	c := &editorClient{Client: lsptest.New(t), t: t, bufs: map[protocol.DocumentURI]string{}, vers: map[protocol.DocumentURI]int32{}}
	c.Handle("window/workDoneProgress/create", func(json.RawMessage) (any, error) { return nil, nil })
	c.Handle("workspace/applyEdit", c.applyEdit)
	var res map[string]any
	if err := c.Call("initialize", map[string]any{"processId": 1, "rootUri": string(lspuri.File(root)), "initializationOptions": initOpts, "capabilities": map[string]any{
		"window":    map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"workspaceEdit": editCaps},
	}}, &res); err != nil {
		t.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	return c
}

func (c *editorClient) open(path, text string) protocol.DocumentURI {
	return c.openAs(path, "plaintext", text)
}

func (c *editorClient) openAs(path, languageID, text string) protocol.DocumentURI {
	u := protocol.DocumentURI(lspuri.File(path))
	c.mu.Lock()
	c.bufs[u], c.vers[u] = text, 1
	c.mu.Unlock()
	c.Open(u, languageID, text)
	return u
}

// sendChange tells the server about a buffer change, in order, from the client's read loop (like an
// editor applying an edit); a closed connection at the end of a test is not an error.
func (c *editorClient) sendChange(u protocol.DocumentURI, version int32, text string) {
	_ = c.Conn.Notify(context.Background(), "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

func (c *editorClient) text(u protocol.DocumentURI) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bufs[u]
}

type docChange struct {
	Kind         string `json:"kind"`
	URI          protocol.DocumentURI
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

func (c *editorClient) applyEdit(raw json.RawMessage) (any, error) {
	var p struct {
		Edit struct {
			DocumentChanges []docChange `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return map[string]any{"applied": false, "failureReason": err.Error()}, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ignore {
		return map[string]any{"applied": true}, nil
	}
	for _, ch := range p.Edit.DocumentChanges {
		if ch.Kind == "create" {
			path := lspuri.URI(ch.URI).Filename()
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				return map[string]any{"applied": false, "failureReason": err.Error()}, nil
			}
			continue
		}
		if ch.Kind == "delete" {
			if err := os.Remove(lspuri.URI(ch.URI).Filename()); err != nil {
				return map[string]any{"applied": false, "failureReason": err.Error()}, nil
			}
			continue
		}
		u := ch.TextDocument.URI
		if c.refuse != nil && c.refuse(u) {
			return map[string]any{"applied": false, "failureReason": "document changed"}, nil
		}
		if v := ch.TextDocument.Version; v != nil && *v != c.vers[u] {
			return map[string]any{"applied": false, "failureReason": "stale version"}, nil
		}
		text, open := c.bufs[u]
		if !open {
			data, _ := os.ReadFile(lspuri.URI(u).Filename())
			text = string(data)
		}
		for _, e := range ch.Edits {
			text = applyTextEdit(text, e)
		}
		if open {
			c.bufs[u] = text
			c.vers[u]++
			v := c.vers[u]
			c.sendChange(u, v, text)
		} else {
			os.WriteFile(lspuri.URI(u).Filename(), []byte(text), 0o644)
		}
	}
	c.applied++
	return map[string]any{"applied": true}, nil
}

// applyTextEdit applies one edit (ASCII test texts: UTF-16 = bytes).
func applyTextEdit(text string, e protocol.TextEdit) string {
	off := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		o := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			o += len(lines[i])
		}
		return o + int(p.Character)
	}
	return text[:off(e.Range.Start)] + e.NewText + text[off(e.Range.End):]
}

func (c *editorClient) run(command string, arg any) string {
	c.t.Helper()
	var res struct {
		RunID string `json:"runId"`
	}
	if err := c.Call("workspace/executeCommand", map[string]any{"command": command, "arguments": []any{arg}}, &res); err != nil {
		c.t.Fatal(err)
	}
	return res.RunID
}

func (c *editorClient) waitDone(runID string) map[string]any {
	c.t.Helper()
	raw := c.WaitFor("goose/runEvent", func(p json.RawMessage) bool {
		var ev map[string]any
		json.Unmarshal(p, &ev)
		return ev["runId"] == runID && ev["kind"] == "done" && ev["agent"] == ""
	})
	var ev map[string]any
	json.Unmarshal(raw, &ev)
	return ev
}

func writeRecipe(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "edit.yaml")
	os.WriteFile(p, []byte("version: 1.0.0\ntitle: Edit notes\ndescription: edits notes.txt\nprompt: Change beta to gamma in notes.txt and create new.txt\n"), 0o644)
	return p
}

func TestRunRecipeEditsBuffersThroughTheEditor(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"sub/new.txt","content":"fresh\n"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	c := newEditor(t, root, srv)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)
	notes := c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta (unsaved)\n") // the buffer differs from disk
	recipeURI := protocol.DocumentURI(lspuri.File(writeRecipe(t, root)))
	id := c.run("goose.runRecipe", map[string]any{"uri": recipeURI})
	done := c.waitDone(id)
	if done["status"] != "completed" {
		t.Fatalf("done %v", done)
	}
	if got := c.text(notes); got != "alpha\ngamma (unsaved)\n" {
		t.Errorf("buffer %q", got)
	}
	if disk, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(disk) != "alpha\nbeta\n" {
		t.Errorf("the disk was written behind the editor: %q", disk)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "sub", "new.txt")); string(data) != "fresh\n" {
		t.Errorf("new.txt %q", data)
	}
	// the edit was minimal and versioned
	edits := c.Received("workspace/applyEdit")
	var first struct {
		Edit struct {
			DocumentChanges []docChange `json:"documentChanges"`
		} `json:"edit"`
	}
	json.Unmarshal(edits[0], &first)
	dc := first.Edit.DocumentChanges[0]
	if dc.TextDocument.Version == nil || *dc.TextDocument.Version != 1 || len(dc.Edits) != 1 || dc.Edits[0].NewText != "gamm" ||
		dc.Edits[0].Range.Start != (protocol.Position{Line: 1, Character: 0}) || dc.Edits[0].Range.End != (protocol.Position{Line: 1, Character: 3}) {
		t.Errorf("first edit %s", edits[0])
	}
	var second struct {
		Edit struct {
			DocumentChanges []docChange `json:"documentChanges"`
		} `json:"edit"`
	}
	json.Unmarshal(edits[1], &second)
	if len(second.Edit.DocumentChanges) != 2 || second.Edit.DocumentChanges[0].Kind != "create" {
		t.Errorf("new file edit %s", edits[1])
	}
	// progress and events (the progress end follows the done event)
	c.WaitFor("$/progress", func(p json.RawMessage) bool { return strings.Contains(string(p), `"kind":"end"`) })
	kinds := map[string]bool{}
	for _, p := range c.Received("$/progress") {
		var v struct {
			Value struct {
				Kind    string `json:"kind"`
				Message string `json:"message"`
			} `json:"value"`
		}
		json.Unmarshal(p, &v)
		kinds[v.Value.Kind+":"+v.Value.Message] = true
	}
	if !kinds["begin:starting"] || !kinds["report:edit notes.txt"] || !kinds["end:completed"] {
		t.Errorf("progress %v", kinds)
	}
	var evKinds []string
	for _, p := range c.Received("goose/runEvent") {
		var ev map[string]any
		json.Unmarshal(p, &ev)
		evKinds = append(evKinds, ev["kind"].(string))
	}
	joined := strings.Join(evKinds, ",")
	for _, want := range []string{"start", "toolStart", "edit", "toolEnd", "text", "done"} {
		if !strings.Contains(joined, want) {
			t.Errorf("events %s lack %s", joined, want)
		}
	}
	// undo the first turn: the buffer gets its text back
	var undo map[string]any
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.undoTurn", "arguments": []any{map[string]any{"runId": id, "turn": 1}}}, &undo); err != nil {
		t.Fatal(err)
	}
	if got := c.text(notes); got != "alpha\nbeta (unsaved)\n" {
		t.Errorf("after undo %q", got)
	}
}

func TestStaleEditIsRefusedAndRetriedOnFreshText(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		msgs, _ := json.Marshal(body["messages"])
		switch {
		case n == 0:
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}}
		case n == 1 && strings.Contains(string(msgs), "changed in the editor since it was read"):
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}}
		}
		return wiretest.Reply{Text: "ok"}
	})
	defer srv.Close()
	c := newEditor(t, root, srv)
	notes := c.open(filepath.Join(root, "notes.txt"), "alpha\nbeta\n")
	once := true
	c.refuse = func(u protocol.DocumentURI) bool {
		if u == notes && once {
			once = false
			// the user types while the agent's edit is in flight
			c.bufs[u] = "typed by user\nalpha\nbeta\n"
			c.vers[u]++
			v := c.vers[u]
			c.sendChange(u, v, c.bufs[u])
			return true
		}
		return false
	}
	recipeURI := protocol.DocumentURI(lspuri.File(writeRecipe(t, root)))
	id := c.run("goose.runRecipe", map[string]any{"uri": recipeURI})
	if done := c.waitDone(id); done["status"] != "completed" {
		t.Fatalf("done %v", done)
	}
	if got := c.text(notes); got != "typed by user\nalpha\ngamma\n" {
		t.Errorf("buffer %q: the user's text or the agent's retry is missing", got)
	}
}

func TestApprovalsAndCancel(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"a.txt","content":"a"}`}}},
		wiretest.Reply{Text: "thinking forever", Hang: true},
	))
	defer srv.Close()
	c := newEditor(t, root, srv, "GOOSE_MODE", "approve")
	var asked []string
	var mu sync.Mutex
	c.Handle("window/showMessageRequest", func(raw json.RawMessage) (any, error) {
		var p struct {
			Message string `json:"message"`
		}
		json.Unmarshal(raw, &p)
		mu.Lock()
		asked = append(asked, p.Message)
		mu.Unlock()
		return map[string]any{"title": "Deny"}, nil
	})
	id := c.run("goose.ask", map[string]any{"prompt": "write a.txt"})
	// the second reply hangs: cancel through the progress token
	c.WaitFor("goose/runEvent", func(p json.RawMessage) bool { return strings.Contains(string(p), `"kind":"text"`) })
	c.Notify("window/workDoneProgress/cancel", map[string]any{"token": "goose-" + id})
	if done := c.waitDone(id); done["status"] != "cancelled" {
		t.Errorf("status %v", done["status"])
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); err == nil {
		t.Error("a denied write happened")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0], "write a.txt (writes 1 line)") {
		t.Errorf("asked %q", asked)
	}
	if msgs, _ := json.Marshal(srv.Requests()[1]["messages"]); !strings.Contains(string(msgs), "The user has declined to run this tool") {
		t.Error("the denial did not reach the model")
	}
}

func TestDiagnosticsOfAWrittenRecipeGoBackToTheModel(t *testing.T) {
	root := t.TempDir()
	bad := "version: 1.0.0\ntitle: T\ndescription: d\nprompt: hi {{ nobody }}\n"
	args, _ := json.Marshal(map[string]string{"path": "made.recipe.yaml", "content": bad})
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: string(args)}}}, wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	c := newEditor(t, root, srv)
	id := c.run("goose.ask", map[string]any{"prompt": "write a recipe"})
	c.waitDone(id)
	msgs, _ := json.Marshal(srv.Requests()[1]["messages"])
	if !strings.Contains(string(msgs), "goose-ls found problems in this recipe") || !strings.Contains(string(msgs), "PARAM-UNDEFINED") {
		t.Errorf("diagnostics not returned: %s", msgs)
	}
}

func TestRunRecipeMissingParameters(t *testing.T) {
	root := t.TempDir()
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "x"}))
	defer srv.Close()
	c := newEditor(t, root, srv)
	p := filepath.Join(root, "p.yaml")
	os.WriteFile(p, []byte("version: 1.0.0\ntitle: P\ndescription: d\nprompt: hi {{ who }}\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: who\n"), 0o644)
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.runRecipe", "arguments": []any{map[string]any{"uri": lspuri.File(p)}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "--params who=your_value") {
		t.Errorf("missing params: %v", err)
	}
	var params []map[string]any
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.recipeParameters", "arguments": []any{map[string]any{"uri": lspuri.File(p)}}}, &params); err != nil || len(params) != 1 || params[0]["key"] != "who" || params[0]["requirement"] != "required" {
		t.Errorf("parameters %v %v", params, err)
	}
}
