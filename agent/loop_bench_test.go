// Benchmarks: the loop's own cost per turn, and concurrency of a turn's tool calls.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// noop is a tool that returns at once.
type noop struct{}

func (noop) Name() string         { return "bench" }
func (noop) Unprefixed() bool     { return false }
func (noop) Instructions() string { return "" }
func (noop) Close() error         { return nil }
func (noop) Tools() []tools.Spec {
	return []tools.Spec{{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}
func (noop) Call(context.Context, string, json.RawMessage) tools.Result {
	return tools.Result{Text: "ok"}
}

// BenchmarkLoopTurn: a 20-turn run, one tool call per turn, provider and tool answering instantly;
// the reported ns/turn is the loop's own overhead.
func BenchmarkLoopTurn(b *testing.B) {
	const turns = 20
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		p := &scripted.Provider{Script: func(n int, _ provider.Request) provider.Message {
			if n >= turns-1 {
				return provider.Message{Text: "done"}
			}
			return provider.Message{Text: "step", ToolCalls: []provider.ToolCall{{ID: fmt.Sprint("c", n), Name: "bench__noop", Arguments: json.RawMessage(`{}`)}}}
		}}
		cfg := Config{Provider: p, Model: "m", System: "sys", Tools: NewToolbox(Mount{Ext: noop{}}), Events: func(Event) {}}
		out := Run(context.Background(), cfg, nil, "go")
		if out.Status != StatusCompleted || len(out.Messages) != 2*turns {
			b.Fatalf("%s %d", out.Status, len(out.Messages))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*turns), "ns/turn")
}

// BenchmarkEightSlowToolsInOneTurn: 8 calls that each sleep 100 ms; concurrent execution keeps a turn
// near 100 ms.
func BenchmarkEightSlowToolsInOneTurn(b *testing.B) {
	var calls []provider.ToolCall
	for i := 0; i < 8; i++ {
		calls = append(calls, provider.ToolCall{ID: fmt.Sprint("c", i), Name: "sleepy__nap", Arguments: json.RawMessage(`{}`)})
	}
	for i := 0; i < b.N; i++ {
		p := &scripted.Provider{Script: func(n int, _ provider.Request) provider.Message {
			if n == 0 {
				return provider.Message{ToolCalls: calls}
			}
			return provider.Message{Text: "done"}
		}}
		cfg := Config{Provider: p, Model: "m", Tools: NewToolbox(Mount{Ext: &sleeper{d: 100 * time.Millisecond}})}
		start := time.Now()
		if out := Run(context.Background(), cfg, nil, "go"); out.Status != StatusCompleted {
			b.Fatal(out.Status)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms/turn")
	}
}
