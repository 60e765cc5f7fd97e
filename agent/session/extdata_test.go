// extension_data entries: the todo state set before and after the session exists, other keys kept,
// redaction, and reading it back for a resume.

package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestExtensionDataKeepsOtherKeysAndIsRedacted(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	s, err := Open(path, func(s string) string { return strings.ReplaceAll(s, "sk-secret-1", "[REDACTED]") })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := &Recorder{Store: s, Meta: Session{Name: "n", RecipePath: "/w/r.yaml"}}
	// set before the first message: kept until the session is created
	if err := rec.SetExtensionData("todo.v0", map[string]string{"content": "- [ ] first"}); err != nil {
		t.Fatal(err)
	}
	if rec.SessionID() != "" {
		t.Fatal("a session was created by extension data alone")
	}
	rec.Record(provider.Message{Role: provider.User, Text: "hi"})
	if err := rec.SetExtensionData("todo.v0", map[string]string{"content": "- [x] first sk-secret-1"}); err != nil {
		t.Fatal(err)
	}
	if rec.Err() != nil {
		t.Fatal(rec.Err())
	}
	db, err := sql.Open("sqlite", fileDSN(path, "mode=ro"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ext string
	if err := db.QueryRow(`SELECT extension_data FROM sessions WHERE id = ?`, rec.SessionID()).Scan(&ext); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]string
	if err := json.Unmarshal([]byte(ext), &got); err != nil {
		t.Fatalf("extension_data %q: %v", ext, err)
	}
	if got["todo.v0"]["content"] != "- [x] first [REDACTED]" || got["goose_ls.v0"]["recipe_path"] != "/w/r.yaml" {
		t.Errorf("extension_data %s", ext)
	}
	// a resumed session reads it back
	again := &Recorder{Store: s, ID: rec.SessionID()}
	raw, ok := again.ExtensionData("todo.v0")
	if !ok || string(raw) != `{"content":"- [x] first [REDACTED]"}` {
		t.Errorf("read back %s %v", raw, ok)
	}
	if _, ok := again.ExtensionData("other.v0"); ok {
		t.Error("a key that was never set was found")
	}
	if err := s.SetExtensionData(ctx, "20990101_1", "todo.v0", map[string]string{}); err == nil {
		t.Error("an unknown session was written")
	}
}
