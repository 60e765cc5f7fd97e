// Package mcp connects recipe extensions (MCP servers over stdio or streamable HTTP) through mcp-go:
// start with a clean environment, drain stderr into the log, initialize, list tools, call with timeouts.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/goose-ls/goose-ls/agent/proc"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// DefaultTimeout is goose's default extension timeout (start and each call).
const DefaultTimeout = 300 * time.Second

// Config describes one extension.
type Config struct {
	Name    string
	Type    string // "stdio" or "streamable_http"
	Cmd     string
	Args    []string
	Env     map[string]string // declared envs and resolved env_keys: all the process gets besides PATH
	WorkDir string
	URI     string
	Headers map[string]string
	// Timeout bounds start-up and each call (0: DefaultTimeout).
	Timeout time.Duration
	// Redact hides secrets in what reaches the log.
	Redact func(string) string
}

// Client is a started extension.
type Client struct {
	cfg          Config
	c            *client.Client
	cmd          *exec.Cmd
	specs        []tools.Spec
	instructions string
}

// Start launches (stdio) or connects to (streamable_http) the server and lists its tools.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Redact == nil {
		cfg.Redact = func(s string) string { return s }
	}
	cl := &Client{cfg: cfg}
	var err error
	switch cfg.Type {
	case "stdio":
		err = cl.startStdio()
	case "streamable_http":
		err = cl.startHTTP(ctx)
	case "sse":
		err = errors.New("SSE is unsupported, migrate to streamable_http")
	default:
		err = fmt.Errorf("unsupported extension type %q", cfg.Type)
	}
	if err != nil {
		cl.Close()
		return nil, fmt.Errorf("extension %s: %w", cfg.Name, err)
	}
	ictx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	if err := cl.initialize(ictx); err != nil {
		cl.Close()
		if ictx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("extension %s: no answer to initialize within %s", cfg.Name, cfg.Timeout)
		}
		return nil, fmt.Errorf("extension %s: %w", cfg.Name, err)
	}
	return cl, nil
}

// Environ is the environment of a stdio extension: PATH and the declared variables, nothing else.
func Environ(declared map[string]string) []string {
	env := []string{"PATH=" + os.Getenv("PATH")}
	keys := make([]string, 0, len(declared))
	for k := range declared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+declared[k])
	}
	return env
}

func (cl *Client) startStdio() error {
	if strings.TrimSpace(cl.cfg.Cmd) == "" {
		return errors.New("no cmd to start")
	}
	cmdFunc := func(_ context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
		cmd := exec.Command(command, args...)
		cmd.Env = env
		cmd.Dir = cl.cfg.WorkDir
		proc.Detach(cmd)
		cl.cmd = cmd
		return cmd, nil
	}
	stderr := &logWriter{name: cl.cfg.Name, redact: cl.cfg.Redact}
	t := transport.NewStdioWithOptions(cl.cfg.Cmd, Environ(cl.cfg.Env), cl.cfg.Args,
		transport.WithCommandFunc(cmdFunc), transport.WithCommandStderrWriter(stderr))
	if err := t.Start(context.Background()); err != nil {
		return err
	}
	cl.c = client.NewClient(t)
	return nil
}

func (cl *Client) startHTTP(ctx context.Context) error {
	if cl.cfg.URI == "" {
		return errors.New("no uri to connect to")
	}
	headers := map[string]string{}
	for k, v := range cl.cfg.Headers {
		headers[k] = SubstituteEnv(v, cl.cfg.Env)
	}
	c, err := client.NewStreamableHttpClient(SubstituteEnv(cl.cfg.URI, cl.cfg.Env), transport.WithHTTPHeaders(headers), transport.WithHTTPTimeout(cl.cfg.Timeout))
	if err != nil {
		return err
	}
	cl.c = c
	return c.Start(ctx)
}

func (cl *Client) initialize(ctx context.Context) error {
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "goose-ls", Version: "0.1"}
	res, err := cl.c.Initialize(ctx, req)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	cl.instructions = res.Instructions
	listReq := mcp.ListToolsRequest{}
	listReq.Params.Meta = cl.meta(ctx, false)
	list, err := cl.c.ListTools(ctx, listReq)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range list.Tools {
		cl.specs = append(cl.specs, specOf(t))
	}
	return nil
}

