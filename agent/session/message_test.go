// goose's content items of every type read into the history goose-ls resumes; what goose-ls writes
// passes the strict decoder; orphaned tool calls and results are dropped.
package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestDecodeEveryGooseItemType(t *testing.T) {
	visible := sql.NullString{String: `{"userVisible":true,"agentVisible":true}`, Valid: true}
	for _, tc := range []struct {
		name, role, content string
		md                  sql.NullString
		want                *provider.Message // nil: nothing for the model
		wantErr             bool
	}{
		{name: "text for the user only is not sent", role: "assistant", md: visible,
			content: `[{"type":"text","text":"shown","annotations":{"audience":["user"]}},{"type":"text","text":"sent","annotations":{"audience":["assistant"],"priority":0.5},"_meta":{"k":1}}]`,
			want:    &provider.Message{Role: provider.Assistant, Text: "sent"}},
		{name: "thinking is kept; redacted thinking and notifications are dropped", role: "assistant",
			content: `[{"type":"thinking","thinking":"hmm","signature":""},{"type":"redactedThinking","data":"xx"},{"type":"systemNotification","notificationType":"inlineMessage","msg":"m"},{"type":"text","text":"answer"}]`,
			want:    &provider.Message{Role: provider.Assistant, Text: "answer", Thinking: "hmm"}},
		{name: "an assistant message of reasoning alone is kept", role: "assistant",
			content: `[{"type":"thinking","thinking":"first ","signature":""},{"type":"thinking","thinking":"then","signature":""}]`,
			want:    &provider.Message{Role: provider.Assistant, Thinking: "first then"}},
		{name: "an image becomes a note", role: "user",
			content: `[{"type":"text","text":"look"},{"type":"image","data":"aGk=","mimeType":"image/png"}]`,
			want:    &provider.Message{Role: provider.User, Text: "look\n[image (image/png) omitted: goose-ls does not send images]"}},
		{name: "confirmations and elicitations are UI only", role: "assistant",
			content: `[{"type":"toolConfirmationRequest","id":"c","toolName":"shell","arguments":{}},{"type":"actionRequired","data":{"actionType":"elicitation","id":"e","message":"?","requested_schema":{}}}]`},
		{name: "a frontend tool request and a call goose could not parse", role: "assistant",
			content: `[{"type":"frontendToolRequest","id":"f1","toolCall":{"status":"success","value":{"name":"ui__pick"}}},{"type":"toolRequest","id":"bad","toolCall":{"status":"error","error":"-32602: nope"}},{"type":"toolRequest","id":"w","toolCall":{"status":"success","value":{"name":"x","arguments":{"a":[1,2]}}},"_meta":{"goose":{"toolSummary":{"title":"t"}}}}]`,
			want: &provider.Message{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "f1", Name: "ui__pick", Arguments: json.RawMessage(`{}`)},
				{ID: "w", Name: "x", Arguments: json.RawMessage(`{"a":[1,2]}`)}}}},
		{name: "tool results of every shape", role: "user",
			content: `[{"type":"toolResponse","id":"a","toolResult":{"status":"error","error":"-32603: boom"}},` +
				`{"type":"toolResponse","id":"b","toolResult":{"status":"success","value":[{"type":"text","text":"old form"}]}},` +
				`{"type":"toolResponse","id":"c","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"for you","annotations":{"audience":["user"]}},{"type":"text","text":"for me"},{"type":"resource","resource":{"uri":"file:///a","text":"A"}},{"type":"resource","resource":{"uri":"file:///b","blob":"Qg=="}},{"type":"resource_link","uri":"file:///c","name":"c"},{"type":"audio","data":"x","mimeType":"audio/wav"}],"isError":true}}},` +
				`{"type":"toolResponse","id":"d","toolResult":{"status":"success","value":{"structuredContent":{"n":1}}}}]`,
			want: &provider.Message{Role: provider.User, ToolResults: []provider.ToolResult{
				{CallID: "a", Text: "-32603: boom", IsError: true},
				{CallID: "b", Text: "old form"},
				{CallID: "c", Text: "for me\nA\n[binary resource file:///b omitted]\n[resource file:///c]\n[audio (audio/wav) omitted: goose-ls does not send audios]", IsError: true},
				{CallID: "d", Text: `{"n":1}`}}}},
		{name: "compacted away", role: "user", content: `[{"type":"text","text":"old"}]`,
			md: sql.NullString{String: `{"userVisible":true,"agentVisible":false}`, Valid: true}},
		{name: "broken metadata is the default", role: "user", content: `[{"type":"text","text":"x"}]`,
			md: sql.NullString{String: `{not json`, Valid: true}, want: &provider.Message{Role: provider.User, Text: "x"}},
		{name: "another role is skipped", role: "system", content: `[{"type":"text","text":"x"}]`},
		{name: "not an array", role: "user", content: `{"role":"user","text":"hi"}`, wantErr: true},
		{name: "a text item without text", role: "user", content: `[{"type":"text"}]`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, ok, err := decodeRow(tc.role, tc.content, tc.md)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v", err)
			}
			if tc.wantErr {
				return
			}
			if !tc.wantErr && tc.role != "system" {
				if err := strictContent([]byte(tc.content)); err != nil {
					t.Fatalf("the case itself is not valid goose content: %v", err)
				}
			}
			if tc.want == nil {
				if ok {
					t.Errorf("kept %+v", m)
				}
				return
			}
			if d := cmp.Diff(*tc.want, m); !ok || d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestEncodedContentPassesGooseDecoder(t *testing.T) {
	for _, m := range []provider.Message{
		{Role: provider.User, Text: "plain"},
		{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "1", Name: "a", Arguments: json.RawMessage(` `)}, {ID: "2", Name: "b", Arguments: json.RawMessage(`[1]`)},
			{ID: "3", Name: "c", Arguments: json.RawMessage(`{"broken`)}}},
		{Role: provider.User, Text: "and text", ToolResults: []provider.ToolResult{{CallID: "1", Text: "", IsError: true}}},
		{Role: provider.Assistant},
		{Role: provider.Assistant, Thinking: "reasoning", Text: "answer", ToolCalls: []provider.ToolCall{{ID: "4", Name: "d", Arguments: json.RawMessage(`{}`)}}},
	} {
		content, err := encodeContent(m, func(s string) string { return s })
		if err != nil {
			t.Fatal(err)
		}
		if err := strictContent([]byte(content)); err != nil {
			t.Errorf("%s: %v", content, err)
		}
	}
	got, _ := encodeContent(provider.Message{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "2", Name: "b", Arguments: json.RawMessage(`[1]`)}}}, func(s string) string { return s })
	if want := `[{"type":"toolRequest","id":"2","toolCall":{"status":"success","value":{"name":"b","arguments":{"value":[1]}}}}]`; got != want {
		t.Errorf("non-object arguments: %s", got)
	}
	got, _ = encodeContent(provider.Message{Role: provider.Assistant, Thinking: "key sk-1 seen", Text: "done"}, func(s string) string { return strings.ReplaceAll(s, "sk-1", "[REDACTED]") })
	if want := `[{"type":"thinking","thinking":"key [REDACTED] seen","signature":""},{"type":"text","text":"done"}]`; got != want {
		t.Errorf("thinking: %s", got)
	}
}

