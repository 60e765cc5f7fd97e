// A model's reasoning in the loop: streamed as thinking events (never as text), redacted even when a secret
// is split across deltas, kept on the recorded message and sent back on the next request.
package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestReasoningStreamsAsThinkingAndIsKept(t *testing.T) {
	const secret = "sk-reason-5ecret-value"
	srv := wiretest.OpenAI(wiretest.Replies(
		wiretest.Reply{Reasoning: "The key is " + secret + ", so echo it.", Calls: []wiretest.Call{call("echo__say", `{"text":"x"}`)}},
		wiretest.Reply{Text: "Done."},
	))
	defer srv.Close()
	rec := &recorder{}
	red := &Redactor{}
	red.Add(secret)
	var recorded []provider.Message
	cfg := Config{Provider: wiretest.Vendors[0].Provider(srv.URL), Model: "m", System: "sys", Tools: NewToolbox(Mount{Ext: echoTool{}}),
		WorkDir: t.TempDir(), Events: rec.add, Redactor: red, Mode: ModeAuto, Record: func(m provider.Message) { recorded = append(recorded, m) }}
	out := Run(context.Background(), cfg, nil, "go")
	if out.Status != StatusCompleted {
		t.Fatalf("status %s %v", out.Status, out.Err)
	}
	var thought, text strings.Builder
	for _, e := range rec.kinds(EventThinking) {
		thought.WriteString(e.Text)
	}
	for _, e := range rec.kinds(EventText) {
		text.WriteString(e.Text)
	}
	if thought.String() != "The key is [REDACTED], so echo it." || strings.Contains(text.String(), "key") {
		t.Errorf("thinking events %q, text events %q", thought.String(), text.String())
	}
	if len(recorded) < 2 || recorded[1].Thinking != "The key is "+secret+", so echo it." {
		t.Fatalf("recorded %+v", recorded)
	}
	second := srv.Requests()[1]["messages"].([]any)
	if got := second[2].(map[string]any)["reasoning_content"]; got != recorded[1].Thinking {
		t.Errorf("reasoning sent back: %v", got)
	}
}
