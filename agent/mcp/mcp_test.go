// The adapter against the real test server subprocess: stdio and streamable HTTP, a clean environment,
// a server flooding stderr, one hanging at start, call timeouts and error results.
package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/sessionctx"
)

var serverBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcptest")
	if err != nil {
		panic(err)
	}
	serverBin = filepath.Join(dir, "testserver")
	if out, err := exec.Command("go", "build", "-o", serverBin, "./testserver").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func call(t *testing.T, c *Client, tool, args string) (string, bool) {
	t.Helper()
	r := c.Call(context.Background(), tool, json.RawMessage(args))
	return r.Text, r.IsError
}

func TestStdio(t *testing.T) {
	t.Setenv("GOOSE_LS_UNRELATED_SECRET", "must-not-leak")
	c, err := Start(context.Background(), Config{Name: "test", Type: "stdio", Cmd: serverBin, Env: map[string]string{"DECLARED": "yes"}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var names []string
	for _, s := range c.Tools() {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "add,echo,env,fail,meta,pwd,slow" && strings.Join(names, ",") != "echo,env,add,slow,meta,pwd,fail" {
		t.Errorf("tools %v", names)
	}
	if c.Instructions() != "Test server: echo things back." {
		t.Errorf("instructions %q", c.Instructions())
	}
	for _, s := range c.Tools() {
		if s.Name == "echo" && (!s.Annotated || !s.ReadOnly || !strings.Contains(string(s.InputSchema), `"text"`)) {
			t.Errorf("echo spec %+v", s)
		}
	}
	if got, isErr := call(t, c, "echo", `{"text":"héllo"}`); got != "echo: héllo" || isErr {
		t.Errorf("echo %q %v", got, isErr)
	}
	if got, isErr := call(t, c, "fail", `{}`); got != "this tool always fails" || !isErr {
		t.Errorf("fail %q %v", got, isErr)
	}
	// the process sees PATH and what the recipe declared, nothing else
	if got, _ := call(t, c, "env", `{"name":"GOOSE_LS_UNRELATED_SECRET"}`); got != "(unset)" {
		t.Errorf("unrelated variable leaked: %q", got)
	}
	if got, _ := call(t, c, "env", `{"name":"HOME"}`); got != "(unset)" {
		t.Errorf("HOME leaked: %q", got)
	}
	if got, _ := call(t, c, "env", `{"name":"DECLARED"}`); got != "yes" {
		t.Errorf("declared variable: %q", got)
	}
	if got, _ := call(t, c, "env", `{"name":"PATH"}`); got != os.Getenv("PATH") {
		t.Errorf("PATH: %q", got)
	}
}

func TestCallTimeout(t *testing.T) {
	c, err := Start(context.Background(), Config{Name: "test", Type: "stdio", Cmd: serverBin, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.cfg.Timeout = 100 * time.Millisecond
	got, isErr := call(t, c, "slow", `{"ms": 5000}`)
	if !isErr || !strings.Contains(got, "timed out") {
		t.Errorf("%q %v", got, isErr)
	}
	// the connection still works afterwards
	c.cfg.Timeout = 5 * time.Second
	if got, _ := call(t, c, "add", `{"a": 2, "b": 3}`); got != "5" {
		t.Errorf("after timeout: %q", got)
	}
}

func TestServerFloodingStderrKeepsWorking(t *testing.T) {
	c, err := Start(context.Background(), Config{Name: "noisy", Type: "stdio", Cmd: serverBin, Args: []string{"-flood-stderr", "1024"}, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 3; i++ {
		if got, isErr := call(t, c, "echo", `{"text":"still here"}`); got != "echo: still here" || isErr {
			t.Fatalf("call %d: %q", i, got)
		}
	}
}

func TestServerHangingAtStartIsReportedAndKilled(t *testing.T) {
	start := time.Now()
	c, err := Start(context.Background(), Config{Name: "stuck", Type: "stdio", Cmd: serverBin, Args: []string{"-hang"}, Timeout: 300 * time.Millisecond})
	if err == nil {
		c.Close()
		t.Fatal("a hanging server started")
	}
	if !strings.Contains(err.Error(), "stuck") || !strings.Contains(err.Error(), "initialize") {
		t.Errorf("error %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	// no testserver -hang process is left
	out, _ := exec.Command("pgrep", "-f", serverBin+" -hang").Output()
	if strings.TrimSpace(string(out)) != "" {
		time.Sleep(200 * time.Millisecond)
		out, _ = exec.Command("pgrep", "-f", serverBin+" -hang").Output()
		if strings.TrimSpace(string(out)) != "" {
			t.Errorf("hanging server still running: %s", out)
		}
	}
}

func TestStartErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Name: "missing", Type: "stdio", Cmd: "/nonexistent/server"},
		{Name: "old", Type: "sse", URI: "http://127.0.0.1:1/sse"},
		{Name: "nowhere", Type: "streamable_http", URI: "http://127.0.0.1:1/mcp", Timeout: time.Second},
	} {
		if c, err := Start(context.Background(), cfg); err == nil {
			c.Close()
			t.Errorf("%s started", cfg.Name)
		} else if !strings.Contains(err.Error(), cfg.Name) {
			t.Errorf("%s: error does not name the extension: %v", cfg.Name, err)
		}
	}
}

// StartHTTPServer runs the test server over streamable HTTP and returns its URL.
func startHTTPServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(serverBin, "-http", "127.0.0.1:0")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(line)
}

// The uri and headers take the extension's variables as goose substitutes them.
func TestStreamableHTTP(t *testing.T) {
	url := startHTTPServer(t)
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	c, err := Start(context.Background(), Config{Name: "remote", Type: "streamable_http", URI: "http://${ MCP_HOST }/mcp",
		Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Env: map[string]string{"TOKEN": "t0k", "MCP_HOST": host}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, isErr := call(t, c, "add", `{"a": 40, "b": 2}`); got != "42" || isErr {
		t.Errorf("add %q %v", got, isErr)
	}
	if len(c.Tools()) != 7 {
		t.Errorf("%d tools", len(c.Tools()))
	}
}

// A call carries goose's _meta: the session, the working folder and the model's tool call id; outside a
// session only the folder. (mcp-go adds its own io.modelcontextprotocol/ fields beside them.)
func TestCallCarriesGoosesMeta(t *testing.T) {
	work := t.TempDir()
	c, err := Start(context.Background(), Config{Name: "test", Type: "stdio", Cmd: serverBin, WorkDir: work, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	gooseMeta := func(ctx context.Context) map[string]any {
		res := c.Call(ctx, "meta", json.RawMessage(`{}`))
		var all map[string]any
		if res.IsError || json.Unmarshal([]byte(res.Text), &all) != nil {
			t.Fatalf("meta: %+v", res)
		}
		for k := range all {
			if !strings.HasPrefix(k, "agent-") {
				delete(all, k)
			}
		}
		return all
	}
	ctx := sessionctx.WithToolCall(sessionctx.WithSession(context.Background(), "20261128_3"), "call_0_0")
	want := map[string]any{"agent-session-id": "20261128_3", "agent-working-dir": work, "agent-tool-call-request-id": "call_0_0"}
	if got := gooseMeta(ctx); !reflect.DeepEqual(got, want) {
		t.Errorf("_meta %v, want %v", got, want)
	}
	if got := gooseMeta(context.Background()); !reflect.DeepEqual(got, map[string]any{"agent-working-dir": work}) {
		t.Errorf("outside a session: %v", got)
	}
}