func specOf(t mcp.Tool) tools.Spec {
	raw, _ := json.Marshal(t)
	var shape struct {
		InputSchema json.RawMessage `json:"inputSchema"`
		Annotations map[string]any  `json:"annotations"`
	}
	_ = json.Unmarshal(raw, &shape)
	spec := tools.Spec{Name: t.Name, Description: t.Description, InputSchema: shape.InputSchema}
	if a := t.Annotations.ReadOnlyHint; a != nil {
		spec.Annotated, spec.ReadOnly = true, *a
	} else if len(shape.Annotations) > 0 {
		spec.Annotated = true
	}
	return spec
}

// Name is the extension's name.
func (cl *Client) Name() string { return cl.cfg.Name }

// Unprefixed is false: MCP tools are called `extension__tool`.
func (cl *Client) Unprefixed() bool { return false }

// Instructions are the server's initialize instructions.
func (cl *Client) Instructions() string { return cl.instructions }

// Tools lists the server's tools.
func (cl *Client) Tools() []tools.Spec { return cl.specs }

// Call calls one tool with the configured timeout; failures are error results for the model.
func (cl *Client) Call(ctx context.Context, tool string, args json.RawMessage) tools.Result {
	var arguments map[string]any
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &arguments); err != nil {
			return tools.Result{Text: "Error: Failed to parse arguments: " + err.Error(), IsError: true}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, cl.cfg.Timeout)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = arguments
	req.Params.Meta = cl.meta(ctx, true)
	res, err := cl.c.CallTool(ctx, req)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return tools.Result{Text: fmt.Sprintf("Tool %s of extension %s timed out after %s", tool, cl.cfg.Name, cl.cfg.Timeout), IsError: true}
		}
		return tools.Result{Text: err.Error(), IsError: true}
	}
	return tools.Result{Text: resultText(res), IsError: res.IsError}
}

// meta is the _meta goose puts on each extension request: the session (once it exists), the working
// folder and, on a call, the id of the model's tool call it serves.
func (cl *Client) meta(ctx context.Context, call bool) *mcp.Meta {
	fields := map[string]any{}
	if id := sessionctx.Session(ctx); id != "" {
		fields[sessionctx.MetaSession] = id
	}
	if cl.cfg.WorkDir != "" {
		fields[sessionctx.MetaWorkingDir] = cl.cfg.WorkDir
	}
	if id := sessionctx.ToolCall(ctx); call && id != "" {
		fields[sessionctx.MetaToolCall] = id
	}
	if len(fields) == 0 {
		return nil
	}
	return &mcp.Meta{AdditionalFields: fields}
}

// resultText joins the blocks meant for the model (no audience, or one that includes the assistant).
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		raw, _ := json.Marshal(c)
		var block struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			MimeType    string `json:"mimeType"`
			Annotations *struct {
				Audience []string `json:"audience"`
			} `json:"annotations"`
			Resource *struct {
				URI  string `json:"uri"`
				Text string `json:"text"`
			} `json:"resource"`
		}
		if json.Unmarshal(raw, &block) != nil {
			continue
		}
		if a := block.Annotations; a != nil && len(a.Audience) > 0 && !contains(a.Audience, "assistant") {
			continue
		}
		switch block.Type {
		case "text":
			parts = append(parts, block.Text)
		case "resource":
			if block.Resource != nil {
				parts = append(parts, block.Resource.Text)
			}
		default:
			parts = append(parts, fmt.Sprintf("[%s content (%s) omitted]", block.Type, block.MimeType))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n")
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// Close stops the server: the client closes, then the whole process group is killed.
func (cl *Client) Close() error {
	if cl.cmd != nil && cl.cmd.Process != nil {
		// a server that never answered gets no graceful period
		proc.Terminate(cl.cmd)
	}
	var err error
	if cl.c != nil {
		done := make(chan error, 1)
		go func() { done <- cl.c.Close() }()
		select {
		case err = <-done:
		case <-time.After(3 * time.Second):
			err = errors.New("close timed out")
		}
	}
	if cl.cmd != nil && cl.cmd.Process != nil {
		proc.Kill(cl.cmd)
	}
	return err
}

// logWriter turns a server's stderr into log lines (bounded per line, secrets redacted).
type logWriter struct {
	name    string
	redact  func(string) string
	partial []byte
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			if len(w.partial) > 4096 {
				w.emit(string(w.partial))
				w.partial = w.partial[:0]
			}
			return len(p), nil
		}
		w.emit(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
	}
}

func (w *logWriter) emit(line string) {
	if len(line) > 1000 {
		line = line[:1000] + "…"
	}
	slog.Debug("extension stderr", "extension", w.name, "line", w.redact(line))
}

var _ io.Writer = (*logWriter)(nil)
