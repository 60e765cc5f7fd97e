// Both vendor providers against the scripted wire-format servers: streaming, tool calls, errors,
// retry-after and cancellation.
package vendortest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// allVendors are the wire formats every provider test runs over: chat completions, Anthropic messages,
// and OpenAI's Responses API.
var allVendors = append(append([]wiretest.Vendor(nil), wiretest.Vendors...), wiretest.Responses)

var echoTool = provider.Tool{Name: "echo", Description: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}

func TestStreamTextAndToolCalls(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(
				wiretest.Reply{Text: "Let me échö that for you.", Calls: []wiretest.Call{{Name: "echo", Args: `{"text":"hi there"}`}, {Name: "echo", Args: `{"text":"second"}`}}, Usage: [2]int{120, 30},
					Cache: [2]int{80, 20}},
				wiretest.Reply{Text: "done"},
			))
			defer srv.Close()
			p := v.Provider(srv.URL)
			var deltas strings.Builder
			resp, err := p.Stream(context.Background(), provider.Request{
				Model: "m", System: "be brief", Tools: []provider.Tool{echoTool},
				Messages: []provider.Message{{Role: provider.User, Text: "say hi"}},
			}, func(d provider.Delta) { deltas.WriteString(d.Text) })
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Text != "Let me échö that for you." || deltas.String() != resp.Message.Text {
				t.Errorf("text %q, deltas %q", resp.Message.Text, deltas.String())
			}
			if len(resp.Message.ToolCalls) != 2 || resp.Message.ToolCalls[0].Name != "echo" ||
				string(resp.Message.ToolCalls[0].Arguments) != `{"text":"hi there"}` || string(resp.Message.ToolCalls[1].Arguments) != `{"text":"second"}` {
				t.Fatalf("tool calls %+v", resp.Message.ToolCalls)
			}
			// input counts the cached tokens too, as goose counts them; Responses reports no cache writes
			wantWrite := 20
			if v.Name == "responses" {
				wantWrite = 0
			}
			if resp.Usage.InputTokens != 120 || resp.Usage.OutputTokens != 30 || resp.Usage.CacheReadTokens != 80 || resp.Usage.CacheWriteTokens != wantWrite {
				t.Errorf("usage %+v", resp.Usage)
			}
			// second call carries the results
			msgs := []provider.Message{{Role: provider.User, Text: "say hi"}, resp.Message, {Role: provider.User, ToolResults: []provider.ToolResult{
				{CallID: resp.Message.ToolCalls[0].ID, Text: "hi there"},
				{CallID: resp.Message.ToolCalls[1].ID, Text: "boom", IsError: true},
			}}}
			if _, err := p.Stream(context.Background(), provider.Request{Model: "m", Messages: msgs, Tools: []provider.Tool{echoTool}}, func(provider.Delta) {}); err != nil {
				t.Fatal(err)
			}
			body, _ := json.Marshal(srv.Requests()[1])
			s := string(body)
			for _, want := range []string{resp.Message.ToolCalls[0].ID, "hi there", "boom", `"echo"`} {
				if !strings.Contains(s, want) {
					t.Errorf("second request lacks %q: %s", want, s)
				}
			}
			if v.Name == "openai" && !strings.Contains(s, "The tool call returned the following error:\\nboom") {
				t.Errorf("openai error result not prefixed: %s", s)
			}
			if v.Name == "responses" && !strings.Contains(s, `"output":"Error: boom"`) {
				t.Errorf("responses error result not prefixed: %s", s)
			}
			if v.Name == "anthropic" && !strings.Contains(s, `"is_error":true`) {
				t.Errorf("anthropic error result not flagged: %s", s)
			}
			first, _ := json.Marshal(srv.Requests()[0])
			if !strings.Contains(string(first), "be brief") {
				t.Errorf("system prompt missing: %s", first)
			}
			h := srv.Headers()[0]
			if v.Name != "anthropic" && h.Get("Authorization") != "Bearer sk-test" {
				t.Errorf("auth header %q", h.Get("Authorization"))
			}
			if v.Name == "anthropic" && h.Get("X-Api-Key") != "ak-test" {
				t.Errorf("x-api-key %q", h.Get("X-Api-Key"))
			}
		})
	}
}

func TestErrorsAreClassified(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			cases := []struct {
				reply wiretest.Reply
				kind  provider.ErrorKind
			}{
				{wiretest.Reply{Status: 429, Header: map[string]string{"retry-after": "7"}}, provider.ErrRateLimited},
				{wiretest.Reply{Status: 401}, provider.ErrAuth},
				{wiretest.Reply{Status: 500}, provider.ErrServer},
				{wiretest.ContextLengthError(v.Name), provider.ErrContextLength},
			}
			for _, c := range cases {
				srv := v.Serve(wiretest.Replies(c.reply))
				_, err := v.Provider(srv.URL).Stream(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {})
				srv.Close()
				var pe *provider.Error
				if !errors.As(err, &pe) || pe.Kind != c.kind {
					t.Errorf("status %d: got %v, want kind %v", c.reply.Status, err, c.kind)
					continue
				}
				if c.kind == provider.ErrRateLimited && pe.RetryAfter != 7*time.Second {
					t.Errorf("retry-after %v", pe.RetryAfter)
				}
			}
		})
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(
				wiretest.Reply{Status: 429, Header: map[string]string{"retry-after-ms": "30"}},
				wiretest.Reply{Status: 503},
				wiretest.Reply{Text: "finally"},
			))
			defer srv.Close()
			p := provider.WithRetry(v.Provider(srv.URL), provider.RetryPolicy{MaxRetries: 3, Initial: time.Millisecond, Max: 5 * time.Millisecond})
			start := time.Now()
			resp, err := p.Stream(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {})
			if err != nil || resp.Message.Text != "finally" {
				t.Fatalf("%v %q", err, resp.Message.Text)
			}
			if n := len(srv.Requests()); n != 3 {
				t.Errorf("%d requests, want 3", n)
			}
			if el := time.Since(start); el < 30*time.Millisecond {
				t.Errorf("retry-after ignored: finished in %v", el)
			}
			// the context-length error is not retried
			srv2 := v.Serve(wiretest.Replies(wiretest.ContextLengthError(v.Name)))
			defer srv2.Close()
			p2 := provider.WithRetry(v.Provider(srv2.URL), provider.RetryPolicy{MaxRetries: 3, Initial: time.Millisecond})
			_, err = p2.Stream(context.Background(), provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {})
			if provider.KindOf(err) != provider.ErrContextLength || len(srv2.Requests()) != 1 {
				t.Errorf("context length: %v after %d requests", err, len(srv2.Requests()))
			}
		})
	}
}

func TestCancelStopsTheStream(t *testing.T) {
	for _, v := range allVendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(wiretest.Reply{Text: "partial answer that hangs", Hang: true}))
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			got := make(chan struct{}, 1)
			done := make(chan error, 1)
			go func() {
				_, err := v.Provider(srv.URL).Stream(ctx, provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.User, Text: "x"}}}, func(provider.Delta) {
					select {
					case got <- struct{}{}:
					default:
					}
				})
				done <- err
			}()
			<-got
			cancel()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("err %v", err)
				}
			case <-time.After(5 * time.Second): // a hang guard, not a timing goal
				t.Fatal("stream did not stop on cancel")
			}
		})
	}
}
