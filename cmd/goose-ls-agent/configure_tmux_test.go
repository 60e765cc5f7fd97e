//go:build unix

// `goose-ls configure` in a real terminal: tmux runs it in a pane with an isolated HOME and
// GOOSE_PATH_ROOT, the test types the answers and reads the screen, then checks goose's config.yaml and
// the stored key, and that `goose-ls run` and `goose-ls acp`, with no key in their environment, reach
// the scripted provider with it. Ctrl-C and end of input leave everything as it was.

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/testbin"
)

// requireTool fails the test under CI=1 (where .ci/run installs it), else skips it, when tool is missing.
func requireTool(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (.ci/run installs it)", tool)
		}
		t.Skipf("%s is missing", tool)
	}
}

// pane is one tmux pane on a private server running a command.
type pane struct {
	t    *testing.T
	sock string
}

// startPane runs argv with exactly env in a new 160x60 pane; when it ends, the pane shows its exit code
// (`exit=N`) and whether the terminal echoes again (stty's `echo` or `-echo`), and stays open.
func startPane(t *testing.T, env []string, argv ...string) *pane {
	t.Helper()
	requireTool(t, "tmux")
	dir, err := os.MkdirTemp("", "tmx") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	p := &pane{t: t, sock: filepath.Join(dir, "sock")}
	t.Cleanup(func() {
		exec.Command("tmux", "-S", p.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	quoted := make([]string, 0, len(env)+len(argv))
	for _, s := range append(append([]string{}, env...), argv...) {
		quoted = append(quoted, "'"+strings.ReplaceAll(s, "'", `'\''`)+"'")
	}
	// the shell lives on after a Ctrl-C meant for the command, as an interactive shell does
	script := "trap : INT; env -i " + strings.Join(quoted, " ") + `; echo "exit=$?"; stty -a | tr ' ;' '\n\n' | grep -x -e echo -e -echo; sleep 600`
	cmd := exec.Command("tmux", "-S", p.sock, "-f", "/dev/null", "new-session", "-d", "-s", "configure", "-x", "160", "-y", "60", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "TERM=xterm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	return p
}

// screen is the pane's text (with its scrolled-off history), trailing blank lines dropped.
func (p *pane) screen() string {
	p.t.Helper()
	out, err := exec.Command("tmux", "-S", p.sock, "capture-pane", "-t", "configure", "-p", "-J", "-S", "-500").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		p.t.Fatalf("capture-pane: %v: %s", err, stderr)
	}
	return strings.TrimRight(string(out), "\n ")
}

// waitPrompt waits until the screen's last line is prompt (the cursor waiting after it).
func (p *pane) waitPrompt(prompt string) {
	p.t.Helper()
	p.waitFor("the prompt "+prompt, func(s string) bool {
		lines := strings.Split(s, "\n")
		return strings.TrimSpace(lines[len(lines)-1]) == strings.TrimSpace(prompt)
	})
}

// waitText waits until text is on the screen.
func (p *pane) waitText(text string) {
	p.t.Helper()
	p.waitFor(text, func(s string) bool { return strings.Contains(s, text) })
}

func (p *pane) waitFor(what string, ok func(string) bool) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := p.screen()
		if ok(s) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited for %s; the screen:\n%s", what, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// waitExit waits until the command has ended with code and the terminal's echo state is shown.
func (p *pane) waitExit(code int) {
	p.t.Helper()
	re := regexp.MustCompile(fmt.Sprintf(`(?m)^exit=%d\n-?echo$`, code))
	p.waitFor(fmt.Sprintf("exit=%d and the echo state", code), re.MatchString)
}

// typeLine types text and Enter.
func (p *pane) typeLine(text string) {
	p.t.Helper()
	if text != "" {
		p.keys("-l", text)
	}
	p.keys("Enter")
}

func (p *pane) keys(args ...string) {
	p.t.Helper()
	if out, err := exec.Command("tmux", append([]string{"-S", p.sock, "send-keys", "-t", "configure"}, args...)...).CombinedOutput(); err != nil {
		p.t.Fatalf("send-keys: %v: %s", err, out)
	}
}

// number is the list number the screen gives label ("  23  OpenAI (openai)").
func (p *pane) number(label string) string {
	p.t.Helper()
	m := regexp.MustCompile(`(?m)^\s*(\d+)  ` + regexp.QuoteMeta(label) + `(\s|$)`).FindStringSubmatch(p.screen())
	if m == nil {
		p.t.Fatalf("%q is not listed:\n%s", label, p.screen())
	}
	return m[1]
}

// home is an isolated user: HOME, goose's folders under GOOSE_PATH_ROOT, a work folder.
type home struct {
	root, configDir, work string
}

func newHome(t *testing.T, configYAML string) home {
	t.Helper()
	root := t.TempDir()
	h := home{root: root, configDir: filepath.Join(root, "goose", "config"), work: filepath.Join(root, "work")}
	os.MkdirAll(h.work, 0o755)
	if configYAML != "" {
		os.MkdirAll(h.configDir, 0o755)
		if err := os.WriteFile(filepath.Join(h.configDir, "config.yaml"), []byte(configYAML), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// env is the whole environment of the processes under test: no API key, no provider, nothing of the
// test's own environment but PATH.
func (h home) env(extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + h.root, "GOOSE_PATH_ROOT=" + filepath.Join(h.root, "goose"), "TERM=xterm"}, extra...)
}

// active is the provider and model goose-ls's config reader sees in the config folder.
func (h home) active(t *testing.T) (string, string) {
	t.Helper()
	cfg, err := config.Load(func(k string) (string, bool) {
		if k == "GOOSE_PATH_ROOT" {
			return filepath.Join(h.root, "goose"), true
		}
		return "", false
	})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.ActiveProvider()
	m, _ := cfg.ActiveModel()
	return p, m
}

// startACPIn starts `goose-ls acp` with exactly env and initializes it.
func startACPIn(t *testing.T, bin, dir string, env []string) (*acpProcess, sdk.InitializeResponse) {
	t.Helper()
	cmd := exec.Command(bin, "acp")
	cmd.Dir, cmd.Env = dir, env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &acpProcess{cmd: cmd, stdin: stdin, stderr: &strings.Builder{}, client: &acpClient{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	p.conn = sdk.NewClientSideConnection(p.client, stdin, stdout)
	p.conn.SetLogger(slog.New(slog.DiscardHandler)) // "connection closed" at the end is expected
	init, err := p.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	if err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, p.stderr)
	}
	return p, init
}

// wantTerminalMethod: initialize offers `configure` as the terminal auth method.
func wantTerminalMethod(t *testing.T, init sdk.InitializeResponse) {
	t.Helper()
	if len(init.AuthMethods) != 1 || init.AuthMethods[0].Terminal == nil || init.AuthMethods[0].Terminal.Id != "goose-ls-configure" ||
		strings.Join(init.AuthMethods[0].Terminal.Args, " ") != "configure" {
		t.Fatalf("initialize's auth methods: %+v", init.AuthMethods)
	}
}

// wantAuthRequired: err is ACP's auth_required naming the configure method.
func wantAuthRequired(t *testing.T, what string, err error) {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(fmt.Sprint(re.Data), "goose-ls-configure") {
		t.Fatalf("%s: %v, want auth_required naming goose-ls-configure", what, err)
	}
}

// acpWorks: authenticate answers, and a new session's prompt reaches the provider.
func acpWorks(t *testing.T, p *acpProcess, work, wantText string) {
	t.Helper()
	if _, err := p.conn.Authenticate(context.Background(), sdk.AuthenticateRequest{MethodId: "goose-ls-configure"}); err != nil {
		t.Fatalf("authenticate after configure: %v\nstderr:\n%s", err, p.stderr)
	}
	sess, err := p.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: work, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new after configure: %v\nstderr:\n%s", err, p.stderr)
	}
	resp, err := p.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("hello")}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after configure: %+v %v\nstderr:\n%s", resp, err, p.stderr)
	}
	p.client.mu.Lock()
	defer p.client.mu.Unlock()
	if got := p.client.text.String(); got != wantText {
		t.Errorf("agent text %q, want %q", got, wantText)
	}
}

// runNoKey runs `goose-ls run` with env (no key in it) and returns its events.
func runNoKey(t *testing.T, bin string, h home, env []string) string {
	t.Helper()
	cmd := exec.Command(bin, "run", "--prompt", "say something", "--output", "json")
	cmd.Dir, cmd.Env = h.work, env
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("goose-ls run: %v\n%s", err, stderr)
	}
	return string(out)
}

