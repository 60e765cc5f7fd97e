// summon end to end with scripted models: a sub-recipe through `delegate` (the sub-agent's requests
// scripted separately), `load` listing and loading sources, goose's error texts, precedence rules and
// background delegates.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// scriptedModel answers with reply and keeps every request.
type scriptedModel struct {
	mu    sync.Mutex
	reqs  []provider.Request
	reply func(n int, req provider.Request) provider.Message
}

func (m *scriptedModel) provider() *scripted.Provider {
	return &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
		m.mu.Lock()
		m.reqs = append(m.reqs, req)
		m.mu.Unlock()
		return m.reply(n, req)
	}}
}

func (m *scriptedModel) requests() []provider.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]provider.Request(nil), m.reqs...)
}

// models hands the first provider asked for to the parent and every later one to the sub-agent.
func models(parent, child *scriptedModel) ProviderFactory {
	var mu sync.Mutex
	calls := 0
	return func(s provider.Settings) (provider.Setup, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		m := child
		if calls == 1 {
			m = parent
		}
		return provider.Setup{Provider: m.provider(), Name: "scripted", Model: "m"}, nil
	}
}

func noLookup(string) (string, bool) { return "", false }

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func callWith(id, name string, args any) provider.Message {
	raw, _ := json.Marshal(args)
	return provider.Message{ToolCalls: []provider.ToolCall{{ID: id, Name: name, Arguments: raw}}}
}

// lastToolResult is the text of the last tool result in a request.
func lastToolResult(req provider.Request) (provider.ToolResult, bool) {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if rs := req.Messages[i].ToolResults; len(rs) > 0 {
			return rs[len(rs)-1], true
		}
	}
	return provider.ToolResult{}, false
}

const reportChild = `title: Report
description: Writes a one-line report about a topic.
instructions: You write reports.
prompt: Write report.txt with one line about {{ topic }} in {{ style }} style, {{ count }} times.
parameters:
  - key: topic
    input_type: string
    requirement: required
    description: What
  - key: style
    input_type: string
    requirement: optional
    default: plain
    description: How
  - key: count
    input_type: number
    requirement: required
    description: How many
`

const delegatingParent = `title: Parent
description: Delegates the report.
prompt: Delegate the report.
settings:
  max_turns: 7
extensions:
  - type: builtin
    name: developer
sub_recipes:
  - name: report
    path: ./sub/report.yaml
    values:
      topic: goose
`

