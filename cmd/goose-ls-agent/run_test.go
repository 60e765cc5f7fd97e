// End-to-end `goose-ls run`: the built binary against a scripted OpenAI-format server and a real MCP
// server subprocess, on the example recipes in examples/run.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/internal/testbin"
)

// binaries are goose-ls (which runs goose-ls-agent from beside itself) and the MCP test server.
func binaries(t *testing.T) (gooseLS, mcpServer string) {
	t.Helper()
	b := testbin.Build(t)
	return b.GooseLS, b.MCPServer
}

type runResult struct {
	code           int
	stdout, stderr string
	root, work     string
}

// runGoose runs the binary in a fresh workspace with the scripted provider configured.
func runGoose(t *testing.T, srv *wiretest.Server, env []string, args ...string) runResult {
	t.Helper()
	bin, _ := binaries(t)
	root := t.TempDir()
	work := filepath.Join(root, "work")
	os.MkdirAll(work, 0o755)
	return runIn(t, bin, srv, root, work, env, args...)
}

func runIn(t *testing.T, bin string, srv *wiretest.Server, root, work string, env []string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run"}, args...)...)
	cmd.Dir = work
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GOOSE_PATH_ROOT=" + filepath.Join(root, "goose"), "GOOSE_PROVIDER=openai", "OPENAI_API_KEY=sk-test-key-0001"}, env...)
	if srv != nil {
		cmd.Env = append(cmd.Env, "OPENAI_HOST="+srv.URL)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return runResult{code: code, stdout: out.String(), stderr: errb.String(), root: root, work: work}
}

func example(name string) string {
	p, _ := filepath.Abs(filepath.Join("../../examples/run", name))
	return p
}

// chat helpers over OpenAI request bodies
// messages are a request's messages less a user message holding only the per-turn context.
func messages(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		msg := m.(map[string]any)
		if text, ok := msg["content"].(string); ok && msg["role"] == "user" && text != "" && withoutTurnContext(text) == "" {
			continue
		}
		out = append(out, msg)
	}
	return out
}

// withoutTurnContext removes the per-turn `<info-msg>` block the loop adds to every request (goose's
// MOIM) and the blank line that joins it to a user text.
func withoutTurnContext(s string) string {
	start, end := strings.Index(s, "<info-msg>\n"), strings.Index(s, "\n</info-msg>")
	if start < 0 || end < start {
		return s
	}
	before, after := s[:start], s[end+len("\n</info-msg>"):]
	if strings.HasSuffix(before, "\n\n") {
		before = strings.TrimSuffix(before, "\n\n")
	} else {
		after = strings.TrimPrefix(after, "\n\n")
	}
	return before + after
}

func toolMessages(body map[string]any) []string {
	var out []string
	for _, m := range messages(body) {
		if m["role"] == "tool" {
			out = append(out, contentText(m["content"]))
		}
	}
	return out
}

func contentText(c any) string {
	switch v := c.(type) {
	case string:
		return withoutTurnContext(v)
	case []any:
		var b strings.Builder
		for _, p := range v {
			if m, ok := p.(map[string]any); ok {
				b.WriteString(m["text"].(string))
			}
		}
		return withoutTurnContext(b.String())
	}
	return ""
}

func firstUser(body map[string]any) string {
	for _, m := range messages(body) {
		if m["role"] == "user" {
			return contentText(m["content"])
		}
	}
	return ""
}

func systemText(body map[string]any) string {
	for _, m := range messages(body) {
		if m["role"] == "system" {
			return contentText(m["content"])
		}
	}
	return ""
}

func c(name, args string) wiretest.Call { return wiretest.Call{Name: name, Args: args} }

