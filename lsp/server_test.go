// Protocol tests over net.Pipe with the real server: lifecycle, error codes, malformed frames,
// incremental sync and pushed diagnostics.
package lsp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

func code(err error) jsonrpc2.Code {
	var e *jsonrpc2.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

func TestLifecycle(t *testing.T) {
	c := lsptest.New(t)
	if err := c.Call("textDocument/hover", map[string]any{}, nil); code(err) != -32002 {
		t.Errorf("request before initialize: %v, want -32002", err)
	}
	res := c.Initialize(nil)
	caps := res["capabilities"].(map[string]any)
	if caps["positionEncoding"] != "utf-16" {
		t.Errorf("positionEncoding = %v", caps["positionEncoding"])
	}
	if err := c.Call("initialize", map[string]any{}, nil); code(err) != jsonrpc2.InvalidRequest {
		t.Errorf("second initialize: %v", err)
	}
	if err := c.Call("goose/nonsense", map[string]any{}, nil); code(err) != jsonrpc2.MethodNotFound {
		t.Errorf("unknown method: %v", err)
	}
	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := c.Call("initialize", map[string]any{}, nil); code(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v", err)
	}
	c.Notify("exit", nil)
	select {
	case got := <-c.ExitCode:
		if got != 0 {
			t.Errorf("exit after shutdown: code %d, want 0", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	c.Notify("exit", nil)
	select {
	case got := <-c.ExitCode:
		if got != 1 {
			t.Errorf("exit without shutdown: code %d, want 1", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit")
	}
}

const uri = protocol.DocumentURI("file:///work/recipes/review.yaml")

func TestDiagnosticsFollowIncrementalEdits(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	// 😀 takes two UTF-16 units: `who` starts at character 18 of line 2
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: \"😀 hi {{ who }}\"\n")
	d := c.Diagnostics(uri, 1)
	if diff := cmp.Diff([]string{"PARAM-UNDEFINED 2:18-2:21"}, lsptest.Codes(d)); diff != "" {
		t.Fatalf("diagnostics (-want +got):\n%s", diff)
	}
	if d[0].Source != "goose-ls" || d[0].CodeDescription == nil || !strings.HasSuffix(string(d[0].CodeDescription.Href), "#param-undefined") {
		t.Errorf("source/codeDescription: %+v", d[0])
	}
	// rename the use to `{{ recipe_dir }}`: replace `who` (UTF-16 18..21 on line 2)
	c.Change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 2, Character: 18}, End: protocol.Position{Line: 2, Character: 21}}, "recipe_dir")
	if d := c.Diagnostics(uri, 2); len(d) != 0 {
		t.Fatalf("after the fix: %v", lsptest.Codes(d))
	}
	// a full-text change (no range) re-introduces an error
	c.Change(uri, 3, nil, "title: T\ndescription: D\n")
	if diff := cmp.Diff([]string{"RECIPE-PROMPT-OR-INSTRUCTIONS 0:0-0:5"}, lsptest.Codes(c.Diagnostics(uri, 3))); diff != "" {
		t.Fatalf("after full change (-want +got):\n%s", diff)
	}
}

func TestUTF8Negotiation(t *testing.T) {
	c := lsptest.New(t)
	res := c.InitializeWith(map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}}}, lsptest.NoDesktopHints)
	if res["capabilities"].(map[string]any)["positionEncoding"] != "utf-8" {
		t.Fatalf("utf-8 not negotiated: %v", res)
	}
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: \"😀 hi {{ who }}\"\n")
	// in bytes: `prompt: "` is 9, the emoji 4, ` hi {{ ` 7
	if diff := cmp.Diff([]string{"PARAM-UNDEFINED 2:20-2:23"}, lsptest.Codes(c.Diagnostics(uri, 1))); diff != "" {
		t.Fatal(diff)
	}
}

func TestNonRecipeYAMLGetsNothing(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	other := protocol.DocumentURI("file:///work/.github/workflows/ci.yaml")
	c.Open(other, "yaml", "name: ci\non: push\njobs: {}\n")
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: hi\n")
	c.Diagnostics(uri, 1)
	// the workflow was opened first; by the time the recipe's result arrives its check is done too
	if err := c.Call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if c.Published(other) {
		t.Error("goose-ls published diagnostics for a file that is not a recipe")
	}
}