func TestDelegateRunsASubRecipeAsASubAgent(t *testing.T) {
	cases := []struct {
		name   string
		params map[string]any
		prompt string
	}{
		{"values win over the model's parameters", map[string]any{"topic": "ducks", "count": 3},
			"Write report.txt with one line about goose in plain style, 3 times.\n\nKeep it short."},
		{"values apply when the model gives none", map[string]any{"count": true},
			"Write report.txt with one line about goose in plain style, true times.\n\nKeep it short."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "parent.yaml"), delegatingParent)
			writeFile(t, filepath.Join(root, "sub", "report.yaml"), reportChild)
			parent := &scriptedModel{reply: func(n int, req provider.Request) provider.Message {
				if n == 0 {
					return callWith("d1", "delegate", map[string]any{"source": "report", "parameters": c.params, "instructions": "Keep it short."})
				}
				return provider.Message{Text: "Delegated."}
			}}
			child := &scriptedModel{reply: func(n int, req provider.Request) provider.Message {
				if n == 0 {
					return callWith("w1", "write", map[string]any{"path": "report.txt", "content": "one line"})
				}
				return provider.Message{Text: "report written"}
			}}
			rec := &recorder{}
			var asked []string
			approver := ApproverFunc(func(_ context.Context, req ApprovalRequest) (Decision, error) {
				asked = append(asked, req.Tool)
				return Allow, nil
			})
			out, err := RunRecipe(context.Background(), RunOptions{RecipePath: filepath.Join(root, "parent.yaml"), Workspace: tools.Disk{Dir: root},
				Providers: models(parent, child), Lookup: noLookup, Events: rec.add, Mode: ModeApprove, Approver: approver})
			if err != nil || out.Status != StatusCompleted {
				t.Fatalf("run: %v %s %v", err, out.Status, out.Err)
			}
			creqs := child.requests()
			if len(creqs) != 2 {
				t.Fatalf("the sub-agent made %d requests", len(creqs))
			}
			first := creqs[0]
			if len(first.Messages) != 1 || first.Messages[0].Role != provider.User || withoutTurnContext(first.Messages[0].Text) != c.prompt {
				t.Errorf("sub-agent's first message: %#v", first.Messages)
			}
			names := toolNames(first)
			for _, n := range names {
				if n == "delegate" {
					t.Errorf("delegate offered to a sub-agent: %v", names)
				}
			}
			if !strings.Contains(" "+strings.Join(names, " ")+" ", " load ") || !strings.Contains(" "+strings.Join(names, " ")+" ", " write ") {
				t.Errorf("the sub-agent did not inherit developer and summon's load: %v", names)
			}
			sys := first.System
			wantTools := fmt.Sprintf("You have access to %d tools: %s\n", len(names), strings.Join(names, ", "))
			for _, want := range []string{wantTools, "The maximum number of turns to respond is 7.\n\n**Subagent ID**: ",
				"\n\n# Task Instructions\nYou write reports.\n\n# Tool Usage Guidelines\n"} {
				if !strings.Contains(sys, want) {
					t.Errorf("sub-agent system prompt lacks %q:\n%s", want, sys)
				}
			}
			if !strings.HasPrefix(sys, "You are a specialized subagent within the goose AI framework, created by AAIF") ||
				!regexp.MustCompile(`\*\*Subagent ID\*\*: \d{8}_\d+\n`).MatchString(sys) {
				t.Errorf("sub-agent system prompt:\n%s", sys)
			}
			if diff := cmp.Diff([]string{"delegate"}, asked); diff != "" {
				t.Errorf("approvals asked (the sub-agent runs in auto mode) (-want +got):\n%s", diff)
			}
			if data, _ := os.ReadFile(filepath.Join(root, "report.txt")); string(data) != "one line" {
				t.Errorf("the sub-agent's write (auto mode, whatever the parent's mode): %q", data)
			}
			preqs := parent.requests()
			res, ok := lastToolResult(preqs[len(preqs)-1])
			if !ok || res.Text != "report written" || res.IsError {
				t.Errorf("delegate's result: %+v", res)
			}
			if sub := toolNames(preqs[0]); !strings.Contains(strings.Join(sub, " "), "delegate") {
				t.Errorf("the parent lacks delegate: %v", sub)
			}
			if !strings.Contains(preqs[0].System, "Subrecipes:\n• report — \n\nWhen to call a subagent (one of [parent, report]):") {
				t.Errorf("summon's instructions in the parent prompt:\n%s", preqs[0].System)
			}
			var subEvents int
			for _, e := range rec.events {
				if e.Agent == "report" && e.Kind == EventToolEnd {
					subEvents++
				}
			}
			if subEvents != 1 {
				t.Errorf("%d tool events from the sub-agent", subEvents)
			}
		})
	}
}

// summonFor builds a run's summon on a recipe text in root, the way RunDoc does.
func summonFor(t testing.TB, root, recipeText string, factory ProviderFactory) *summonExt {
	t.Helper()
	path := filepath.Join(root, "parent.yaml")
	writeFile(t, path, recipeText)
	doc, err := decodeDoc(recipeText)
	if err != nil {
		t.Fatal(err)
	}
	opts := RunOptions{RecipePath: path, Workspace: tools.Disk{Dir: root}, Lookup: noLookup, Providers: factory, Redactor: &Redactor{}}
	opts.readRoots = topLevelRoots(opts)
	s := newSummon(&opts, &runEnv{doc: doc, model: provider.Setup{Name: "scripted", Model: "m"}})
	s.enabled = runExtensions(doc, &opts)
	return s
}