func TestRunWritesEditsAndRunsShell(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Text: "Creating the file. ", Calls: []wiretest.Call{c("write", `{"path":"greeting.txt","content":"Hello Ada\n"}`)}},
		wiretest.Reply{Calls: []wiretest.Call{c("edit", `{"path":"greeting.txt","before":"Hello","after":"Hi"}`)}},
		wiretest.Reply{Calls: []wiretest.Call{c("shell", `{"command":"cat greeting.txt"}`)}},
		wiretest.Reply{Text: "Done: the file says Hi Ada."},
	))
	defer srv.Close()
	r := runGoose(t, srv, nil, example("hello-files.yaml"), "--params", "name=Ada")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(r.work, "greeting.txt"))
	if string(data) != "Hi Ada\n" {
		t.Errorf("greeting.txt = %q", data)
	}
	if !strings.Contains(r.stdout, "Creating the file. ") || !strings.Contains(r.stdout, "Done: the file says Hi Ada.") {
		t.Errorf("stdout %q", r.stdout)
	}
	for _, want := range []string{"▸ write", "✓ edit", "✓ shell: Hi Ada"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	reqs := srv.Requests()
	if !strings.Contains(firstUser(reqs[0]), "greets Ada") || !strings.Contains(systemText(reqs[0]), "You are working in a scratch folder.") {
		t.Errorf("prompt/instructions not rendered: %q", firstUser(reqs[0]))
	}
	var names []string
	for _, tool := range reqs[0]["tools"].([]any) {
		names = append(names, tool.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	// sorted by name, as goose sends them; analyze comes with a builtin developer (goose's load-time rewrite)
	if strings.Join(names, ",") != "analyze,edit,read,shell,write" {
		t.Errorf("tools offered %v (available_tools not applied, or not sorted?)", names)
	}
	// the session was stored and is listed
	bin, _ := binaries(t)
	cmd := exec.Command(bin, "sessions")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GOOSE_PATH_ROOT=" + filepath.Join(r.root, "goose")}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Recipe hello-files.yaml") || !strings.Contains(string(out), " 8 msgs") {
		t.Errorf("sessions: %v\n%s", err, out)
	}

	// resume continues the stored conversation
	id := strings.Fields(string(out))[0]
	srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Resumed."}))
	defer srv2.Close()
	r2 := runIn(t, bin, srv2, r.root, r.work, nil, "--resume", id, "--prompt", "and now?")
	if r2.code != 0 || !strings.Contains(r2.stdout, "Resumed.") {
		t.Fatalf("resume: %d %s %s", r2.code, r2.stdout, r2.stderr)
	}
	if n := len(messages(srv2.Requests()[0])); n != 1+8+1 {
		t.Errorf("resumed request has %d messages, want system + 8 + new", n)
	}
	// stored as goose stores a recipe run: the rendered recipe as recipe_json, the file kept for goose-ls
	store, err := session.Open(session.DefaultPath(filepath.Join(r.root, "goose", "data")), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sess, _, err := store.Get(context.Background(), id)
	var recipe map[string]any
	if err != nil || json.Unmarshal(sess.Recipe, &recipe) != nil || !strings.Contains(fmt.Sprint(recipe["prompt"]), "Ada") ||
		filepath.Base(sess.RecipePath) != "hello-files.yaml" || sess.Type != "user" || sess.Messages != 10 {
		t.Errorf("stored session %+v (recipe %v) %v", sess, recipe, err)
	}
}

func TestRunCallsAnMCPToolWithoutLeakingSecrets(t *testing.T) {
	_, server := binaries(t)
	const secret = "calc-token-s3cr3t-value"
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{c("calc__add", `{"a":40,"b":2}`), c("calc__env", `{"name":"CALC_TOKEN"}`), c("calc__env", `{"name":"UNRELATED_PARENT_VAR"}`)}},
		wiretest.Reply{Text: "The answer is 42."},
	))
	defer srv.Close()
	r := runGoose(t, srv, []string{"CALC_TOKEN=" + secret, "UNRELATED_PARENT_VAR=parent-only"}, example("mcp-tool.yaml"), "--params", "server="+server, "--debug")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	results := toolMessages(srv.Requests()[1])
	if len(results) != 3 || results[0] != "42" || results[1] != secret || results[2] != "(unset)" {
		t.Errorf("tool results %q", results)
	}
	if strings.Contains(r.stderr, secret) {
		t.Errorf("secret in the log:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "[REDACTED]") {
		t.Errorf("the redacted result is not shown:\n%s", r.stderr)
	}
	dbDir := filepath.Join(r.root, "goose", "data", "sessions")
	entries, _ := os.ReadDir(dbDir)
	if len(entries) == 0 {
		t.Fatal("no session database")
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dbDir, e.Name()))
		if bytes.Contains(data, []byte(secret)) || bytes.Contains(data, []byte("sk-test-key-0001")) {
			t.Errorf("%s holds a secret", e.Name())
		}
	}
}