// wantBearer: every request the provider got carried key.
func wantBearer(t *testing.T, srv *wiretest.Server, n int, key string) {
	t.Helper()
	heads := srv.Headers()
	if len(heads) != n {
		t.Fatalf("the provider got %d requests, want %d", len(heads), n)
	}
	for i, h := range heads {
		if got := h.Get("Authorization"); got != "Bearer "+key {
			t.Errorf("request %d: Authorization %q, want the configured key", i, got)
		}
	}
}

// With the keyring disabled (GOOSE_DISABLE_KEYRING), the key goes to secrets.yaml. A wrong provider
// name is asked again, the model is typed freely; the screen never shows the key; the user's config.yaml keeps its keys and comments. An ACP agent started before gets
// auth_required, then works; `goose-ls run` with no key in its environment sends the stored one.
func TestConfigureInATerminalWithSecretsYAML(t *testing.T) {
	b := testbin.Build(t)
	const key = "sk-typed-in-tmux-5a1c"
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "configured and answering"}))
	defer srv.Close()
	h := newHome(t, "# my goose settings\nGOOSE_MODE: smart_approve # ask first\n")
	env := h.env("GOOSE_DISABLE_KEYRING=1", "OPENAI_HOST="+srv.URL)

	agent, init := startACPIn(t, b.GooseLS, h.work, env)
	wantTerminalMethod(t, init)
	_, err := agent.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: h.work, McpServers: []sdk.McpServer{}})
	wantAuthRequired(t, "session/new before configure", err)

	p := startPane(t, env, b.GooseLS, "configure")
	p.waitPrompt("Provider, by number or name:")
	screen := p.screen()
	for _, want := range []string{"goose-ls configure sets the provider and model goose and goose-ls use",
		"Settings go to " + filepath.Join(h.configDir, "config.yaml"), "Providers goose-ls runs:", "Anthropic (anthropic)", "Ollama (ollama)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	p.typeLine("nope")
	p.waitText(`"nope" is not in the list: type a number from 1 to`)
	p.waitPrompt("Provider, by number or name:")
	p.typeLine(p.number("OpenAI (openai)"))
	p.waitPrompt("Model, by number or any model name [gpt-4o]:")
	if !strings.Contains(p.screen(), "Models of OpenAI:\n   1  gpt-4o (default)") {
		t.Errorf("the model list:\n%s", p.screen())
	}
	p.typeLine("gpt-4o-mini")
	// OPENAI_HOST names a server of the user's own, which goose's openai may reach without a key
	p.waitPrompt("OPENAI_API_KEY for OpenAI, if it needs one (typing is hidden; Enter for none):")
	p.typeLine(key)
	p.waitExit(0)
	screen = p.screen()
	secrets := filepath.Join(h.configDir, "secrets.yaml")
	for _, want := range []string{"Stored OPENAI_API_KEY in " + secrets + ".",
		"Wrote " + filepath.Join(h.configDir, "config.yaml") + ": active_provider openai, model gpt-4o-mini.",
		"goose and goose-ls now use OpenAI (openai) with gpt-4o-mini.", "exit=0\necho"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, key) {
		t.Errorf("the key was echoed:\n%s", screen)
	}

	data, _ := os.ReadFile(filepath.Join(h.configDir, "config.yaml"))
	for _, want := range []string{"# my goose settings\nGOOSE_MODE: smart_approve # ask first\n", "active_provider: openai\n",
		"providers:\n  openai:\n    enabled: true\n    model: gpt-4o-mini\n    configured: true\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, data)
		}
	}
	if p, m := h.active(t); p != "openai" || m != "gpt-4o-mini" {
		t.Errorf("config.yaml names %s/%s", p, m)
	}
	st, err := os.Stat(secrets)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secrets.yaml: %v %v", st, err)
	}
	if data, _ := os.ReadFile(secrets); string(data) != "OPENAI_API_KEY: "+key+"\n" {
		t.Errorf("secrets.yaml: %q", data)
	}

	acpWorks(t, agent, h.work, "configured and answering")
	events := runNoKey(t, b.GooseLS, h, env)
	if !strings.Contains(events, "configured and answering") {
		t.Errorf("goose-ls run's events:\n%s", events)
	}
	wantBearer(t, srv, 2, key)
	if strings.Contains(agent.stderr.String(), key) {
		t.Error("the key reached goose-ls acp's log")
	}
}

