// The per-turn context against both vendors' wire formats: todo_write's text reaches the next request in
// one user-role <info-msg> (merged as goose merges it), survives compaction, never enters the history, and
// is left out below a 32,000-token context; tom's text joins it.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/platform"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// infoMessages are the messages of a request body (either vendor) that carry an <info-msg>, as JSON.
func infoMessages(body map[string]any) []string {
	var out []string
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(m)
		if strings.Contains(b.String(), "<info-msg>") {
			out = append(out, b.String())
		}
	}
	return out
}

func TestTodoReachesTheNextRequestAndSurvivesCompaction(t *testing.T) {
	const todoText = "- [ ] write the tests\\n- [x] read the brief"
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			compacted := false
			srv := v.Serve(func(n int, body map[string]any) wiretest.Reply {
				s := toolResultsText(body)
				switch {
				case strings.Contains(s, "Summarise this conversation"):
					compacted = true
					return wiretest.Reply{Text: "SUMMARY: tests are planned."}
				case n == 0:
					return wiretest.Reply{Calls: []wiretest.Call{call("todo__todo_write", `{"content":"`+todoText+`"}`)}, Usage: [2]int{50000, 1000}}
				case compacted:
					return wiretest.Reply{Text: "done"}
				}
				return wiretest.ContextLengthError(v.Name)
			})
			defer srv.Close()
			todo := &platform.Todo{}
			tom := &platform.Tom{Getenv: func(k string) string {
				return map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": "TOP OF MIND"}[k]
			}}
			cfg, root, _ := devConfig(t, v.Provider(srv.URL), Mount{Ext: todo}, Mount{Ext: tom})
			cfg.Now = func() time.Time { return time.Date(2026, 11, 23, 4, 35, 17, 0, time.Local) }
			out := Run(context.Background(), cfg, nil, "make a plan")
			if out.Status != StatusCompleted || out.LastText != "done" {
				t.Fatalf("%s %q %v", out.Status, out.LastText, out.Err)
			}
			reqs := srv.Requests()
			if len(reqs) != 4 { // todo call, context error, summary, after compaction
				t.Fatalf("%d requests", len(reqs))
			}
			head := "<info-msg>\\nIt is currently 2026-11-23 04:35:00\\nWorking directory: " + root + "\\n"
			for i, want := range map[int][]string{
				0: {"make a plan", head + "\\nCurrent tasks and notes:\\nOnce given a task, immediately update your todo", "\\nTOP OF MIND\\n</info-msg>"},
				1: {"make a plan", head + "Context: ~51k/128k tokens used (40%)\\n\\nCurrent tasks and notes:\\n" + todoText + "\\n", "TOP OF MIND"},
				3: {"SUMMARY: tests are planned.", "Current tasks and notes:\\n" + todoText + "\\n"},
			} {
				info := infoMessages(reqs[i])
				if len(info) != 1 {
					t.Fatalf("request %d: %d messages with an <info-msg>", i, len(info))
				}
				if !strings.Contains(info[0], `"role":"user"`) {
					t.Errorf("request %d: the <info-msg> is not a user message: %s", i, info[0])
				}
				for _, w := range want {
					if !strings.Contains(info[0], w) {
						t.Errorf("request %d: the <info-msg> message lacks %q:\n%s", i, w, info[0])
					}
				}
			}
			// the summary request and the history never hold it
			if strings.Contains(toolResultsText(reqs[2]), "info-msg") {
				t.Errorf("the compaction request carries the per-turn context")
			}
			for _, m := range out.Messages {
				if strings.Contains(m.Text, "info-msg") {
					t.Errorf("stored in the history: %+v", m)
				}
			}
			if !strings.Contains(toolResultsText(reqs[1]), "Updated (42 chars)") {
				t.Errorf("todo result: %s", toolResultsText(reqs[1]))
			}
		})
	}
}

func TestTurnContextNeedsA32kContext(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "hi"}))
	defer srv.Close()
	for _, c := range []struct {
		limit int
		want  bool
	}{{31999, false}, {32000, true}, {0, true}} {
		cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL), Mount{Ext: &platform.Todo{}})
		cfg.ContextLimit = c.limit
		Run(context.Background(), cfg, nil, "hello")
		reqs := srv.Requests()
		if got := len(infoMessages(reqs[len(reqs)-1])) == 1; got != c.want {
			t.Errorf("context limit %d: per-turn context sent %v", c.limit, got)
		}
	}
}

func TestTurnContextPlacement(t *testing.T) {
	user := func(s string) provider.Message { return provider.Message{Role: provider.User, Text: s} }
	asst := func(s string) provider.Message {
		return provider.Message{Role: provider.Assistant, Text: s, ToolCalls: []provider.ToolCall{{ID: s, Name: "t"}}}
	}
	results := func(id string) provider.Message {
		return provider.Message{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: id, Text: "r"}}}
	}
	show := func(ms []provider.Message) string {
		var parts []string
		for _, m := range ms {
			switch {
			case len(m.ToolResults) > 0:
				parts = append(parts, "results")
			case m.Role == provider.Assistant:
				parts = append(parts, "assistant:"+m.Text)
			default:
				parts = append(parts, fmt.Sprintf("user:%q", m.Text))
			}
		}
		return strings.Join(parts, " ")
	}
	cases := []struct {
		name string
		msgs []provider.Message
		want string
	}{
		{"first request", []provider.Message{user("Hello")}, `user:"INFO\n\nHello"`},
		{"before the last assistant, merged with the user text", []provider.Message{user("Hello"), asst("a1"), results("a1")},
			`user:"Hello\n\nINFO" assistant:a1 results`},
		{"after tool results it stays apart", []provider.Message{user("Hello"), asst("a1"), results("a1"), asst("a2"), results("a2")},
			`user:"Hello" assistant:a1 results user:"INFO" assistant:a2 results`},
		{"a later user turn", []provider.Message{user("Hello"), asst("a1"), results("a1"), {Role: provider.Assistant, Text: "ok"}, user("Bye")},
			`user:"Hello" assistant:a1 results user:"INFO" assistant:ok user:"Bye"`},
	}
	for _, c := range cases {
		before := show(c.msgs)
		if got := show(withTurnContext(c.msgs, "INFO")); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		if show(c.msgs) != before {
			t.Errorf("%s: the history was modified", c.name)
		}
	}
}
