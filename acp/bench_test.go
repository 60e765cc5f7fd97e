//go:build unix

// Benchmarks: a new session and one prompt with one tool round trip (a write, then the model's answer) over ACP — through
// the client's fs/write_text_file and on the disk — next to the same run through the agent loop directly.

package acp

import (
	"context"
	"os"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// roundTripModel writes a file, then answers: one tool round trip per prompt.
func roundTripModel() *model {
	m := newModel(call("w", "write", `{"path":"out.txt","content":"benchmark\n"}`), text("ok"))
	m.cycle = true
	return m
}

func benchmarkACP(b *testing.B, caps sdk.ClientCapabilities) {
	h := newHarness(b, roundTripModel(), harnessOptions{caps: caps, noSessions: true})
	b.ResetTimer()
	for b.Loop() {
		sess := h.newSession() // a fresh conversation each time, as each `goose-ls run` is
		if resp := h.prompt(sess.SessionId, sdk.TextBlock("write")); resp.StopReason != sdk.StopReasonEndTurn {
			b.Fatalf("stop %q", resp.StopReason)
		}
	}
}

func BenchmarkToolRoundTripACPClientFiles(b *testing.B) { benchmarkACP(b, fullCaps) }

func BenchmarkToolRoundTripACPDisk(b *testing.B) { benchmarkACP(b, sdk.ClientCapabilities{}) }

// BenchmarkToolRoundTripLoop is the same prompt through agent.RunDoc (what `goose-ls run` does).
func BenchmarkToolRoundTripLoop(b *testing.B) {
	m := roundTripModel()
	root := b.TempDir()
	home := b.TempDir()
	env := map[string]string{"GOOSE_PATH_ROOT": home, "HOME": home, "PATH": os.Getenv("PATH")}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var last agent.Event // the sink keeps the newest event, as cheap as a subscriber can be
	b.ResetTimer()
	for b.Loop() {
		out, err := agent.RunDoc(context.Background(), &agent.Doc{}, agent.RunOptions{Prompt: "write", Workspace: tools.Disk{Dir: root},
			Providers: m.factory, Lookup: lookup, Mode: agent.ModeAuto, Events: func(e agent.Event) { last = e }})
		if err != nil || out.Status != agent.StatusCompleted || last.Kind != agent.EventDone {
			b.Fatalf("%v %v (last event %v)", out.Status, err, last.Kind)
		}
	}
}
