// Latency of agent runs through the server, over the in-process recording client: a tool call arriving
// from the provider to its edit reaching the client, and a streamed text delta to its goose/runEvent.
package editoragent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	lspuri "go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/lsp/editoragent"
	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

// stampedProvider plays a script and notes when each tool call and text delta leaves it.
type stampedProvider struct {
	turns  int // tool-call turns before the final text
	deltas int // text deltas in the final reply
	n      int

	mu        sync.Mutex
	callSent  map[string]time.Time // tool call id → when the provider returned it
	deltaSent map[string]time.Time // delta text → when it was emitted
}

func (p *stampedProvider) Name() string { return "stamped" }

func (p *stampedProvider) Stream(ctx context.Context, _ provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	if err := ctx.Err(); err != nil {
		return provider.Response{}, err
	}
	n := p.n
	p.n++
	usage := provider.Usage{InputTokens: 100, OutputTokens: 10}
	if n < p.turns {
		id := fmt.Sprintf("call-%d", n)
		args, _ := json.Marshal(map[string]string{"path": "buf.txt", "content": fmt.Sprintf("line %d\n", n)})
		m := provider.Message{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: id, Name: "write", Arguments: args}}}
		p.mu.Lock()
		p.callSent[id] = time.Now()
		p.mu.Unlock()
		return provider.Response{Message: m, Usage: usage}, nil
	}
	var all strings.Builder
	for i := 0; i < p.deltas; i++ {
		text := fmt.Sprintf("<d%d>", i)
		p.mu.Lock()
		p.deltaSent[text] = time.Now()
		p.mu.Unlock()
		onDelta(provider.Delta{Text: text})
		all.WriteString(text)
	}
	return provider.Response{Message: provider.Message{Role: provider.Assistant, Text: all.String()}, Usage: usage}, nil
}

// benchRun runs one ask through a server whose provider is p, with a client that applies edits to
// buf.txt's buffer; it returns the per-call and per-delta latencies.
func benchRun(b *testing.B, p *stampedProvider) (edits, events []time.Duration) {
	root := b.TempDir()
	b.Setenv("GOOSE_PATH_ROOT", filepath.Join(root, ".goose-home"))
	b.Setenv("GOOSE_MODE", "auto")
	b.Setenv("GOOSE_MAX_TURNS", fmt.Sprint(p.turns+10))
	p.callSent, p.deltaSent = map[string]time.Time{}, map[string]time.Time{}
	c := lsptest.NewWith(b, lsp.Options{Agent: editoragent.New(editoragent.Options{Providers: func(provider.Settings) (provider.Setup, error) {
		return provider.Setup{Provider: p, Name: "stamped", Model: "m"}, nil
	}})})
	path := filepath.Join(root, "buf.txt")
	os.WriteFile(path, []byte("start\n"), 0o644)
	u := protocol.DocumentURI(lspuri.File(path))

	var mu sync.Mutex
	version := int32(1)
	var editArrived []time.Time
	c.Handle("workspace/applyEdit", func(raw json.RawMessage) (any, error) {
		at := time.Now()
		var e struct {
			Edit struct {
				DocumentChanges []struct {
					Edits []protocol.TextEdit `json:"edits"`
				} `json:"documentChanges"`
			} `json:"edit"`
		}
		json.Unmarshal(raw, &e)
		mu.Lock()
		editArrived = append(editArrived, at)
		version++
		v := version
		mu.Unlock()
		// like an editor: the buffer changes, then didChange, then the answer
		_ = c.Conn.Notify(context.Background(), "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"range": e.Edit.DocumentChanges[0].Edits[0].Range, "text": e.Edit.DocumentChanges[0].Edits[0].NewText}},
		})
		return map[string]any{"applied": true}, nil
	})
	var deltaArrived sync.Map
	done := make(chan string, 1)
	c.Observe("goose/runEvent", func(raw json.RawMessage) {
		at := time.Now()
		var ev struct {
			Kind   string `json:"kind"`
			Text   string `json:"text"`
			Status string `json:"status"`
		}
		if json.Unmarshal(raw, &ev) != nil {
			return
		}
		switch ev.Kind {
		case "text":
			deltaArrived.Store(ev.Text, at)
		case "done":
			done <- ev.Status
		}
	})
	if err := c.Call("initialize", map[string]any{"processId": 1, "rootUri": string(lspuri.File(root)), "initializationOptions": map[string]any{"noSessions": true},
		"capabilities": map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}}}, nil); err != nil {
		b.Fatal(err)
	}
	c.Notify("initialized", map[string]any{})
	c.Open(u, "plaintext", "start\n")
	var res struct {
		RunID string `json:"runId"`
	}
	b.ResetTimer()
	if err := c.Call("workspace/executeCommand", map[string]any{"command": "goose.ask", "arguments": []any{map[string]any{"prompt": "go"}}}, &res); err != nil {
		b.Fatal(err)
	}
	select {
	case status := <-done:
		if status != "completed" {
			b.Fatalf("run ended %s", status)
		}
	case <-time.After(5 * time.Minute):
		b.Fatal("the run did not end")
	}
	b.StopTimer()
	mu.Lock()
	defer mu.Unlock()
	if len(editArrived) != p.turns {
		b.Fatalf("%d edits arrived, want %d", len(editArrived), p.turns)
	}
	for i, at := range editArrived {
		edits = append(edits, at.Sub(p.callSent[fmt.Sprintf("call-%d", i)]))
	}
	for text, sent := range p.deltaSent {
		at, ok := deltaArrived.Load(text)
		if !ok {
			b.Fatalf("delta %s never arrived", text)
		}
		events = append(events, at.(time.Time).Sub(sent))
	}
	return edits, events
}

func percentile(ds []time.Duration, q float64) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[int(float64(len(ds)-1)*q)]
}

// BenchmarkToolCallToEdit: b.N write calls, each from the provider returning it to the client receiving
// the workspace/applyEdit (goal: p50 ≤ 10 ms).
func BenchmarkToolCallToEdit(b *testing.B) {
	edits, _ := benchRun(b, &stampedProvider{turns: b.N})
	b.ReportMetric(float64(percentile(edits, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(edits, 0.99).Microseconds())/1000, "p99-ms")
}

// BenchmarkTextDeltaToRunEvent: b.N streamed deltas, each from the provider emitting it to the client
// receiving its goose/runEvent (goal: p50 ≤ 1 ms).
func BenchmarkTextDeltaToRunEvent(b *testing.B) {
	_, events := benchRun(b, &stampedProvider{deltas: b.N})
	b.ReportMetric(float64(percentile(events, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(events, 0.99).Microseconds())/1000, "p99-ms")
}