func TestOrphanedToolCallsDropped(t *testing.T) {
	in := []provider.Message{
		{Role: provider.User, Text: "go"},
		{Role: provider.Assistant, Text: "calling", ToolCalls: []provider.ToolCall{{ID: "a", Name: "x"}, {ID: "lost", Name: "y"}}},
		{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: "a", Text: "ok"}, {CallID: "stray", Text: "?"}}},
		{Role: provider.User, Text: "also"},
		{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "interrupted", Name: "z"}}},
		{Role: provider.User, Text: "continue"},
	}
	want := []provider.Message{
		{Role: provider.User, Text: "go"},
		{Role: provider.Assistant, Text: "calling", ToolCalls: []provider.ToolCall{{ID: "a", Name: "x"}}},
		// the interrupted call's message is empty without it: the user messages around it merge
		{Role: provider.User, Text: "also\n\ncontinue", ToolResults: []provider.ToolResult{{CallID: "a", Text: "ok"}}},
	}
	if d := cmp.Diff(want, pairToolCalls(in)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestSearchOverEveryRow(t *testing.T) {
	ctx := context.Background()
	s, err := Open(DefaultPath(t.TempDir()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id := record(t, s, Session{WorkingDir: "/w"}, aRun)
	if err := s.Append(ctx, id, provider.Message{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "q", Name: "n", Arguments: json.RawMessage(`"just a string"`)}}}); err != nil {
		t.Fatal(err)
	}
	var elements int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM messages m, json_each(m.content_json) WHERE json_extract(value, '$.type') IS NOT NULL`).Scan(&elements); err != nil {
		t.Fatalf("json_each over every row: %v", err)
	}
	if elements != 6 {
		t.Errorf("%d content elements", elements)
	}
	if n := gooseSearch(t, s.db, "Writing"); n != 1 {
		t.Errorf("search found %d", n)
	}
}

// The strict decoder the tests rely on rejects what goose cannot load.
func TestStrictDecoderRejects(t *testing.T) {
	for _, bad := range []string{
		`{"role":"user","text":"hi","tool_calls":[]}`, // goose-ls's old whole-message JSON
		`"hi"`,
		`[{"type":"reasoning","text":"x"}]`,
		`[{"type":"conversationCompacted","msg":"x"}]`,
		`[{"type":"text"}]`,
		`[{"type":"toolRequest","id":"1","toolCall":{"status":"success","value":{}}}]`,
		`[{"type":"toolRequest","id":"1","toolCall":{"status":"success","error":"x"}}]`,
		`[{"type":"toolResponse","id":"1","toolResult":{"status":"success","value":{}}}]`,
		`[{"type":"toolResponse","id":"1","toolResult":{"status":"success","value":{"content":[{"type":"Text","text":"x"}]}}}]`,
		`[{"type":"text","text":"x","annotations":{"audience":["model"]}}]`,
		`[{"type":"thinking","thinking":"x"}]`,
		`[{"type":"tool_use","id":"1"}]`,
	} {
		if strictContent([]byte(bad)) == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	for _, bad := range []string{`{}`, `{"userVisible":true}`, `{"userVisible":true,"agentVisible":"yes"}`,
		`{"userVisible":true,"agentVisible":true,"inference":{"provider":"x"}}`} {
		if strictMetadata([]byte(bad)) == nil {
			t.Errorf("accepted metadata %s", bad)
		}
	}
}

// FuzzDecodeRow: whatever goose can load (the strict decoder accepts), goose-ls can resume from, and what
// goose-ls writes from it, goose can load.
func FuzzDecodeRow(f *testing.F) {
	for _, r := range gooseExampleRows {
		f.Add(r.role, r.content)
	}
	f.Add("assistant", `[{"type":"thinking","thinking":"a","signature":""},{"type":"toolRequest","id":"x","toolCall":{"status":"success","value":{"name":"n","arguments":7}}}]`)
	f.Add("user", `[{"type":"toolResponse","id":"x","toolResult":{"status":"success","value":[{"type":"image","data":"","mimeType":"a"}]}}]`)
	f.Fuzz(func(t *testing.T, role, content string) {
		m, ok, err := decodeRow(role, content, sql.NullString{})
		if strictContent([]byte(content)) == nil && err != nil {
			t.Fatalf("goose loads %s but goose-ls fails: %v", content, err)
		}
		if !ok {
			return
		}
		again, err := encodeContent(m, func(s string) string { return s })
		if err != nil {
			t.Fatal(err)
		}
		if err := strictContent([]byte(again)); err != nil {
			t.Fatalf("goose-ls wrote %s from %s: %v", again, content, err)
		}
	})
}