func TestWrongParamTypes(t *testing.T) {
	c := lsptest.New(t)
	if err := c.Call("initialize", map[string]any{"capabilities": "not an object"}, nil); code(err) != jsonrpc2.InvalidParams {
		t.Errorf("wrong param type: %v, want -32602", err)
	}
	c.Initialize(nil) // the server is still there and can be initialised
}

func TestMalformedFrames(t *testing.T) {
	r := lsptest.NewRaw(t)
	expect := func(what string, wantCode int, wantID string) {
		t.Helper()
		rep := r.Read()
		got := 0
		if rep.Error != nil {
			got = rep.Error.Code
		}
		if got != wantCode || string(rep.ID) != wantID {
			t.Errorf("%s: got code %d id %s, want code %d id %s", what, got, rep.ID, wantCode, wantID)
		}
	}
	r.Send(`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}`)
	expect("request before initialize", -32002, "1")
	r.Send(`{not json`)
	expect("invalid JSON", -32700, "null")
	r.Write("Content-Length: nine\r\n\r\n")
	expect("bad Content-Length", -32700, "null")
	r.Write("X-Other: 1\r\n\r\n")
	expect("missing Content-Length", -32700, "null")
	r.Send(`{"jsonrpc":"2.0","id":2,"params":{}}`)
	expect("request without method", -32600, "2")
	r.Send(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":{}}}`)
	expect("initialize after garbage", 0, "3")
	r.Send(`{"jsonrpc":"2.0","id":4,"method":"initialize","params":[1,2]}`)
	expect("initialize twice", -32600, "4")
	r.Send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":42}}`)
	r.Send(`{"jsonrpc":"2.0","id":5,"method":"goose/unknown"}`)
	expect("unknown method after a bad notification", -32601, "5")
	r.Send(`{"jsonrpc":"2.0","id":6,"method":"shutdown"}`)
	expect("shutdown", 0, "6")
	r.Send(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}`)
	expect("request after shutdown", -32600, "7")
	r.Send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case code := <-r.ExitCode:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not exit")
	}
}

func TestTruncatedBodyEndsConnectionCleanly(t *testing.T) {
	r := lsptest.NewRaw(t)
	r.Write("Content-Length: 100\r\n\r\n{\"jsonrpc\":") // returns once the server read it (net.Pipe)
	r.Close()
	select {
	case code := <-r.ExitCode:
		if code != 1 {
			t.Errorf("exit code %d, want 1 (no shutdown)", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not notice the closed connection")
	}
}

func TestHoverAndCompletion(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	text := "title: T\ndescription: D\nprompt: \"Check {{ max_files }} files\"\nparameters:\n  - key: max_files\n    input_type: number\n    requirement: optional\n    default: 5\n    description: Most files to read\n"
	c.Open(uri, "yaml", text)
	c.Diagnostics(uri, 1)
	var hov struct {
		Contents struct{ Value string } `json:"contents"`
		Range    protocol.Range         `json:"range"`
	}
	pos := func(line, char uint32) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
	}
	if err := c.Call("textDocument/hover", pos(2, 20), &hov); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hov.Contents.Value, "number, optional") || !strings.Contains(hov.Contents.Value, "Default: `5`") || hov.Range.Start.Character != 18 {
		t.Errorf("hover on the use: %+v", hov)
	}
	if err := c.Call("textDocument/hover", pos(5, 6), &hov); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(hov.Contents.Value, "input_type") {
		t.Errorf("hover on a key: %+v", hov)
	}
	var list struct {
		Items []struct {
			Label    string `json:"label"`
			TextEdit struct {
				Range   protocol.Range `json:"range"`
				NewText string         `json:"newText"`
			} `json:"textEdit"`
		} `json:"items"`
	}
	c.Change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 2, Character: 18}, End: protocol.Position{Line: 2, Character: 27}}, "ma")
	if err := c.Call("textDocument/completion", pos(2, 20), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, it := range list.Items {
		if it.Label == "max_files" && it.TextEdit.Range.Start.Character == 18 && it.TextEdit.Range.End.Character == 20 {
			found = true
		}
	}
	if !found {
		t.Errorf("completion inside {{ lacks max_files replacing `ma`: %+v", list.Items)
	}
}

func TestNavigationAndRename(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	text := "title: T\ndescription: D\ninstructions: \"{{ topic }}\"\nprompt: \"More on {{ topic | upper }}\"\nparameters:\n  - key: topic\n    input_type: string\n    requirement: required\n    description: What\n"
	c.Open(uri, "yaml", text)
	c.Diagnostics(uri, 1)
	pos := func(line, char uint32) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
	}
	var locs []protocol.Location
	if err := c.Call("textDocument/definition", pos(3, 22), &locs); err != nil {
		t.Fatal(err)
	}
	if len(locs) != 1 || locs[0].Range.Start != (protocol.Position{Line: 5, Character: 9}) {
		t.Fatalf("definition: %+v", locs)
	}
	refParams := pos(5, 10)
	refParams["context"] = map[string]any{"includeDeclaration": true}
	if err := c.Call("textDocument/references", refParams, &locs); err != nil {
		t.Fatal(err)
	}
	if len(locs) != 3 {
		t.Fatalf("references: %+v", locs)
	}
	var prep struct {
		Range       protocol.Range `json:"range"`
		Placeholder string         `json:"placeholder"`
	}
	if err := c.Call("textDocument/prepareRename", pos(2, 19), &prep); err != nil || prep.Placeholder != "topic" {
		t.Fatalf("prepareRename: %+v %v", prep, err)
	}
	renameParams := pos(2, 19)
	renameParams["newName"] = "subject"
	var edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				Version int32 `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := c.Call("textDocument/rename", renameParams, &edit); err != nil {
		t.Fatal(err)
	}
	if len(edit.DocumentChanges) != 1 || len(edit.DocumentChanges[0].Edits) != 3 || edit.DocumentChanges[0].TextDocument.Version != 1 {
		t.Fatalf("rename: %+v", edit)
	}
	// apply the edits (last first) and check the result is clean
	out := text
	lines := strings.Split(out, "\n")
	es := edit.DocumentChanges[0].Edits
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		l := lines[e.Range.Start.Line]
		lines[e.Range.Start.Line] = l[:e.Range.Start.Character] + e.NewText + l[e.Range.End.Character:]
	}
	out = strings.Join(lines, "\n")
	if strings.Count(out, "subject") != 3 || strings.Contains(out, "topic") {
		t.Fatalf("renamed text:\n%s", out)
	}
	c.Change(uri, 2, nil, out)
	if d := c.Diagnostics(uri, 2); len(d) != 0 {
		t.Errorf("after rename: %v", lsptest.Codes(d))
	}
	renameParams["newName"] = "9bad"
	if err := c.Call("textDocument/rename", renameParams, &edit); code(err) != jsonrpc2.InvalidParams {
		t.Errorf("invalid new name: %v", err)
	}
}

