// `goose-ls acp` driven by acpx (npm, a headless ACP client nobody here wrote) against the scripted
// provider: a recipe as a slash command, a write and an edit through fs/write_text_file, a shell command
// through terminal/*, a permission round in approve mode, a cancel.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// acpNodeModules is the npm folder .ci/run installs acpx and @agentclientprotocol/sdk into.
func acpNodeModules(t *testing.T, want string) string {
	t.Helper()
	requireTool(t, "node")
	dir := os.Getenv("GOOSE_E2E_NODE_DIR")
	if dir == "" {
		missing(t, "GOOSE_E2E_NODE_DIR (acpx and @agentclientprotocol/sdk)")
	}
	nm := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(nm, want)); err != nil {
		missing(t, want)
	}
	return nm
}

// acpxRun runs `acpx --agent "goose-ls acp" --cwd root ARGS…` (json output) and returns its stdout lines
// decoded; the agent's stderr log lands in the test log on failure.
type acpxRun struct {
	t    *testing.T
	bin  string
	acpx string
	root string
	env  []string
}

func newAcpx(t *testing.T, srv *wiretest.Server, mode string) *acpxRun {
	t.Helper()
	nm := acpNodeModules(t, filepath.Join(".bin", "acpx"))
	home := t.TempDir()
	env := append(agentEnv(srv, home), "GOOSE_MODE="+mode, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	return &acpxRun{t: t, bin: buildServer(t), acpx: filepath.Join(nm, ".bin", "acpx"), root: t.TempDir(), env: env}
}

func (a *acpxRun) command(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"--agent", a.bin + " acp", "--cwd", a.root, "--format", "json"}, args...)
	cmd := exec.CommandContext(ctx, a.acpx, full...)
	cmd.Dir = a.root
	cmd.Env = append(os.Environ(), a.env...)
	return cmd
}

// exec runs one prompt to its end and returns the JSON lines acpx printed.
func (a *acpxRun) exec(args ...string) []map[string]any {
	a.t.Helper()
	return a.execExit(0, args...)
}

// execExit is exec for a run that ends with acpx's exit code want (5: a permission was denied).
func (a *acpxRun) execExit(want int, args ...string) []map[string]any {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := a.command(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != want {
		a.t.Fatalf("acpx %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, stderr.String())
	}
	return decodeLines(a.t, string(out))
}

func decodeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("acpx printed a line that is not JSON: %q", l)
		}
		lines = append(lines, m)
	}
	return lines
}

// jsonHas reports whether any line, as JSON text, contains every one of subs.
func jsonHas(lines []map[string]any, subs ...string) bool {
	for _, l := range lines {
		b, _ := json.Marshal(l)
		all := true
		for _, s := range subs {
			all = all && strings.Contains(string(b), s)
		}
		if all {
			return true
		}
	}
	return false
}

func TestAcpxRunsARecipeAsASlashCommand(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Notes for v2.1 are ready."}))
	t.Cleanup(srv.Close)
	a := newAcpx(t, srv, "auto")
	os.WriteFile(filepath.Join(a.root, "release-notes.yaml"), []byte("title: Release notes\ndescription: Notes for a version\nparameters:\n  - key: version\n    input_type: string\n    requirement: required\n    description: the version\nprompt: Write the release notes for {{ version }}\n"), 0o644)
	lines := a.exec("--approve-all", "exec", "/release-notes version=v2.1")
	if !jsonHas(lines, "available_commands_update", `"name":"release-notes"`, `"hint":"version=…"`) {
		t.Fatalf("the recipe was not advertised as a command:\n%v", lines)
	}
	if got := agentText(lines); got != "Notes for v2.1 are ready." {
		t.Fatalf("reply %q", got)
	}
	if stop := stopReason(lines); stop != "end_turn" {
		t.Fatalf("stop reason %q", stop)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was not called")
	}
	msgs, _ := json.Marshal(reqs[0]["messages"])
	if !strings.Contains(string(msgs), "Write the release notes for v2.1") {
		t.Fatalf("the rendered recipe prompt did not reach the model: %s", msgs)
	}
}

