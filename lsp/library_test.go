// goose.render, workspace/symbol and sub-recipe path completion from goose's recipe folders, through the
// real server.

package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
	lspuri "go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

type renderReply struct {
	Version     int32                 `json:"version"`
	Text        string                `json:"text"`
	YAML        string                `json:"yaml"`
	Values      map[string]string     `json:"values"`
	Missing     []string              `json:"missing"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

func render(t *testing.T, c *lsptest.Client, u protocol.DocumentURI, values map[string]string) renderReply {
	t.Helper()
	var r renderReply
	args := map[string]any{"uri": u}
	if values != nil {
		args["values"] = values
	}
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.render", "arguments": []any{args}}, &r); err != nil {
		t.Fatalf("goose.render: %v", err)
	}
	return r
}

// libraryHome isolates goose's folders: HOME and the config root in a temp folder.
func libraryHome(t *testing.T) (tmp, home string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(tmp, "home")
	t.Setenv("HOME", home)
	t.Setenv("GOOSE_PATH_ROOT", filepath.Join(tmp, "goose-root"))
	t.Setenv("GOOSE_RECIPE_PATH", "")
	os.Unsetenv("GOOSE_RECIPE_PATH")
	return tmp, home
}

func writeLibraryFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// initializeIn starts the server with ws as its workspace folder.
func initializeIn(t *testing.T, c *lsptest.Client, ws string) {
	t.Helper()
	if err := c.Call("initialize", map[string]any{"processId": 1, "rootUri": string(lspuri.File(ws)), "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
}

const previewRecipe = `title: Greeter
description: Greets someone
instructions: |
  Greet {{ who }} in {{ lang }}.
parameters:
- key: who
  input_type: string
  requirement: required
  description: whom to greet
- key: lang
  input_type: string
  requirement: optional
  default: French
  description: the language
`

func TestGooseRender(t *testing.T) {
	tmp, _ := libraryHome(t)
	ws := filepath.Join(tmp, "ws")
	c := lsptest.New(t)
	initializeIn(t, c, ws)
	u := protocol.DocumentURI(lspuri.File(filepath.Join(ws, "greet.yaml")))
	c.Open(u, "yaml", previewRecipe)

	// the required parameter has no value: goose's message at its key, nothing rendered
	r := render(t, c, u, nil)
	if r.Text != "" || !cmp.Equal(r.Missing, []string{"who"}) || len(r.Diagnostics) != 1 {
		t.Fatalf("without values: %+v", r)
	}
	d := r.Diagnostics[0]
	if d.Code != "RENDER-MISSING-VALUE" || d.Range.Start != (protocol.Position{Line: 5, Character: 7}) ||
		d.Message != "no value for `who`: Please provide the following parameters in the command line: --params who=your_value" {
		t.Errorf("missing-value diagnostic: %+v", d)
	}

	// given values and defaults: the rendered text and the loaded recipe
	r = render(t, c, u, map[string]string{"who": "Ada"})
	// (minijinja drops the template's final newline, as goose's render does)
	wantText := strings.TrimSuffix(strings.Replace(strings.Replace(previewRecipe, "{{ who }}", "Ada", 1), "{{ lang }}", "French", 1), "\n")
	if r.Text != wantText || len(r.Diagnostics) != 0 || r.Version != 1 {
		t.Errorf("render:\n%s\ndiagnostics %+v, version %d", r.Text, r.Diagnostics, r.Version)
	}
	if !strings.Contains(r.YAML, "instructions: |\n  Greet Ada in French.\n") || r.Values["lang"] != "French" || r.Values["recipe_dir"] != ws {
		t.Errorf("yaml/values: %s %v", r.YAML, r.Values)
	}

	// the preview follows the buffer: an edit (not saved) renders at once
	c.Change(u, 2, nil, strings.Replace(previewRecipe, "Greet {{ who }}", "Welcome {{ who }}", 1))
	r = render(t, c, u, map[string]string{"who": "Ada", "lang": "Welsh"})
	if r.Version != 2 || !strings.Contains(r.Text, "  Welcome Ada in Welsh.\n") {
		t.Errorf("after the edit: version %d\n%s", r.Version, r.Text)
	}

	// a filter that fails at render time: a render error on its line
	c.Change(u, 3, nil, strings.Replace(previewRecipe, "in {{ lang }}", "in {{ lang | int + 1 }}", 1))
	r = render(t, c, u, map[string]string{"who": "Ada"})
	if len(r.Diagnostics) != 1 || r.Diagnostics[0].Code != "RENDER-ERROR" || r.Diagnostics[0].Range.Start.Line != 3 || r.Text != "" {
		t.Errorf("render error: %+v", r)
	}

	// a document that is not open
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.render", "arguments": []any{map[string]any{"uri": "file:///not/open.yaml"}}}, nil)
	if code(err) != -32602 {
		t.Errorf("not open: %v", err)
	}
}

func TestWorkspaceSymbol(t *testing.T) {
	tmp, home := libraryHome(t)
	ws := filepath.Join(tmp, "ws")
	writeLibraryFile(t, filepath.Join(ws, "review.yaml"), "title: Code review\ndescription: d\nprompt: p\n")
	writeLibraryFile(t, filepath.Join(ws, ".goose/recipes/deploy.yaml"), "title: Deploy app\ndescription: d\nprompt: '{{ env }}'\nparameters:\n- {key: env, input_type: string, requirement: required, description: e}\n")
	writeLibraryFile(t, filepath.Join(ws, "config.yaml"), "port: 8080\n")                                              // not a recipe
	writeLibraryFile(t, filepath.Join(ws, "node_modules/x/recipe.yaml"), "title: Hidden\ndescription: d\nprompt: p\n") // skipped folder
	writeLibraryFile(t, filepath.Join(home, ".agents/recipes/standup.yaml"), "title: Daily standup\ndescription: d\nprompt: p\n")
	c := lsptest.New(t)
	initializeIn(t, c, ws)

	symbols := func(query string) []string {
		var got []protocol.SymbolInformation
		if err := c.Call("workspace/symbol", map[string]any{"query": query}, &got); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range got {
			out = append(out, s.Name+" | "+uriPathOf(s.Location.URI)+" | "+s.ContainerName)
		}
		sort.Strings(out)
		return out
	}
	want := []string{
		"Code review | " + filepath.Join(ws, "review.yaml") + " | workspace: .",
		"Daily standup | " + filepath.Join(home, ".agents/recipes/standup.yaml") + " | goose recipes: " + filepath.Join(home, ".agents/recipes"),
		"Deploy app | " + filepath.Join(ws, ".goose/recipes/deploy.yaml") + " | workspace: .goose/recipes",
	}
	if diff := cmp.Diff(want, symbols("")); diff != "" {
		t.Errorf("all symbols (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[1:2], symbols("STAND")); diff != "" {
		t.Errorf("query STAND (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[2:3], symbols("deploy")); diff != "" { // by file name too
		t.Errorf("query deploy (-want +got):\n%s", diff)
	}
}

func uriPathOf(u protocol.DocumentURI) string { return lspuri.URI(u).Filename() }

func TestSubRecipePathCompletionFromLibrary(t *testing.T) {
	tmp, home := libraryHome(t)
	ws := filepath.Join(tmp, "ws")
	writeLibraryFile(t, filepath.Join(ws, "child.yaml"), "title: Child\ndescription: d\nprompt: p\n")
	global := filepath.Join(home, ".agents/recipes/standup.yaml")
	writeLibraryFile(t, global, "title: Daily standup\ndescription: d\nprompt: p\n")
	c := lsptest.New(t)
	initializeIn(t, c, ws)
	u := protocol.DocumentURI(lspuri.File(filepath.Join(ws, "parent.yaml")))
	text := "title: P\ndescription: D\nprompt: p\nsub_recipes:\n- name: c\n  path: \n"
	c.Open(u, "yaml", text)
	var list protocol.CompletionList
	if err := c.Call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 5, "character": 8}}, &list); err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{}
	for _, it := range list.Items {
		labels[it.Label] = it.Detail
	}
	if labels["child.yaml"] != "recipe file" || labels[global] != "goose recipe: Daily standup" {
		t.Errorf("completion labels: %v", labels)
	}
}

// DESKTOP-FORM hints are on by default (hint severity); initializationOptions or a configuration change
// turns them off, and back on.
func TestDesktopHintsSetting(t *testing.T) {
	const text = "title: CR\ndescription: Reviews the staged diff\nprompt: Review the staged changes.\n"
	want := []string{
		"goose Desktop: Instructions are required (the CLI accepts it; Desktop's recipe form does not)",
		"goose Desktop: Title must be at least 3 characters (the CLI accepts it; Desktop's recipe form does not)",
	}
	hints := func(ds []protocol.Diagnostic) []string {
		var msgs []string
		for _, d := range ds {
			if d.Severity != protocol.DiagnosticSeverityHint {
				t.Errorf("%s: severity %v, want hint", d.Message, d.Severity)
			}
			msgs = append(msgs, d.Message)
		}
		sort.Strings(msgs)
		return msgs
	}
	c := lsptest.New(t)
	c.Initialize(nil)
	u := protocol.DocumentURI("file:///work/short.yaml")
	c.Open(u, "yaml", text)
	if diff := cmp.Diff(want, hints(c.Diagnostics(u, 1))); diff != "" {
		t.Errorf("hints by default (-want +got):\n%s", diff)
	}
	after := len(c.Received("textDocument/publishDiagnostics"))
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"goose": map[string]any{"desktopHints": false}}})
	c.WaitForAfter("textDocument/publishDiagnostics", after, func(p json.RawMessage) bool {
		return !strings.Contains(string(p), "DESKTOP-FORM")
	})
	after = len(c.Received("textDocument/publishDiagnostics"))
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"goose": map[string]any{"desktopHints": true}}})
	raw := c.WaitForAfter("textDocument/publishDiagnostics", after, func(p json.RawMessage) bool {
		return strings.Contains(string(p), "DESKTOP-FORM")
	})
	var p protocol.PublishDiagnosticsParams
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, hints(p.Diagnostics)); diff != "" {
		t.Errorf("hints turned back on (-want +got):\n%s", diff)
	}

	off := lsptest.New(t)
	off.InitializeWith(nil, lsptest.NoDesktopHints)
	off.Open(u, "yaml", text)
	if got := lsptest.Codes(off.Diagnostics(u, 1)); len(got) != 0 {
		t.Errorf("hints with desktopHints false in initializationOptions: %v", got)
	}
}

// goose.listRecipes and goose.resolveRecipe: an editor's Run Recipe by name finds what goose would run.
func TestListAndResolveRecipesByName(t *testing.T) {
	tmp, home := libraryHome(t)
	ws := filepath.Join(tmp, "ws")
	writeLibraryFile(t, filepath.Join(ws, "review.yaml"), "title: Code review\ndescription: Review code\nprompt: p\n")
	writeLibraryFile(t, filepath.Join(ws, ".goose/recipes/deploy.yaml"), "title: Deploy app\ndescription: Deploys\nprompt: p\n")
	writeLibraryFile(t, filepath.Join(home, ".agents/recipes/deploy.yaml"), "title: Global deploy\ndescription: Deploys everywhere\nprompt: p\n")
	c := lsptest.New(t)
	initializeIn(t, c, ws)

	var list []struct{ Name, URI, Path, Title string }
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.listRecipes"}, &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range list {
		got[r.Path] = r.Name + " | " + r.Title
		if uriPathOf(protocol.DocumentURI(r.URI)) != r.Path {
			t.Errorf("uri %s does not name %s", r.URI, r.Path)
		}
	}
	for path, want := range map[string]string{
		filepath.Join(ws, "review.yaml"):                   "review | Code review",
		filepath.Join(ws, ".goose/recipes/deploy.yaml"):    "deploy | Deploy app",
		filepath.Join(home, ".agents/recipes/deploy.yaml"): "deploy | Global deploy",
	} {
		if got[path] != want {
			t.Errorf("listed %s as %q, want %q (all: %v)", path, got[path], want, got)
		}
	}

	var resolved struct{ URI, Path string }
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.resolveRecipe", "arguments": []any{map[string]any{"name": "deploy"}}}, &resolved); err != nil {
		t.Fatal(err)
	}
	// goose's order: ~/.agents/recipes sorts before the project's .goose/recipes, so the global one wins
	if resolved.Path != filepath.Join(home, ".agents/recipes/deploy.yaml") {
		t.Errorf("deploy resolved to %s", resolved.Path)
	}
	err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.resolveRecipe", "arguments": []any{map[string]any{"name": "nothing"}}}, nil)
	if err == nil || !strings.Contains(err.Error(), "Failed to retrieve nothing.yaml or nothing.json in") {
		t.Errorf("unknown name: %v", err)
	}
}