func TestCodeActionQuickFix(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: \"{{ topic }}\"\n")
	d := c.Diagnostics(uri, 1)
	var actions []struct {
		Title string `json:"title"`
		Kind  string `json:"kind"`
		Edit  struct {
			DocumentChanges []struct {
				Edits []protocol.TextEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "range": d[0].Range, "context": map[string]any{"diagnostics": d}}
	if err := c.Call("textDocument/codeAction", params, &actions); err != nil {
		t.Fatal(err)
	}
	if len(actions) != 1 || actions[0].Kind != "quickfix" || actions[0].Title != `Add parameter "topic"` {
		t.Fatalf("actions: %+v", actions)
	}
	e := actions[0].Edit.DocumentChanges[0].Edits[0]
	if e.Range.Start.Line != 3 || !strings.HasPrefix(e.NewText, "parameters:\n  - key: topic\n") {
		t.Errorf("edit: %+v", e)
	}
}

func TestStructure(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: \"{{ a }} see {{ recipe_dir }}/docs/guide.md\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\nsub_recipes:\n  - name: child\n    path: ./child.yaml\n")
	c.Diagnostics(uri, 1)
	var syms []struct {
		Name     string `json:"name"`
		Children []struct {
			Name   string `json:"name"`
			Detail string `json:"detail"`
		} `json:"children"`
	}
	td := map[string]any{"textDocument": map[string]any{"uri": uri}}
	if err := c.Call("textDocument/documentSymbol", td, &syms); err != nil {
		t.Fatal(err)
	}
	if len(syms) != 5 || syms[3].Name != "parameters" || len(syms[3].Children) != 1 || syms[3].Children[0].Name != "a" || syms[4].Children[0].Detail != "./child.yaml" {
		t.Fatalf("symbols: %+v", syms)
	}
	var folds []protocol.FoldingRange
	if err := c.Call("textDocument/foldingRange", td, &folds); err != nil || len(folds) < 3 {
		t.Fatalf("folding: %+v %v", folds, err)
	}
	var links []protocol.DocumentLink
	if err := c.Call("textDocument/documentLink", td, &links); err != nil || len(links) != 2 || !strings.HasSuffix(string(links[0].Target), "/work/recipes/child.yaml") || !strings.HasSuffix(string(links[1].Target), "/work/recipes/docs/guide.md") {
		t.Fatalf("links: %+v %v", links, err)
	}
}

