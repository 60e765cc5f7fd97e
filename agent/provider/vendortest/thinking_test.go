// An OpenAI-compatible server's reasoning as goose handles it: read from reasoning_content (or vLLM's
// reasoning), kept as the message's thinking, sent back as reasoning_content unless the provider drops
// it, and an assistant message of reasoning alone folded into the next one.
package vendortest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/openai"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func TestReasoningIsReadAndSentBack(t *testing.T) {
	for _, tc := range []struct {
		name      string
		field     string
		noStream  bool
		drop      bool
		wantAgain bool
	}{
		{"reasoning_content, streamed", "", false, false, true},
		{"vLLM's reasoning, streamed", "reasoning", false, false, true},
		{"not streamed", "", true, false, true},
		{"dropped (api.openai.com, preserves_thinking false)", "", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := wiretest.OpenAI(wiretest.Replies(
				wiretest.Reply{Reasoning: "I should list the files first.", ReasoningField: tc.field, Text: "Listing.", Calls: []wiretest.Call{{Name: "tree", Args: `{}`}}},
				wiretest.Reply{Text: "Two files."},
			))
			defer srv.Close()
			p := openai.New(openai.Config{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", IncludeUsage: true, NoStream: tc.noStream, DropThinking: tc.drop})
			history := []provider.Message{{Role: provider.User, Text: "what is here?"}}
			streamed := ""
			resp, err := p.Stream(context.Background(), provider.Request{Model: "deepseek-v4", Messages: history}, func(d provider.Delta) {
				streamed += d.Text
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Thinking != "I should list the files first." || resp.Message.Text != "Listing." || streamed != "Listing." {
				t.Fatalf("message %+v, streamed text %q", resp.Message, streamed)
			}
			history = append(history, resp.Message, provider.Message{Role: provider.User,
				ToolResults: []provider.ToolResult{{CallID: resp.Message.ToolCalls[0].ID, Text: "a.txt b.txt"}}})
			if _, err := p.Stream(context.Background(), provider.Request{Model: "deepseek-v4", Messages: history}, func(provider.Delta) {}); err != nil {
				t.Fatal(err)
			}
			assistant := chatMessages(srv.Requests()[1])[1]
			got, has := assistant["reasoning_content"]
			if tc.wantAgain && got != "I should list the files first." || !tc.wantAgain && has {
				t.Errorf("assistant message sent back: %v", assistant)
			}
		})
	}
}

// An assistant message of reasoning alone is not sent: its reasoning goes with the next assistant message
// (a side that already holds the other is not repeated), and a message of another role in between drops it.
func TestReasoningAloneFoldsIntoTheNextAssistantMessage(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	p := openai.New(openai.Config{BaseURL: srv.URL + "/v1/", APIKey: "sk-test"})
	req := provider.Request{Model: "m", Messages: []provider.Message{
		{Role: provider.User, Text: "go"},
		{Role: provider.Assistant, Thinking: "step one. "},
		{Role: provider.Assistant, Thinking: "step two.", Text: "Done one."},
		{Role: provider.User, Text: "again"},
		{Role: provider.Assistant, Thinking: "lost"},
		{Role: provider.User, Text: "and?"},
		{Role: provider.Assistant, Thinking: "step", Text: "no reasoning carried"},
		{Role: provider.Assistant, Thinking: "abc"},
		{Role: provider.Assistant, Thinking: "abcdef", Text: "prefix kept once"},
		{Role: provider.User, Text: "end"},
	}}
	if _, err := p.Stream(context.Background(), req, func(provider.Delta) {}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range chatMessages(srv.Requests()[0]) {
		b, _ := json.Marshal(map[string]any{"role": m["role"], "content": m["content"], "reasoning_content": m["reasoning_content"]})
		got = append(got, string(b))
	}
	want := []string{
		`{"content":"go","reasoning_content":null,"role":"user"}`,
		`{"content":"Done one.","reasoning_content":"step one. step two.","role":"assistant"}`,
		`{"content":"again","reasoning_content":null,"role":"user"}`,
		`{"content":"and?","reasoning_content":null,"role":"user"}`,
		`{"content":"no reasoning carried","reasoning_content":"step","role":"assistant"}`,
		`{"content":"prefix kept once","reasoning_content":"abcdef","role":"assistant"}`,
		`{"content":"end","reasoning_content":null,"role":"user"}`,
	}
	if len(got) != len(want) {
		t.Fatalf("sent %d messages:\n%v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("message %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// chatMessages are a chat completions request's messages.
func chatMessages(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

// Inline <think> blocks leave the text; they are the message's reasoning unless the server sent its own.
func TestInlineThinkBlocks(t *testing.T) {
	for _, tc := range []struct {
		reply          wiretest.Reply
		noStream       bool
		text, thinking string
	}{
		{wiretest.Reply{Text: "<think>plan the answer</think>The answer."}, false, "The answer.", "plan the answer"},
		{wiretest.Reply{Text: "<think>plan the answer</think>The answer."}, true, "The answer.", "plan the answer"},
		{wiretest.Reply{Reasoning: "structured", Text: "<think>in</think>The answer."}, false, "The answer.", "structured"},
		{wiretest.Reply{Reasoning: "structured", Text: "<think>in</think>The answer."}, true, "The answer.", "structured"},
	} {
		srv := wiretest.OpenAI(wiretest.Replies(tc.reply))
		p := openai.New(openai.Config{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", NoStream: tc.noStream})
		streamed := ""
		resp, err := p.Stream(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "q"}}},
			func(d provider.Delta) { streamed += d.Text })
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Text != tc.text || resp.Message.Thinking != tc.thinking || streamed != tc.text {
			t.Errorf("%+v (stream %v): text %q thinking %q streamed %q", tc.reply, !tc.noStream, resp.Message.Text, resp.Message.Thinking, streamed)
		}
	}
}

// The Responses API's reasoning summaries are the message's reasoning (each item's parts joined by
// newlines); goose does not send them back.
func TestResponsesReasoningSummary(t *testing.T) {
	for _, noStream := range []bool{false, true} {
		srv := wiretest.OpenAIResponses(wiretest.Replies(
			wiretest.Reply{Reasoning: "Thinking about it.\nIt is simple.", Text: "Paris."},
			wiretest.Reply{Text: "Yes."},
		))
		p := openai.New(openai.Config{Name: "openai", BaseURL: srv.URL + "/v1/", APIKey: "sk-test", Responses: true, NoStream: noStream})
		var thought string
		msgs := []provider.Message{{Role: provider.User, Text: "capital?"}}
		resp, err := p.Stream(context.Background(), provider.Request{Model: "gpt-5", Messages: msgs}, func(d provider.Delta) { thought += d.Thinking })
		if err != nil {
			t.Fatal(err)
		}
		if resp.Message.Thinking != "Thinking about it.\nIt is simple." || resp.Message.Text != "Paris." || thought != resp.Message.Thinking {
			t.Errorf("stream %v: %+v (streamed reasoning %q)", !noStream, resp.Message, thought)
		}
		msgs = append(msgs, resp.Message, provider.Message{Role: provider.User, Text: "sure?"})
		if _, err := p.Stream(context.Background(), provider.Request{Model: "gpt-5", Messages: msgs}, func(provider.Delta) {}); err != nil {
			t.Fatal(err)
		}
		if sent, _ := json.Marshal(srv.Requests()[1]); strings.Contains(string(sent), "Thinking about it") {
			t.Errorf("reasoning sent back on the Responses API: %s", sent)
		}
		srv.Close()
	}
}
