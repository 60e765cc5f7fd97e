// `goose-ls acp` as built: stdout carries only protocol (the Go SDK's client reads it), the log goes to
// stderr; benchmarks of its start-up and of a tool round trip next to `goose-ls run` on the same scenario.

package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// acpProcess is a started `goose-ls acp` with a Go SDK client on its stdio.
type acpProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	conn   *sdk.ClientSideConnection
	stderr *strings.Builder
	client *acpClient
}

// acpClient answers fs/* from the disk and collects the agent's text.
type acpClient struct {
	mu   sync.Mutex
	text strings.Builder
}

func (c *acpClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	if m := n.Update.AgentMessageChunk; m != nil && m.Content.Text != nil {
		c.mu.Lock()
		c.text.WriteString(m.Content.Text.Text)
		c.mu.Unlock()
	}
	return nil
}
func (c *acpClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	b, err := os.ReadFile(p.Path)
	return sdk.ReadTextFileResponse{Content: string(b)}, err
}
func (c *acpClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, os.WriteFile(p.Path, []byte(p.Content), 0o644)
}
func (c *acpClient) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected("allow_once")}, nil
}
func (c *acpClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}
func (c *acpClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, nil
}
func (c *acpClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, nil
}
func (c *acpClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, nil
}
func (c *acpClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, nil
}

// startACP starts the binary in dir with env and initializes it (client fs advertised).
func startACP(tb testing.TB, bin, dir string, env []string) *acpProcess {
	tb.Helper()
	cmd := exec.Command(bin, "acp")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	p := &acpProcess{cmd: cmd, stdin: stdin, stderr: &strings.Builder{}, client: &acpClient{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p.conn = sdk.NewClientSideConnection(p.client, stdin, stdout)
	p.conn.SetLogger(slog.New(slog.DiscardHandler)) // "connection closed" at the end is expected
	if _, err := p.conn.Initialize(context.Background(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}}); err != nil {
		tb.Fatalf("initialize: %v\nstderr:\n%s", err, p.stderr)
	}
	return p
}

// stop closes stdin and waits for the process to end on its own.
func (p *acpProcess) stop(tb testing.TB) {
	tb.Helper()
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		tb.Fatalf("goose-ls acp ended with %v\nstderr:\n%s", err, p.stderr)
	}
}

// roundTripServer scripts a write, then an answer, for every prompt.
func roundTripServer() *wiretest.Server {
	return wiretest.OpenAI(func(n int, _ map[string]any) wiretest.Reply {
		if n%2 == 0 {
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "write", Args: `{"path":"out.txt","content":"benchmark\n"}`}}}
		}
		return wiretest.Reply{Text: "ok"}
	})
}

func roundTripEnv(srv *wiretest.Server, home string) []string {
	return []string{"GOOSE_PROVIDER=openai", "OPENAI_HOST=" + srv.URL, "OPENAI_API_KEY=sk-acp-test", "GOOSE_MODE=auto",
		"GOOSE_PATH_ROOT=" + home, "HOME=" + home}
}

func TestACPSubcommandSpeaksProtocolOnStdout(t *testing.T) {
	bin, _ := binaries(t)
	srv := roundTripServer()
	defer srv.Close()
	root := t.TempDir()
	p := startACP(t, bin, root, append(roundTripEnv(srv, t.TempDir()), "OPENAI_API_KEY=sk-acp-secret-value-123"))
	sess, err := p.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: root, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("write")}})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v\nstderr:\n%s", resp, err, p.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(root, "out.txt")); err != nil || string(b) != "benchmark\n" {
		t.Fatalf("out.txt: %q %v", b, err)
	}
	p.client.mu.Lock()
	text := p.client.text.String()
	p.client.mu.Unlock()
	if text != "ok" {
		t.Fatalf("agent text %q", text)
	}
	p.stop(t)
	if strings.Contains(p.stderr.String(), "sk-acp-secret-value-123") {
		t.Fatal("the API key reached the log")
	}
}

// BenchmarkACPStartup is `goose-ls acp` started and initialized, then ended.
func BenchmarkACPStartup(b *testing.B) {
	bin, _ := binaries(&testing.T{})
	home, root := b.TempDir(), b.TempDir()
	srv := roundTripServer()
	defer srv.Close()
	for b.Loop() {
		p := startACP(b, bin, root, roundTripEnv(srv, home))
		p.stop(b)
	}
}

// cpuTime is a finished process's user and system time: goose-ls's own work, without the time it spent
// waiting on the client or the provider.
func cpuTime(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

// BenchmarkACPToolRoundTrip is one session and one prompt with a write through fs/write_text_file, in a
// running `goose-ls acp` (sessions stored, as by default). cpu-ms/op is goose-ls's own CPU time per round
// trip: the process's CPU time less that of a process started and ended without prompts.
func BenchmarkACPToolRoundTrip(b *testing.B) {
	bin, _ := binaries(&testing.T{})
	home, root := b.TempDir(), b.TempDir()
	srv := roundTripServer()
	defer srv.Close()
	idle := startACP(b, bin, root, roundTripEnv(srv, home))
	idle.stop(b)
	startup := cpuTime(idle.cmd.ProcessState)
	p := startACP(b, bin, root, roundTripEnv(srv, home))
	n := 0
	for b.Loop() {
		sess, err := p.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: root, McpServers: []sdk.McpServer{}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("write")}}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	p.stop(b)
	b.ReportMetric(float64(cpuTime(p.cmd.ProcessState)-startup)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	b.ReportMetric(float64(startup)/float64(time.Millisecond), "startup-cpu-ms")
}

// BenchmarkRunToolRoundTrip is the same scenario as one `goose-ls run` process (start-up included);
// cpu-ms/op is that process's CPU time.
func BenchmarkRunToolRoundTrip(b *testing.B) {
	bin, _ := binaries(&testing.T{})
	home, root := b.TempDir(), b.TempDir()
	srv := roundTripServer()
	defer srv.Close()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		cmd := exec.Command(bin, "run", "--prompt", "write")
		cmd.Dir, cmd.Env = root, append(os.Environ(), roundTripEnv(srv, home)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		cpu += cpuTime(cmd.ProcessState)
		n++
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}
