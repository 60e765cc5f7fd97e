// A gpt-5 model over the Responses API's SSE wire format: streamed text and a function call, then the
// request goose would send with the call's output (asserted as the JSON the server received).
package vendortest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

func TestResponsesAPIStreamsAndSendsFunctionCallOutput(t *testing.T) {
	srv := wiretest.OpenAIResponses(wiretest.Replies(
		wiretest.Reply{Text: "I'll run it.", Calls: []wiretest.Call{{Name: "shell", Args: `{"command":"ls"}`}}, Usage: [2]int{42, 7}},
		wiretest.Reply{Text: "There is a.txt."},
	))
	defer srv.Close()
	p := wiretest.Responses.Provider(srv.URL)
	shell := provider.Tool{Name: "shell", Description: "run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)}
	temp := 0.5
	req := provider.Request{Model: "gpt-5-mini", System: "SYSTEM PROMPT", Tools: []provider.Tool{shell}, Temperature: &temp,
		Messages: []provider.Message{{Role: provider.User, Text: "list files"}}}
	var text strings.Builder
	var callDeltas []provider.Delta
	resp, err := p.Stream(context.Background(), req, func(d provider.Delta) {
		text.WriteString(d.Text)
		if d.Text == "" {
			callDeltas = append(callDeltas, d)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text != "I'll run it." || text.String() != resp.Message.Text {
		t.Errorf("text %q, streamed %q", resp.Message.Text, text.String())
	}
	if len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0].ID != "call_0_0" || resp.Message.ToolCalls[0].Name != "shell" ||
		string(resp.Message.ToolCalls[0].Arguments) != `{"command":"ls"}` {
		t.Fatalf("calls %+v", resp.Message.ToolCalls)
	}
	var args strings.Builder
	for _, d := range callDeltas {
		args.WriteString(d.ArgumentsPart)
	}
	if len(callDeltas) < 2 || callDeltas[0].ToolCallID != "call_0_0" || callDeltas[0].ToolName != "shell" || args.String() != `{"command":"ls"}` {
		t.Errorf("call deltas %+v", callDeltas)
	}
	if resp.Usage != (provider.Usage{InputTokens: 42, OutputTokens: 7}) {
		t.Errorf("usage %+v", resp.Usage)
	}

	req.Messages = append(req.Messages, resp.Message, provider.Message{Role: provider.User,
		ToolResults: []provider.ToolResult{{CallID: "call_0_0", Text: "a.txt"}}})
	resp, err = p.Stream(context.Background(), req, func(provider.Delta) {})
	if err != nil || resp.Message.Text != "There is a.txt." || len(resp.Message.ToolCalls) != 0 {
		t.Fatalf("second reply %+v %v", resp, err)
	}
	if got := srv.Paths(); len(got) != 2 || got[0] != "/v1/responses" || got[1] != "/v1/responses" {
		t.Errorf("paths %v", got)
	}
	want := decode(t, `{"model":"gpt-5-mini","store":false,"stream":true,"max_output_tokens":4096,
	 "input":[{"role":"system","content":[{"type":"input_text","text":"SYSTEM PROMPT"}]},
	          {"role":"user","content":[{"type":"input_text","text":"list files"}]},
	          {"role":"assistant","content":[{"type":"output_text","text":"I'll run it."}]},
	          {"type":"function_call","call_id":"call_0_0","name":"shell","arguments":"{\"command\":\"ls\"}"},
	          {"type":"function_call_output","call_id":"call_0_0","output":"a.txt"}],
	 "tools":[{"type":"function","name":"shell","description":"run a command",
	           "parameters":{"type":"object","properties":{"command":{"type":"string"}}},"strict":false}]}`)
	got := any(srv.Requests()[1])
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("second request (-goose +sent):\n%s", diff)
	}
}

func TestResponsesAPIReasoningSuffixAndFailure(t *testing.T) {
	srv := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	p := wiretest.Responses.Provider(srv.URL)
	if _, err := p.Stream(context.Background(), provider.Request{Model: "gpt-5.4-xhigh", MaxTokens: 900,
		Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	body := srv.Requests()[0]
	if body["model"] != "gpt-5.4" || body["max_output_tokens"] != 900.0 {
		t.Errorf("model %v max %v", body["model"], body["max_output_tokens"])
	}
	if diff := cmp.Diff(map[string]any{"effort": "xhigh", "summary": "auto"}, body["reasoning"]); diff != "" {
		t.Errorf("reasoning: %s", diff)
	}
	// gpt-5-mini supports low/medium/high only: xhigh becomes high
	if _, err := p.Stream(context.Background(), provider.Request{Model: "gpt-5-mini-xhigh",
		Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[1]["reasoning"].(map[string]any); r["effort"] != "high" {
		t.Errorf("effort %v", r["effort"])
	}
}

func TestResponsesAPIFailedEvent(t *testing.T) {
	for fail, kind := range map[string]provider.ErrorKind{
		"The model crashed.": provider.ErrOther,
		"Your input exceeds the context window of this model.": provider.ErrContextLength,
	} {
		srv := wiretest.OpenAIResponses(wiretest.Replies(wiretest.Reply{Fail: fail}))
		_, err := wiretest.Responses.Provider(srv.URL).Stream(context.Background(), provider.Request{Model: "o3",
			Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {})
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), "Responses API failed: server_error: "+fail) || provider.KindOf(err) != kind {
			t.Errorf("%q: %v (kind %v)", fail, err, provider.KindOf(err))
		}
	}
}
