// Starting runs: the store opened once with one notice, resume (recipe file or goose's stored recipe),
// --provider/--model on the top level only, consent, recipe files and sub-recipes read through the front
// end, the front end's terminal, mode and extensions.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/agent/tools"
)

func TestStoreOpensOnceWithOneNotice(t *testing.T) {
	env := testEnv(t)
	root, _ := env("GOOSE_PATH_ROOT")
	dir := filepath.Join(root, "data", "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// a sessions.db that is not goose's: goose-ls leaves it alone and says so once
	if err := os.WriteFile(filepath.Join(dir, "sessions.db"), []byte(strings.Repeat("not a database\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var warnings []string
	h := New(Options{Env: env, Providers: script(), Warn: func(m string) {
		mu.Lock()
		warnings = append(warnings, m)
		mu.Unlock()
	}})
	defer h.Close()
	var runs []*Run
	for i := 0; i < 3; i++ {
		r, err := h.Start(context.Background(), Request{Prompt: "hi", Root: t.TempDir()}, &recordingFrontend{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	for _, r := range runs {
		r.Wait()
	}
	first, err := h.Store("")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := h.Store(""); again != first {
		t.Error("the store was opened twice")
	}
	list, err := h.Sessions(context.Background())
	if err != nil || len(list) != 3 {
		t.Fatalf("sessions %d %v", len(list), err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "leaves it untouched") {
		t.Errorf("want one notice, got %q", warnings)
	}
}

func TestResumeContinuesTheStoredSession(t *testing.T) {
	env := testEnv(t)
	root := t.TempDir()
	var mu sync.Mutex
	var seen []provider.Request
	factory := func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			mu.Lock()
			seen = append(seen, req)
			mu.Unlock()
			return provider.Message{Text: "answer"}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m"}, nil
	}
	h := New(Options{Env: env, Providers: factory})
	defer h.Close()
	rec := writeFile(t, root, "r.yaml", "version: 1.0.0\ntitle: Greeter\ndescription: d\ninstructions: Greet {{ who }} politely.\nprompt: hello\nparameters:\n- key: who\n  input_type: string\n  requirement: required\n  description: who\nextensions: []\n")
	fe := &recordingFrontend{consent: true}
	first, _ := runToEnd(t, h, Request{RecipePath: rec, Params: map[string]string{"who": "Ada"}, Root: root}, fe)
	id := first.SessionID()
	if id == "" || len(fe.of(KindSession)) != 1 {
		t.Fatalf("no session stored: %q %+v", id, fe.of(KindSession))
	}
	// resumed from another folder: the session's folder, recipe and values come back
	fe2 := &recordingFrontend{}
	r, err := h.Start(context.Background(), Request{ResumeID: id, DefaultRoot: t.TempDir()}, fe2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Wait(); err != nil {
		t.Fatal(err)
	}
	if r.Root != root || r.ResumedID != id || r.SessionID() != id || r.Title != "Greeter" {
		t.Errorf("resumed run root %s resumed %s session %s title %s", r.Root, r.ResumedID, r.SessionID(), r.Title)
	}
	mu.Lock()
	last := seen[len(seen)-1]
	mu.Unlock()
	var texts []string
	for _, m := range last.Messages {
		texts = append(texts, m.Text)
	}
	joined := strings.Join(texts, "|")
	if !strings.Contains(joined, "hello") || !strings.Contains(joined, "answer") || !strings.Contains(joined, ContinuePrompt) {
		t.Errorf("the resumed conversation %q", joined)
	}
	if !strings.Contains(last.System, "Greet Ada politely.") {
		t.Errorf("the stored values did not render the recipe again: %s", last.System)
	}
	sess, msgs, err := h.Session(context.Background(), id)
	if err != nil || len(msgs) != 4 || sess.RecipeValues["who"] != "Ada" {
		t.Errorf("stored session %+v with %d messages: %v", sess, len(msgs), err)
	}
	if _, err := h.Start(context.Background(), Request{ResumeID: "20200101_404"}, fe2); err == nil {
		t.Error("an unknown session should not start")
	} else if re := (*ResumeError)(nil); !errors.As(err, &re) {
		t.Errorf("want a ResumeError, got %v", err)
	}
}

func TestProviderOverridesApplyToTheTopLevelOnly(t *testing.T) {
	var mu sync.Mutex
	var asked []provider.Settings
	root := t.TempDir()
	writeFile(t, root, "sub.yaml", "version: 1.0.0\ntitle: Sub\ndescription: d\ninstructions: i\nprompt: go\nsettings:\n  goose_provider: subprov\n  goose_model: submodel\nextensions: []\n")
	top := writeFile(t, root, "top.yaml", "version: 1.0.0\ntitle: Top\ndescription: d\ninstructions: i\nprompt: go\nsettings:\n  goose_provider: recipeprov\n  goose_model: recipemodel\nsub_recipes:\n- name: sub\n  path: ./sub.yaml\n")
	h := New(Options{Env: testEnv(t), Providers: func(s provider.Settings) (provider.Setup, error) {
		mu.Lock()
		asked = append(asked, s)
		mu.Unlock()
		// the top-level model (offered delegate) delegates once to the sub-recipe; the sub-agent answers
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			if n == 0 && hasTool(req.Tools, "delegate") {
				return call("d1", "delegate", `{"source":"sub","instructions":"do it"}`)
			}
			return provider.Message{Text: "done"}
		}}
		return provider.Setup{Provider: p, Name: s.Provider, Model: s.Model}, nil
	}})
	defer h.Close()
	fe := &recordingFrontend{consent: true}
	_, out := runToEnd(t, h, Request{RecipePath: top, Root: root, Provider: "cliprov", Model: "climodel", NoSession: true}, fe)
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s", out.Status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("want the top level and one sub-agent resolved, got %+v", asked)
	}
	if asked[0].Provider != "cliprov" || asked[0].Model != "climodel" {
		t.Errorf("the top level did not get the overrides: %+v", asked[0])
	}
	if asked[1].Provider != "subprov" || asked[1].Model != "submodel" {
		t.Errorf("the sub-agent got the top level's overrides: %+v", asked[1])
	}
}

func TestConsentIsAskedOnceAndDeclineEndsTheRun(t *testing.T) {
	root := t.TempDir()
	rec := writeFile(t, root, "r.yaml", "version: 1.0.0\ntitle: Checked\ndescription: d\ninstructions: i\nprompt: go\nextensions: []\nretry:\n  max_retries: 1\n  checks:\n  - type: shell\n    command: \"true\"\n")
	h := New(Options{Env: testEnv(t), Providers: script()})
	defer h.Close()
	no := &recordingFrontend{consent: false}
	_, out := runToEnd(t, h, Request{RecipePath: rec, Root: root, NoSession: true}, no)
	done := no.of(KindDone)
	if out.Status != StatusDeclined || len(done) != 1 || done[0].Status != "declined" || len(no.of(KindText)) != 0 {
		t.Fatalf("declined run: %s %+v", out.Status, no.events)
	}
	yes := &recordingFrontend{consent: true}
	runToEnd(t, h, Request{RecipePath: rec, Root: root, NoSession: true}, yes)
	runToEnd(t, h, Request{RecipePath: rec, Root: root, NoSession: true}, yes)
	if yes.consents != 1 {
		t.Errorf("consent asked %d times, want once", yes.consents)
	}
}

func TestRecipeFilesAreReadThroughTheFrontend(t *testing.T) {
	root := t.TempDir()
	rec := filepath.Join(root, "r.yaml")
	// the recipe exists only in the front end's buffers (an unsaved editor)
	fe := &recordingFrontend{files: buffers{rec: "version: 1.0.0\ntitle: Unsaved\ndescription: d\ninstructions: i\nprompt: go\nextensions: []\n"}}
	h := New(Options{Env: testEnv(t), Providers: script()})
	defer h.Close()
	r, out := runToEnd(t, h, Request{RecipePath: rec, Root: root, NoSession: true}, fe)
	if r.Title != "Unsaved" || out.Status != agent.StatusCompleted {
		t.Fatalf("run %s %s", r.Title, out.Status)
	}
	got := fe.of(KindStart)
	if diff := cmp.Diff([]string{"Unsaved"}, []string{got[0].Title}); diff != "" {
		t.Error(diff)
	}
}

func TestSubRecipesAreReadThroughTheFrontend(t *testing.T) {
	root := t.TempDir()
	top := writeFile(t, root, "top.yaml", "version: 1.0.0\ntitle: Top\ndescription: d\ninstructions: i\nprompt: go\nsub_recipes:\n- name: sub\n  path: ./sub.yaml\n")
	// sub.yaml exists only as an unsaved buffer: validation and the delegate both read it from there
	fe := &recordingFrontend{consent: true, files: buffers{filepath.Join(root, "sub.yaml"): "version: 1.0.0\ntitle: Sub\ndescription: d\ninstructions: Unsaved sub-recipe instructions.\nprompt: go\nextensions: []\n"}}
	var mu sync.Mutex
	var systems []string
	h := New(Options{Env: testEnv(t), Providers: func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			mu.Lock()
			systems = append(systems, req.System)
			mu.Unlock()
			if n == 0 && hasTool(req.Tools, "delegate") {
				return call("d1", "delegate", `{"source":"sub"}`)
			}
			return provider.Message{Text: "done"}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m"}, nil
	}})
	defer h.Close()
	_, out := runToEnd(t, h, Request{RecipePath: top, Root: root, NoSession: true}, fe)
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s: %+v", out.Status, fe.events)
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, s := range systems {
		found = found || strings.Contains(s, "Unsaved sub-recipe instructions.")
	}
	if !found {
		t.Errorf("the sub-agent did not run the buffer's sub-recipe; systems: %q", systems)
	}
}

// terminalFrontend runs the shell tool "in the client" and counts approvals.
type terminalFrontend struct {
	recordingFrontend
	approvals int
	commands  []string
}

func (f *terminalFrontend) Approve(context.Context, *Run, agent.ApprovalRequest) (agent.Decision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.approvals++
	return agent.Allow, nil
}

func (f *terminalFrontend) Shell(_ context.Context, r *Run, dir, command string, _ time.Duration, _ []string) tools.Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commands = append(f.commands, r.ID+" "+dir+" "+command)
	return tools.Result{Text: "from the client's terminal"}
}

func TestFrontendTerminalModeAndExtensions(t *testing.T) {
	root := t.TempDir()
	h := New(Options{Env: testEnv(t), Providers: script(call("c1", "shell", `{"command":"echo hi"}`))})
	defer h.Close()
	fe := &terminalFrontend{}
	r, out := runToEnd(t, h, Request{Prompt: "run it", Root: root, NoSession: true, Mode: agent.ModeApprove,
		Extensions: []agent.ExtensionDoc{{Type: "stdio", Name: "ghost", Cmd: filepath.Join(root, "no-such-server")}}}, fe)
	if out.Status != agent.StatusCompleted || r.Mode != agent.ModeApprove {
		t.Fatalf("status %s mode %s", out.Status, r.Mode)
	}
	if diff := cmp.Diff([]string{r.ID + " " + root + " echo hi"}, fe.commands); diff != "" {
		t.Errorf("the shell did not run in the front end's terminal:\n%s", diff)
	}
	if fe.approvals != 1 {
		t.Errorf("approve mode (the request's) asked %d times, want 1", fe.approvals)
	}
	ends := fe.of(KindToolEnd)
	if len(ends) != 1 || ends[0].Result != "from the client's terminal" {
		t.Errorf("tool end %+v", ends)
	}
	ghost := false
	for _, n := range fe.of(KindNotice) {
		ghost = ghost || strings.Contains(n.Text, "ghost")
	}
	if !ghost {
		t.Errorf("the request's extension was not started (no notice names it): %+v", fe.of(KindNotice))
	}
}

func TestResumeRunsTheRecipeStoredWithAGooseSession(t *testing.T) {
	root := t.TempDir()
	var mu sync.Mutex
	var systems []string
	h := New(Options{Env: testEnv(t), Providers: func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
			mu.Lock()
			systems = append(systems, req.System)
			mu.Unlock()
			return provider.Message{Text: "resumed"}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m"}, nil
	}})
	defer h.Close()
	// a session goose made from a recipe: no recipe file, the rendered recipe as recipe_json
	store, err := h.Store("")
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.Create(context.Background(), session.Session{Name: "from goose", WorkingDir: root,
		Recipe: json.RawMessage(`{"title":"Stored","description":"d","instructions":"stored-recipe-marker","prompt":"go","extensions":[]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Append(context.Background(), id, provider.Message{Role: provider.User, Text: "go"}); err != nil {
		t.Fatal(err)
	}
	r, out := runToEnd(t, h, Request{ResumeID: id, Prompt: "another"}, &recordingFrontend{})
	if out.Status != agent.StatusCompleted || r.Title != "Stored" || r.Root != root {
		t.Fatalf("status %s title %q root %s", out.Status, r.Title, r.Root)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(systems) != 1 || !strings.Contains(systems[0], "stored-recipe-marker") {
		t.Errorf("the stored recipe's instructions did not reach the model: %q", systems)
	}
}