// agentText joins the agent_message_chunk texts.
func agentText(lines []map[string]any) string {
	var b strings.Builder
	for _, l := range lines {
		if u := update(l); u["sessionUpdate"] == "agent_message_chunk" {
			c, _ := u["content"].(map[string]any)
			s, _ := c["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// update is a session/update line's update ("nil" for other lines).
func update(l map[string]any) map[string]any {
	if l["method"] != "session/update" {
		return nil
	}
	p, _ := l["params"].(map[string]any)
	u, _ := p["update"].(map[string]any)
	return u
}

// requests lists the methods the agent called on the client and the client on the agent, in order.
func requests(lines []map[string]any) []string {
	var out []string
	for _, l := range lines {
		if m, ok := l["method"].(string); ok && m != "session/update" {
			out = append(out, m)
		}
	}
	return out
}

// params are the params of every call of method.
func params(lines []map[string]any, method string) []map[string]any {
	var out []map[string]any
	for _, l := range lines {
		if l["method"] == method {
			p, _ := l["params"].(map[string]any)
			out = append(out, p)
		}
	}
	return out
}

// stopReason is session/prompt's answer.
func stopReason(lines []map[string]any) string {
	for _, l := range lines {
		if r, ok := l["result"].(map[string]any); ok {
			if s, ok := r["stopReason"].(string); ok {
				return s
			}
		}
	}
	return ""
}

func TestAcpxWritesAndEditsThroughTheClient(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"notes.md","content":"alpha\nbeta\n"}`}}},
		wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.md","before":"beta","after":"gamma"}`}}},
		wiretest.Reply{Text: "Edited."},
	))
	t.Cleanup(srv.Close)
	a := newAcpx(t, srv, "auto")
	lines := a.exec("--approve-all", "exec", "write the notes")
	notes := filepath.Join(a.root, "notes.md")
	writes := params(lines, "fs/write_text_file")
	if len(writes) != 2 || writes[0]["path"] != notes || writes[0]["content"] != "alpha\nbeta\n" || writes[1]["content"] != "alpha\ngamma\n" {
		t.Fatalf("fs/write_text_file calls: %v", writes)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "alpha\ngamma\n" {
		t.Fatalf("notes.md: %q %v", b, err)
	}
	if !jsonHas(lines, `"type":"diff"`, `"newText":"alpha\nbeta\n"`) || jsonHas(lines, `"type":"diff"`, `"oldText":"`, `"newText":"alpha\nbeta\n"`) ||
		!jsonHas(lines, `"type":"diff"`, `"newText":"alpha\ngamma\n"`, `"oldText":"alpha\nbeta\n"`) {
		t.Fatalf("the diffs are missing:\n%v", lines)
	}
	if !jsonHas(lines, `"sessionUpdate":"tool_call"`, `"title":"developer: edit · notes.md"`, `"kind":"edit"`) {
		t.Fatalf("no edit tool call")
	}
}

func TestAcpxRunsTheShellInItsTerminal(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "shell", Args: `{"command":"echo from-acpx > shell.txt; echo printed"}`}}},
		wiretest.Reply{Text: "Ran."},
	))
	t.Cleanup(srv.Close)
	a := newAcpx(t, srv, "auto")
	lines := a.exec("--approve-all", "exec", "run it")
	var term []string
	for _, m := range requests(lines) {
		if strings.HasPrefix(m, "terminal/") {
			term = append(term, m)
		}
	}
	if strings.Join(term, " ") != "terminal/create terminal/wait_for_exit terminal/output terminal/release" {
		t.Fatalf("terminal calls %v", term)
	}
	if b, err := os.ReadFile(filepath.Join(a.root, "shell.txt")); err != nil || string(b) != "from-acpx\n" {
		t.Fatalf("shell.txt: %q %v", b, err)
	}
	if !jsonHas(lines, `"sessionUpdate":"tool_call_update"`, `"type":"terminal"`) {
		t.Fatalf("the terminal was not shown in the tool call")
	}
	// the model got the command's output
	msgs, _ := json.Marshal(srv.Requests()[1]["messages"])
	if !strings.Contains(string(msgs), "printed") {
		t.Fatalf("the output did not reach the model: %s", msgs)
	}
}

func TestAcpxAnswersPermissionsInApproveMode(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"a.txt","content":"a"}`}}},
		wiretest.Reply{Text: "Done."},
	))
	t.Cleanup(srv.Close)
	a := newAcpx(t, srv, "approve")
	lines := a.exec("--approve-all", "exec", "write a")
	asked := params(lines, "session/request_permission")
	if len(asked) != 1 || !jsonHas(lines, `"kind":"allow_once"`, `"kind":"allow_always"`, `"kind":"reject_once"`, `"kind":"reject_always"`) {
		t.Fatalf("permission requests: %v", asked)
	}
	if _, err := os.Stat(filepath.Join(a.root, "a.txt")); err != nil {
		t.Fatalf("the allowed write did not happen: %v", err)
	}

	deny := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"b.txt","content":"b"}`}}},
		wiretest.Reply{Text: "Understood."},
	))
	t.Cleanup(deny.Close)
	d := newAcpx(t, deny, "approve")
	lines = d.execExit(5, "--deny-all", "exec", "write b")
	if len(params(lines, "session/request_permission")) != 1 {
		t.Fatal("no permission request")
	}
	if _, err := os.Stat(filepath.Join(d.root, "b.txt")); err == nil {
		t.Fatal("the denied write happened")
	}
	if !jsonHas(lines, `"sessionUpdate":"tool_call_update"`, `"status":"failed"`) {
		t.Fatalf("the denied call did not fail")
	}
}

func TestAcpxCancelsAPrompt(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "thinking", Hang: true}))
	t.Cleanup(srv.Close)
	a := newAcpx(t, srv, "auto")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := a.command(ctx, "--approve-all", "exec", "think forever")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var out []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	interrupted := false
	for sc.Scan() {
		out = append(out, sc.Text())
		// the model is streaming: interrupt acpx, which cancels the session's prompt
		if !interrupted && strings.Contains(sc.Text(), `"agent_message_chunk"`) {
			interrupted = true
			cmd.Process.Signal(syscall.SIGINT)
		}
	}
	cmd.Wait()
	lines := decodeLines(t, strings.Join(out, "\n"))
	if len(params(lines, "session/cancel")) != 1 || stopReason(lines) != "cancelled" {
		t.Fatalf("no cancel round: %v\nstderr:\n%s", requests(lines), stderr.String())
	}
}