func TestDependentsAndPullDiagnostics(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	parent := protocol.DocumentURI("file:///work/recipes/parent.yaml")
	child := protocol.DocumentURI("file:///work/recipes/child.yaml")
	c.Open(child, "yaml", "title: C\ndescription: D\nprompt: \"{{ who }}\"\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: x\n")
	c.Open(parent, "yaml", "title: P\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: c\n    path: ./child.yaml\n    values:\n      whom: x\n")
	if diff := cmp.Diff([]string{"SUBRECIPE-MISSING-VALUE 4:4-4:11", "SUBRECIPE-UNKNOWN-VALUE 7:6-7:10"}, lsptest.Codes(c.Diagnostics(parent, 1))); diff != "" {
		t.Fatalf("parent (-want +got):\n%s", diff)
	}
	// rename the child's parameter in its (unsaved) buffer: the parent is re-checked against it
	c.Change(child, 2, nil, "title: C\ndescription: D\nprompt: \"{{ whom }}\"\nparameters:\n  - key: whom\n    input_type: string\n    requirement: required\n    description: x\n")
	// the change made the parent's check stale before the next message runs: one pull sees the new result
	var rep struct {
		Kind  string                `json:"kind"`
		Items []protocol.Diagnostic `json:"items"`
	}
	if err := c.Call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": parent}}, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "full" || len(rep.Items) != 0 {
		t.Fatalf("parent still has %v after the child changed", lsptest.Codes(rep.Items))
	}
}

func TestSemanticTokensAndInlayHints(t *testing.T) {
	c := lsptest.New(t)
	var res map[string]any
	if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}, "initializationOptions": map[string]any{"inlayHints": true}}, &res); err != nil {
		t.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	// line 2: prompt: "{% if n %}{{ n | upper }}{% endif %}"
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: \"{% if n %}{{ n | upper }}{% endif %}\"\nparameters:\n  - key: n\n    input_type: string\n    requirement: optional\n    default: ok\n    description: x\n")
	c.Diagnostics(uri, 1)
	var toks struct {
		Data []uint32 `json:"data"`
	}
	td := map[string]any{"textDocument": map[string]any{"uri": uri}}
	if err := c.Call("textDocument/semanticTokens/full", td, &toks); err != nil {
		t.Fatal(err)
	}
	// decode to absolute (line, char, len, type)
	var got []string
	line, char := 0, 0
	for i := 0; i+4 < len(toks.Data); i += 5 {
		if toks.Data[i] > 0 {
			char = 0
		}
		line += int(toks.Data[i])
		char += int(toks.Data[i+1])
		got = append(got, fmt.Sprintf("%d:%d+%d t%d", line, char, toks.Data[i+2], toks.Data[i+3]))
	}
	want := []string{"2:9+2 t4", "2:12+2 t2", "2:15+1 t0", "2:17+2 t4", "2:19+2 t4", "2:22+1 t0", "2:26+5 t1", "2:32+2 t4", "2:34+2 t4", "2:37+5 t2", "2:43+2 t4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	var hints []struct {
		Position protocol.Position `json:"position"`
		Label    string            `json:"label"`
	}
	params := map[string]any{"textDocument": map[string]any{"uri": uri}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 9, "character": 0}}}
	if err := c.Call("textDocument/inlayHint", params, &hints); err != nil {
		t.Fatal(err)
	}
	if len(hints) != 2 || hints[0].Label != "= ok" {
		t.Errorf("inlay hints: %+v", hints)
	}
}