// Ctrl-C at the key question and Ctrl-D (end of input) at the first one stop the set-up: nothing is
// written, and the terminal echoes again.
func TestConfigureStoppedChangesNothing(t *testing.T) {
	b := testbin.Build(t)
	const before = "# mine\nactive_provider: ollama\nproviders:\n  ollama:\n    enabled: true\n    model: qwen3\n    configured: true\n"
	h := newHome(t, before)
	env := h.env("GOOSE_DISABLE_KEYRING=1")
	unchanged := func(what string) {
		t.Helper()
		if data, _ := os.ReadFile(filepath.Join(h.configDir, "config.yaml")); string(data) != before {
			t.Errorf("%s: config.yaml changed:\n%s", what, data)
		}
		if entries, _ := os.ReadDir(h.configDir); len(entries) != 1 {
			t.Errorf("%s: files in the config folder: %v", what, entries)
		}
	}

	p := startPane(t, env, b.GooseLS, "configure")
	p.waitPrompt("Provider, by number or name [ollama]:")
	if !strings.Contains(p.screen(), "Ollama (ollama)  [current]") {
		t.Errorf("the current provider is not marked:\n%s", p.screen())
	}
	p.typeLine("anthropic")
	p.waitPrompt("Model, by number or any model name [claude-sonnet-4-5]:")
	p.typeLine("1")
	p.waitPrompt("ANTHROPIC_API_KEY for Anthropic (typing is hidden):")
	p.keys("-l", "sk-half-typed")
	p.keys("C-c")
	p.waitExit(130)
	if s := p.screen(); !strings.Contains(s, "goose-ls configure: stopped; nothing was changed.\nexit=130\necho") {
		t.Errorf("after Ctrl-C:\n%s", s)
	}
	unchanged("Ctrl-C")

	p = startPane(t, env, b.GooseLS, "configure")
	p.waitPrompt("Provider, by number or name [ollama]:")
	p.keys("C-d")
	p.waitExit(1)
	if s := p.screen(); !strings.Contains(s, "goose-ls configure: stopped; nothing was changed.\nexit=1\necho") {
		t.Errorf("after Ctrl-D:\n%s", s)
	}
	unchanged("Ctrl-D")
}

// Without a terminal on stdin the set-up refuses to start, in one sentence.
func TestConfigureNeedsATerminal(t *testing.T) {
	b := testbin.Build(t)
	h := newHome(t, "")
	cmd := exec.Command(b.GooseLS, "configure")
	cmd.Dir, cmd.Env, cmd.Stdin = h.work, h.env(), strings.NewReader("1\n")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v", err)
	}
	if want := "goose-ls configure: stdin is not a terminal: run it in a terminal to answer its questions (a script can store a key with `goose-ls secret set NAME`)\n"; string(out) != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if _, err := os.Stat(h.configDir); !os.IsNotExist(err) {
		t.Errorf("the config folder was created: %v", err)
	}
}