func summonCall(s *summonExt, tool, args string) tools.Result {
	return s.Call(context.Background(), tool, json.RawMessage(args))
}

const listingParent = `title: Parent
description: Lists.
prompt: go
sub_recipes:
  - name: notes
    path: ./sub/notes.yaml
  - name: audit
    path: ./sub/missing.yaml
    description: Audits the code
  - name: lost
    path: ./sub/missing.yaml
`

func TestLoadListsAndLoadsSources(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "sub", "notes.yaml"), "title: Notes\ndescription: Writes notes.\ninstructions: Take notes.\nprompt: \"{{ topic }}\"\nparameters:\n  - key: topic\n    input_type: select\n    requirement: optional\n    default: a\n    options: [a, b]\n    description: What\n")
	writeFile(t, filepath.Join(root, ".goose", "recipes", "deploy.yaml"), "title: Deploy\ndescription: Deploys.\ninstructions: Ship it.\n")
	writeFile(t, filepath.Join(root, "compose.yaml"), "services: {}\n") // not a recipe
	writeFile(t, filepath.Join(root, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\nmodel: sonnet\n---\nYou review code.\n")
	writeFile(t, filepath.Join(root, ".agents", "agents", "notes.md"), "---\nname: notes\n---\nshadowed by the sub-recipe\n")
	s := summonFor(t, root, listingParent, nil)
	// goose's parameter line: `- KEY (TYPE, REQUIREMENT), default: "D", options: [..]: DESCRIPTION`
	params := "Parameters:\n  - topic (select, optional), default: \"a\", options: [a, b]: What"
	want := "Available sources for load/delegate:\n\nSubrecipes:\n" +
		"• audit - Audits the code\n" +
		"• lost - Subrecipe from " + filepath.Join(root, "sub", "missing.yaml") + "\n" +
		"• notes - Writes notes.\n" + params + "\n" +
		"\nRecipes:\n• deploy - Deploys.\n• parent - Lists.\n" +
		"\nAgents:\n• reviewer - Agent (sonnet)\n" +
		"\nUse load(source: \"name\") to load into context.\nUse delegate(source: \"name\") to run as subagent."
	got := summonCall(s, "load", `{}`)
	if diff := cmp.Diff(want, got.Text); diff != "" || got.IsError {
		t.Errorf("load() (-want +got):\n%s", diff)
	}
	got = summonCall(s, "load", `{"source":"notes"}`)
	wantLoad := "# Loaded: notes (subrecipe)\n\n## notes (subrecipe)\n\nWrites notes.\n" + params + "\n\n### Content\n\nTake notes.\n\n" + params + "\n\n---\nThis knowledge is now available in your context."
	if diff := cmp.Diff(wantLoad, got.Text); diff != "" {
		t.Errorf("load(notes) (-want +got):\n%s", diff)
	}
	got = summonCall(s, "load", `{"source":"reviewer"}`)
	if diff := cmp.Diff("# Loaded: reviewer (agent)\n\n## reviewer (agent)\n\nAgent (sonnet)\n\n### Content\n\nYou review code.\n\n---\nThis knowledge is now available in your context.", got.Text); diff != "" {
		t.Errorf("load(reviewer) (-want +got):\n%s", diff)
	}
	for args, want := range map[string]string{
		`{"source":"note"}`: "Error: Source 'note' not found. Did you mean: notes?",
		`{"source":"zzz"}`:  "Error: Source 'zzz' not found. Use load() to see available sources.",
	} {
		if got := summonCall(s, "load", args); got.Text != want || !got.IsError {
			t.Errorf("load(%s): %+v, want %q", args, got, want)
		}
	}
	empty := summonFor(t, t.TempDir(), "title: P\ndescription: D\nprompt: go\n", nil)
	os.Remove(filepath.Join(empty.workDir(), "parent.yaml"))
	if got := summonCall(empty, "load", ``); !strings.HasPrefix(got.Text, "No sources available for load/delegate.\n\nSources are discovered from:\n• Current recipe's sub_recipes\n") {
		t.Errorf("load() with nothing: %q", got.Text)
	}
}

func TestDelegateErrorsAreGoosesTexts(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "sub", "report.yaml"), reportChild)
	s := summonFor(t, root, delegatingParent, func(provider.Settings) (provider.Setup, error) {
		return provider.Setup{}, fmt.Errorf("No provider configured")
	})
	cases := map[string]string{
		`{}`:                                           "Error: Must provide 'instructions' or 'source' (or both)",
		`{"instructions":"x","parameters":{}}`:         "Error: 'parameters' can only be used with 'source'",
		`{"source":"report","max_turns":0}`:            "Error: 'max_turns' must be at least 1",
		`{"source":"nope"}`:                            "Error: Source 'nope' not found",
		`{"source":"report"}`:                          `Error: Failed to build subrecipe: Missing required parameters: ["count"]`,
		`{"source":"report","parameters":{"count":1}}`: "Error: Failed to build task config: No provider configured",
	}
	for args, want := range cases {
		if got := summonCall(s, "delegate", args); got.Text != want || !got.IsError {
			t.Errorf("delegate(%s): %q, want %q", args, got.Text, want)
		}
	}
	// goose resolves the provider before the working folder
	ok := summonFor(t, root, delegatingParent, func(provider.Settings) (provider.Setup, error) { return provider.Setup{Name: "p"}, nil })
	writeFile(t, filepath.Join(root, "afile"), "x")
	for args, want := range map[string]string{
		`{"instructions":"x","working_dir":"../"}`:   "Error: Failed to build task config: working_dir '../' is outside the parent session directory",
		`{"instructions":"x","working_dir":"afile"}`: "Error: Failed to build task config: working_dir 'afile' is not a directory",
	} {
		if got := summonCall(ok, "delegate", args); got.Text != want || !got.IsError {
			t.Errorf("delegate(%s): %q, want %q", args, got.Text, want)
		}
	}
	if got := summonCall(ok, "delegate", `{"instructions":"x","working_dir":"nope"}`); !strings.HasPrefix(got.Text, "Error: Failed to build task config: working_dir 'nope' could not be resolved: ") {
		t.Errorf("missing working_dir: %q", got.Text)
	}
	if got := summonCall(s, "delegate", `{"source":3}`); !strings.HasPrefix(got.Text, "Error: Invalid parameters: ") || !got.IsError {
		t.Errorf("bad JSON: %q", got.Text)
	}
	if got := summonCall(s, "nope", `{}`); got.Text != "Error: Unknown tool: nope" || !got.IsError {
		t.Errorf("unknown tool: %q", got.Text)
	}
	sub := &summonExt{opts: s.opts, env: s.env, subagent: true, tasks: newBackgroundTasks()}
	if got := summonCall(sub, "delegate", `{"instructions":"x"}`); got.Text != "Error: Delegated tasks cannot spawn further delegations" {
		t.Errorf("delegate in a sub-agent: %q", got.Text)
	}
	if specs := sub.Tools(); len(specs) != 1 || specs[0].Name != "load" {
		t.Errorf("a sub-agent's summon tools: %+v", specs)
	}
}