// TestCapabilities checks that every advertised provider has a handler and every handler is advertised.
func TestCapabilities(t *testing.T) {
	c := lsptest.New(t)
	caps := c.Initialize(nil)["capabilities"].(map[string]any)
	methods := map[string]string{
		"hoverProvider": "textDocument/hover", "completionProvider": "textDocument/completion",
		"definitionProvider": "textDocument/definition", "referencesProvider": "textDocument/references",
		"documentHighlightProvider": "textDocument/documentHighlight", "renameProvider": "textDocument/rename",
		"codeActionProvider": "textDocument/codeAction", "documentSymbolProvider": "textDocument/documentSymbol",
		"foldingRangeProvider": "textDocument/foldingRange", "documentLinkProvider": "textDocument/documentLink",
		"inlayHintProvider":      "textDocument/inlayHint",
		"semanticTokensProvider": "textDocument/semanticTokens/full", "codeLensProvider": "textDocument/codeLens",
		"workspaceSymbolProvider": "workspace/symbol",
	}
	if caps["diagnosticProvider"] != nil {
		t.Error("diagnosticProvider is advertised: clients that pull as well as receive pushes show every problem twice")
	}
	for capName, method := range methods {
		if caps[capName] == nil {
			t.Errorf("%s is not advertised", capName)
		}
		err := c.Call(method, map[string]any{"textDocument": map[string]any{"uri": "file:///not/open.yaml"}, "position": map[string]any{"line": 0, "character": 0}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}, "newName": "x", "context": map[string]any{}}, nil)
		if code(err) == jsonrpc2.MethodNotFound {
			t.Errorf("%s is advertised but %s has no handler", capName, method)
		}
	}
}

func TestRenameReachesParents(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	parent := protocol.DocumentURI("file:///work/recipes/parent.yaml")
	child := protocol.DocumentURI("file:///work/recipes/child.yaml")
	c.Open(child, "yaml", "title: C\ndescription: D\nprompt: \"{{ who }}\"\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: x\n")
	c.Open(parent, "yaml", "title: P\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: c\n    path: ./child.yaml\n    values:\n      who: me\n")
	c.Diagnostics(parent, 1)
	var edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI protocol.DocumentURI `json:"uri"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	params := map[string]any{"textDocument": map[string]any{"uri": child}, "position": map[string]any{"line": 4, "character": 10}, "newName": "whom"}
	if err := c.Call("textDocument/rename", params, &edit); err != nil {
		t.Fatal(err)
	}
	if len(edit.DocumentChanges) != 2 || edit.DocumentChanges[1].TextDocument.URI != parent ||
		edit.DocumentChanges[1].Edits[0].Range.Start != (protocol.Position{Line: 7, Character: 6}) {
		t.Fatalf("rename: %+v", edit)
	}
}

func TestRunRecipeCodeLensOnlyWhenTheClientRunsIt(t *testing.T) {
	text := "# a recipe\ntitle: T\ndescription: D\nprompt: hi\n"
	lenses := func(initOpts map[string]any, settings map[string]any) []map[string]any {
		c := lsptest.New(t)
		if err := c.Call("initialize", map[string]any{"capabilities": map[string]any{}, "initializationOptions": initOpts}, nil); err != nil {
			t.Fatal(err)
		}
		c.Notify("initialized", map[string]any{})
		if settings != nil {
			c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": settings})
		}
		c.Open(uri, "yaml", text)
		c.Diagnostics(uri, 1)
		var out []map[string]any
		if err := c.Call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := lenses(nil, nil); len(got) != 0 {
		t.Errorf("lens for a client that cannot run it: %v", got)
	}
	got := lenses(map[string]any{"runRecipeCommand": "goose.vscode.runRecipe"}, map[string]any{"goose": map[string]any{"inlayHints": true}})
	if len(got) != 1 {
		t.Fatalf("lenses %v", got)
	}
	b, _ := json.Marshal(got[0])
	want := `{"command":{"arguments":[{"uri":"` + string(uri) + `"}],"command":"goose.vscode.runRecipe","title":"▶ Run recipe"},"range":{"end":{"character":0,"line":1},"start":{"character":0,"line":1}}}`
	if string(b) != want {
		t.Errorf("lens\n got %s\nwant %s", b, want)
	}
}
