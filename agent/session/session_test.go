// The session store on a real SQLite file: ids, messages round-trip, listing, redaction, reopening.
package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestStore(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	redact := func(s string) string { return strings.ReplaceAll(s, "sk-secret-123", "[REDACTED]") }
	s, err := Open(path, redact)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Create(ctx, Session{Name: "first", WorkingDir: "/w", RecipePath: "r.yaml", RecipeValues: map[string]string{"token": "sk-secret-123"}, Provider: "openai", Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	day := time.Now().UTC().Format("20060102")
	if id != day+"_1" {
		t.Errorf("id %s", id)
	}
	msgs := []provider.Message{
		{Role: provider.User, Text: "hi"},
		{Role: provider.Assistant, Text: "calling", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "shell", Arguments: json.RawMessage(`{"command":"echo sk-secret-123"}`)}}},
		{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: "c1", Text: "sk-secret-123", IsError: false}}},
	}
	for _, m := range msgs {
		if err := s.Append(ctx, id, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddUsage(ctx, id, provider.Usage{InputTokens: 100, OutputTokens: 20}); err != nil {
		t.Fatal(err)
	}
	id2, _ := s.Create(ctx, Session{Name: "second"})
	if id2 != day+"_2" {
		t.Errorf("id2 %s", id2)
	}
	s.Close()

	// reopen: everything is there, secrets are not
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, got, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1].ToolCalls[0].Name != "shell" || got[2].ToolResults[0].CallID != "c1" {
		t.Errorf("messages %+v", got)
	}
	if sess.InputTokens != 100 || sess.OutputTokens != 20 || sess.Messages != 3 || sess.WorkingDir != "/w" {
		t.Errorf("session %+v", sess)
	}
	list, _ := s.List(ctx)
	if len(list) != 2 {
		t.Errorf("list %+v", list)
	}
	if _, _, err := s.Get(ctx, "nope"); err == nil {
		t.Error("unknown id found")
	}
	s.Close()
	for _, f := range []string{path, path + "-wal"} {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), "sk-secret-123") {
			t.Errorf("%s holds the secret", filepath.Base(f))
		}
	}
}

func TestRecorderCreatesOnFirstMessageAndResumes(t *testing.T) {
	ctx := context.Background()
	s, err := Open(DefaultPath(t.TempDir()), func(s string) string { return s })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var created []string
	rec := &Recorder{Store: s, Meta: Session{Name: NameFor("/x/hello.yaml", "")}, OnCreate: func(id string) { created = append(created, id) }}
	rec.Usage(provider.Usage{InputTokens: 99}) // before the session exists: nothing to add to
	if rec.SessionID() != "" {
		t.Fatal("session created before any message")
	}
	rec.SetProvider("openai", "gpt-4o")
	rec.Record(provider.Message{Role: provider.User, Text: "hi"})
	rec.SetProvider("anthropic", "claude") // too late: the session exists
	rec.Record(provider.Message{Role: provider.Assistant, Text: "hello"})
	rec.Usage(provider.Usage{InputTokens: 10, OutputTokens: 3})
	if rec.Err() != nil || len(created) != 1 || created[0] != rec.SessionID() {
		t.Fatalf("err %v created %v id %q", rec.Err(), created, rec.SessionID())
	}
	again := &Recorder{Store: s, ID: rec.SessionID()}
	again.Record(provider.Message{Role: provider.User, Text: "more"})
	sess, msgs, err := s.Get(ctx, rec.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	if sess.Name != "Recipe hello.yaml" || sess.Provider != "openai" || sess.Model != "gpt-4o" || sess.InputTokens != 10 || sess.OutputTokens != 3 || len(msgs) != 3 || msgs[2].Text != "more" {
		t.Fatalf("session %+v messages %+v", sess, msgs)
	}
	if got := NameFor("", strings.Repeat("é", 70)); got != strings.Repeat("é", 60)+"…" {
		t.Errorf("long prompt name %q", got)
	}
}