func TestSubagentMaxTurnsOrder(t *testing.T) {
	n := func(v int) *int { return &v }
	u := func(v uint32) *uint32 { return &v }
	cases := []struct {
		name          string
		param         *uint32
		child, parent *int
		env           string
		want          int
	}{
		{"param first", u(3), n(4), n(5), "6", 3},
		{"then the sub-recipe's settings", nil, n(4), n(5), "6", 4},
		{"then the parent recipe's settings", nil, nil, n(5), "6", 5},
		{"then GOOSE_SUBAGENT_MAX_TURNS", nil, nil, nil, "6", 6},
		{"then 25", nil, nil, nil, "", 25},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &summonExt{env: &runEnv{doc: &Doc{Settings: &docSettings{MaxTurns: c.parent}}}}
			s.opts.Lookup = func(k string) (string, bool) { return c.env, k == "GOOSE_SUBAGENT_MAX_TURNS" && c.env != "" }
			if got := s.subagentMaxTurns(&delegateParams{MaxTurns: c.param}, &Doc{Settings: &docSettings{MaxTurns: c.child}}); got != c.want {
				t.Errorf("max_turns %d, want %d", got, c.want)
			}
		})
	}
}

func TestDelegateInBackgroundThenLoad(t *testing.T) {
	root := t.TempDir()
	child := &scriptedModel{reply: func(int, provider.Request) provider.Message { return provider.Message{Text: "bg done"} }}
	s := summonFor(t, root, "title: P\ndescription: D\nprompt: go\n", models(child, child))
	got := summonCall(s, "delegate", `{"instructions":"Summarize","async":true}`)
	m := regexp.MustCompile(`^Task (\d{8}_\d+) started in background: "Summarize"\nContinue with other work\. When you need the result, use load\(source: "(\d{8}_\d+)"\)\.$`).FindStringSubmatch(got.Text)
	if m == nil || m[1] != m[2] {
		t.Fatalf("async delegate: %q", got.Text)
	}
	got = summonCall(s, "load", `{"source":"`+m[1]+`"}`)
	want := regexp.MustCompile(`^# Background Task Result: ` + m[1] + `\n\n\*\*Task:\*\* Summarize\n\*\*Status:\*\* ✓ Completed\n\*\*Duration:\*\* \d+s \(1 turns\)\n\n## Output\n\nbg done$`)
	if !want.MatchString(got.Text) {
		t.Errorf("load(task): %q", got.Text)
	}
	if got := summonCall(s, "load", `{"source":"`+m[1]+`"}`); got.Text != "Error: Task '"+m[1]+"' not found." {
		t.Errorf("a task is collected once: %q", got.Text)
	}
	if first := child.requests()[0]; withoutTurnContext(first.Messages[0].Text) != "Summarize" {
		t.Errorf("ad-hoc delegate's first message: %q", first.Messages[0].Text)
	}
}

