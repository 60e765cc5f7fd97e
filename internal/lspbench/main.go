// Command lspbench drives a language server over stdio with one LSP client and reports latencies:
// initialize, didChange → publishDiagnostics (p50/p99) on a 300-line, a 3,000-line and the template-heavy
// 3,000-line recipe (testgen.HeavyRecipe, with its sub-recipe files), completion (p50/p99) and peak RSS. It
// runs goose-ls and, when given, yaml-language-server with goose-ls's exported schema, on the same inputs.
// -type D instead types into the heavy recipe for D and reports resident memory over time (typing.go);
// -edits N instead makes N rounds of typing and structural edits to the heavy recipe and reports latency
// per kind of edit (edits.go), -before CMD beside it for an earlier build in the same rounds;
// -smaps FILE keeps the server's memory map after the edits and says where its resident memory is (smaps.go).
//
//	lspbench -server "bin/goose-ls" [-yamlls "node .../yaml-language-server --stdio"] [-n 200] [-type 10m | -edits 50 [-before OLD]] [-smaps FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/recipe/schema"
)

type result struct {
	name                 string
	initialize           time.Duration
	diag300, diag3000    []time.Duration
	diagHeavy            []time.Duration
	completion           []time.Duration
	peakRSSKiB           int
	diagnosticsPublished int
}

func main() {
	server := flag.String("server", "bin/goose-ls", "goose-ls command")
	yamlls := flag.String("yamlls", "", "yaml-language-server command (optional)")
	n := flag.Int("n", 200, "edits and completions per document")
	soakDur := flag.Duration("soak", 0, "run the soak test for this long instead (1,000 recipes, 100 edits/s)")
	typeDur := flag.Duration("type", 0, "type into the heavy recipe for this long instead and report resident memory")
	editRounds := flag.Int("edits", 0, "edit the heavy recipe for this many rounds of typing and structural edits instead and report latency per kind of edit")
	before := flag.String("before", "", "with -edits: an earlier build's goose-ls command, edited in the same rounds (its table first)")
	flag.StringVar(&smapsOut, "smaps", "", "write the goose-ls process's /proc/PID/smaps to this file once the edits are done")
	flag.Parse()
	if *soakDur > 0 {
		soak(strings.Fields(*server), 1000, 100, *soakDur)
		return
	}
	if *editRounds > 0 {
		servers := [][]string{strings.Fields(*server)}
		if *before != "" {
			servers = [][]string{strings.Fields(*before), strings.Fields(*server)}
		}
		edits(servers, *editRounds)
		return
	}
	if *typeDur > 0 {
		typing(strings.Fields(*server), *typeDur)
		return
	}
	dir, err := os.MkdirTemp("", "lspbench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	schemaPath := filepath.Join(dir, "goose-recipe.schema.json")
	if err := os.WriteFile(schemaPath, schema.JSON(), 0o644); err != nil {
		fail(err)
	}
	var results []*result
	results = append(results, run("goose-ls", strings.Fields(*server), dir, *n, nil))
	if *yamlls != "" {
		settings := map[string]any{"yaml": map[string]any{
			"validate": true, "completion": true, "hover": true,
			"schemas": map[string]any{"file://" + schemaPath: []string{"*.yaml"}},
		}}
		results = append(results, run("yaml-language-server", strings.Fields(*yamlls), dir, *n, settings))
	}
	report(results)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "lspbench:", err)
	os.Exit(1)
}

type client struct {
	conn  jsonrpc2.Conn
	mu    sync.Mutex
	diags map[string]chan struct{} // uri -> signalled on every publish
	count int
	cfg   any
}

// startClient starts the server argv and initializes it (with rootURI as its root when not ""): the
// running command and the client connected to it.
func startClient(argv []string, rootURI string) (*exec.Cmd, *client) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	c := &client{diags: map[string]chan struct{}{}}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{out, in}))
	ctx := context.Background()
	c.conn.Go(ctx, c.handle)
	params := map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{}}
	if rootURI != "" {
		params["rootUri"] = rootURI
	}
	if _, err := c.conn.Call(ctx, "initialize", params, nil); err != nil {
		fail(err)
	}
	_ = c.conn.Notify(ctx, "initialized", map[string]any{})
	return cmd, c
}