func TestRunStructuredOutput(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{c("tree", `{"path":"."}`)}},
		wiretest.Reply{Calls: []wiretest.Call{c("recipe__final_output", `{"count":"2"}`)}},
		wiretest.Reply{Calls: []wiretest.Call{c("recipe__final_output", `{"count":2,"files":["a.txt","b.txt"]}`)}},
	))
	defer srv.Close()
	r := runGoose(t, srv, nil, example("structured.yaml"), "--no-session")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if last := lines[len(lines)-1]; last != `{"count":2,"files":["a.txt","b.txt"]}` {
		t.Errorf("last line %q", last)
	}
	if tm := toolMessages(srv.Requests()[2]); !strings.Contains(tm[len(tm)-1], "Validation failed") {
		t.Error("invalid output not sent back")
	}
	if _, err := os.Stat(filepath.Join(r.root, "goose", "data", "sessions")); err == nil {
		t.Error("--no-session stored a session")
	}
	// --output json
	srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{c("recipe__final_output", `{"count":0,"files":[]}`)}}))
	defer srv2.Close()
	r = runGoose(t, srv2, nil, example("structured.yaml"), "--no-session", "--output", "json")
	var doc struct {
		Metadata    map[string]any  `json:"metadata"`
		FinalOutput json.RawMessage `json:"final_output"`
		Messages    []any           `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || doc.Metadata["status"] != "completed" || string(doc.FinalOutput) != `{"count":0,"files":[]}` || len(doc.Messages) < 3 {
		t.Errorf("json output %v: %s", err, r.stdout)
	}
}

func TestRunRetriesUntilTheCheckPasses(t *testing.T) {
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		if len(toolMessages(body)) > 0 {
			return wiretest.Reply{Text: "Created it."}
		}
		if n == 0 {
			return wiretest.Reply{Text: "I believe it is done."} // lies: the check fails
		}
		return wiretest.Reply{Calls: []wiretest.Call{c("write", `{"path":"done.txt","content":"ok"}`)}}
	})
	defer srv.Close()
	r := runGoose(t, srv, nil, example("retry.yaml"), "--no-session")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	log, _ := os.ReadFile(filepath.Join(r.work, "failures.log"))
	if string(log) != "attempt failed\n" {
		t.Errorf("failures.log %q", log)
	}
	if n := len(messages(srv.Requests()[1])); n != 2 {
		t.Errorf("the retry did not start from a fresh conversation: %d messages", n)
	}
}

func TestRunSubRecipe(t *testing.T) {
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		user := firstUser(body)
		done := len(toolMessages(body)) > 0
		switch {
		case strings.HasPrefix(user, "Write report.txt"): // the sub-agent
			if done {
				return wiretest.Reply{Text: "report written"}
			}
			return wiretest.Reply{Calls: []wiretest.Call{c("write", `{"path":"report.txt","content":"`+user+`"}`)}}
		case done:
			return wiretest.Reply{Text: "The report sub-recipe wrote report.txt."}
		}
		return wiretest.Reply{Calls: []wiretest.Call{c("delegate", `{"source":"report","model":"child-model","parameters":{"topic":"ducks","style":"terse"}}`)}}
	})
	defer srv.Close()
	r := runGoose(t, srv, nil, example("delegate.yaml"), "--no-session", "--model", "parent-model")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(r.work, "report.txt"))
	if string(data) != "Write report.txt with one line about goose in terse style." {
		t.Errorf("report.txt %q (the sub-recipe's values must win over the model's parameters, as in goose today; style comes from the model)", data)
	}
	var parentResult string
	for _, req := range srv.Requests() {
		if !strings.HasPrefix(firstUser(req), "Write report.txt") && len(toolMessages(req)) > 0 {
			parentResult = toolMessages(req)[0]
		}
	}
	if parentResult != "report written" {
		t.Errorf("sub-recipe result %q", parentResult)
	}
	// --model is the run's model; delegate's own model argument still wins for the sub-agent (goose's order)
	for _, req := range srv.Requests() {
		want := "parent-model"
		if strings.HasPrefix(firstUser(req), "Write report.txt") {
			want = "child-model"
		}
		if req["model"] != want {
			t.Errorf("request for %.30q used model %v, want %s", firstUser(req), req["model"], want)
		}
	}
	if !strings.Contains(r.stderr, "[report] ▸ write") {
		t.Errorf("sub-agent activity not shown:\n%s", r.stderr)
	}
}

func TestRunExitCodes(t *testing.T) {
	// missing required parameter: usage error with goose's message
	r := runGoose(t, nil, nil, example("hello-files.yaml"))
	if r.code != 2 || !strings.Contains(r.stderr, "Please provide the following parameters in the command line: --params name=your_value") {
		t.Errorf("missing param: %d %s", r.code, r.stderr)
	}
	// max turns
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{c("tree", `{"path":"."}`)}}))
	defer srv.Close()
	r = runGoose(t, srv, nil, "--prompt", "loop", "--max-turns", "2", "--no-session")
	if r.code != 1 || !strings.Contains(r.stdout, "I've reached the maximum number of actions") {
		t.Errorf("max turns: %d %q", r.code, r.stdout)
	}
	// provider failure
	srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Status: 401}))
	defer srv2.Close()
	r = runGoose(t, srv2, nil, "--prompt", "hi", "--no-session")
	if r.code != 1 || !strings.Contains(r.stdout, "Ran into this error") {
		t.Errorf("provider error: %d %q %s", r.code, r.stdout, r.stderr)
	}
	// bad flags
	if r = runGoose(t, nil, nil, "--output", "yaml", "--prompt", "x"); r.code != 2 {
		t.Errorf("bad flag: %d", r.code)
	}
	// approval needed without a terminal: the tool is declined, the run goes on
	srv3 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{c("write", `{"path":"x.txt","content":"x"}`)}}, wiretest.Reply{Text: "ok"}))
	defer srv3.Close()
	r = runGoose(t, srv3, []string{"GOOSE_MODE=approve"}, "--prompt", "write", "--no-session")
	if _, err := os.Stat(filepath.Join(r.work, "x.txt")); err == nil || r.code != 0 || !strings.Contains(toolMessages(srv3.Requests()[1])[0], "declined") {
		t.Errorf("approve mode without a terminal: %d, %v, %s", r.code, err, r.stderr)
	}
}