func TestBackgroundTaskLimit(t *testing.T) {
	release := make(chan struct{})
	child := &scriptedModel{reply: func(int, provider.Request) provider.Message {
		<-release
		return provider.Message{Text: "finished"}
	}}
	s := summonFor(t, t.TempDir(), "title: P\ndescription: D\nprompt: go\n", models(child, child))
	s.opts.Lookup = func(k string) (string, bool) { return "1", k == "GOOSE_MAX_BACKGROUND_TASKS" }
	first := summonCall(s, "delegate", `{"instructions":"one","async":true}`)
	id := regexp.MustCompile(`^Task (\d{8}_\d+) started`).FindStringSubmatch(first.Text)
	if id == nil {
		t.Fatalf("first async delegate: %q", first.Text)
	}
	second := summonCall(s, "delegate", `{"instructions":"two","async":true}`)
	if second.Text != "Error: Maximum 1 background tasks already running. Wait for completion or use sync mode." || !second.IsError {
		t.Errorf("second async delegate: %q", second.Text)
	}
	close(release)
	if got := summonCall(s, "load", `{"source":"`+id[1]+`"}`); !strings.HasSuffix(got.Text, "## Output\n\nfinished") || !strings.Contains(got.Text, "**Status:** ✓ Completed") {
		t.Errorf("load(task): %q", got.Text)
	}
	third := summonCall(s, "delegate", `{"instructions":"three","async":true}`)
	if !strings.HasPrefix(third.Text, "Task ") {
		t.Errorf("a slot is free again once the task was collected: %q", third.Text)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// withoutTurnContext drops the per-turn <info-msg> block the loop merges into the first user message (a
// sub-agent gets one too, as goose's sub-agents do).
func withoutTurnContext(text string) string {
	if i := strings.Index(text, "</info-msg>\n\n"); strings.HasPrefix(text, "<info-msg>") && i >= 0 {
		return text[i+len("</info-msg>\n\n"):]
	}
	return text
}