func (c *client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI string `json:"uri"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		c.mu.Lock()
		c.count++
		ch := c.diags[p.URI]
		c.mu.Unlock()
		if ch != nil {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
		return reply(ctx, nil, nil)
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		out := make([]any, len(p.Items))
		for i, it := range p.Items {
			if m, ok := c.cfg.(map[string]any); ok {
				out[i] = m[it.Section]
			}
		}
		return reply(ctx, out, nil)
	}
	return reply(ctx, nil, nil)
}

type stdio struct {
	io.ReadCloser
	io.WriteCloser
}

func (s stdio) Close() error { s.WriteCloser.Close(); return s.ReadCloser.Close() }

func run(name string, argv []string, dir string, n int, settings any) *result {
	res := &result{name: name}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = io.Discard
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fail(fmt.Errorf("%s: %w", name, err))
	}
	c := &client{diags: map[string]chan struct{}{}, cfg: settings}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{out, in}))
	ctx := context.Background()
	c.conn.Go(ctx, c.handle)
	call := func(method string, params, result any) {
		if _, err := c.conn.Call(ctx, method, params, result); err != nil {
			fail(fmt.Errorf("%s %s: %w", name, method, err))
		}
	}
	call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": "file://" + dir, "capabilities": map[string]any{
		"workspace":    map[string]any{"configuration": true},
		"textDocument": map[string]any{"completion": map[string]any{"completionItem": map[string]any{"snippetSupport": true}}},
	}}, nil)
	res.initialize = time.Since(start)
	_ = c.conn.Notify(ctx, "initialized", map[string]any{})
	if settings != nil {
		_ = c.conn.Notify(ctx, "workspace/didChangeConfiguration", map[string]any{"settings": settings})
	}
	res.diag300 = editLoop(c, dir, "small.recipe.yaml", testgen.Recipe(19, 90), n)
	res.diag3000 = editLoop(c, dir, "large.recipe.yaml", testgen.Recipe(190, 900), n)
	heavy := testgen.HeavyRecipe()
	heavyPath, err := testgen.WriteHeavy(dir, heavy)
	if err != nil {
		fail(err)
	}
	res.diagHeavy = editLoop(c, dir, filepath.Base(heavyPath), heavy.Text, n)
	res.completion = completionLoop(c, dir, n)
	res.peakRSSKiB = peakRSS(cmd.Process.Pid)
	if smapsOut != "" && name == "goose-ls" {
		saveSmaps(cmd.Process.Pid, smapsOut)
	}
	res.diagnosticsPublished = c.count
	_, _ = c.conn.Call(ctx, "shutdown", nil, nil)
	_ = c.conn.Notify(ctx, "exit", nil)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = cmd.Process.Kill()
	}
	return res
}

// editLoop opens text and measures didChange → next publishDiagnostics, editing one character in the
// instructions back and forth (the document stays valid).
func editLoop(c *client, dir, name, text string, n int) []time.Duration {
	uri := "file://" + filepath.Join(dir, name)
	ch := make(chan struct{}, 1)
	c.mu.Lock()
	c.diags[uri] = ch
	c.mu.Unlock()
	ctx := context.Background()
	_ = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	wait(ch, 10*time.Second)
	line := 4 // an instructions line
	var out []time.Duration
	for i := 0; i < n; i++ {
		ch2 := "X"
		if i%2 == 1 {
			ch2 = "S"
		}
		drain(ch)
		t0 := time.Now()
		_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []any{map[string]any{"range": rng(line, 2, line, 3), "text": ch2}},
		})
		if !wait(ch, 5*time.Second) {
			fail(fmt.Errorf("no diagnostics after edit %d of %s", i, name))
		}
		out = append(out, time.Since(t0))
	}
	return out
}

func completionLoop(c *client, dir string, n int) []time.Duration {
	uri := "file://" + filepath.Join(dir, "small.recipe.yaml")
	var out []time.Duration
	for i := 0; i < n; i++ {
		t0 := time.Now()
		var res json.RawMessage
		// line 4 holds `{{ pN }}`: ask inside the braces
		if _, err := c.conn.Call(context.Background(), "textDocument/completion", map[string]any{
			"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 4, "character": 24},
		}, &res); err != nil {
			fail(err)
		}
		out = append(out, time.Since(t0))
	}
	return out
}

func rng(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}
}

func wait(ch chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// peakRSS reads the process's peak resident size (VmHWM) in KiB.
func peakRSS(pid int) int { return procStatusKiB(pid, "VmHWM:") }

// procStatusKiB reads one KiB field of /proc/PID/status (0 when unavailable).
func procStatusKiB(pid int, field string) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field); ok {
			var kb int
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb
		}
	}
	return 0
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration{}, ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func report(rs []*result) {
	fmt.Printf("%-22s %12s %14s %14s %14s %14s %14s %14s %12s %12s %10s\n", "server", "initialize", "diag300 p50", "diag300 p99",
		"diag3000 p50", "diag3000 p99", "heavy p50", "heavy p99", "compl p50", "compl p99", "peak RSS")
	for _, r := range rs {
		fmt.Printf("%-22s %12s %14s %14s %14s %14s %14s %14s %12s %12s %7d KiB\n", r.name, ms(r.initialize),
			ms(pct(r.diag300, 0.5)), ms(pct(r.diag300, 0.99)), ms(pct(r.diag3000, 0.5)), ms(pct(r.diag3000, 0.99)),
			ms(pct(r.diagHeavy, 0.5)), ms(pct(r.diagHeavy, 0.99)), ms(pct(r.completion, 0.5)), ms(pct(r.completion, 0.99)), r.peakRSSKiB)
	}
	if len(rs) == 2 {
		a, b := rs[0], rs[1]
		ratio := func(x, y time.Duration) string {
			if x == 0 {
				return "-"
			}
			return fmt.Sprintf("%.1fx", float64(y)/float64(x))
		}
		fmt.Printf("yaml-language-server / goose-ls: diag300 p50 %s, diag3000 p50 %s, heavy p50 %s, completion p50 %s, initialize %s\n",
			ratio(pct(a.diag300, 0.5), pct(b.diag300, 0.5)), ratio(pct(a.diag3000, 0.5), pct(b.diag3000, 0.5)),
			ratio(pct(a.diagHeavy, 0.5), pct(b.diagHeavy, 0.5)),
			ratio(pct(a.completion, 0.5), pct(b.completion, 0.5)), ratio(a.initialize, b.initialize))
	}
}
