// Stores goose-ls must not modify (a newer goose's than it knows, an older goose's, a foreign layout), a
// newer goose's sessions listed and copied on resume, and goose-ls's old layout migrated.
package session

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func dirListing(t *testing.T, dir string) []string {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// buildV18 is a store of a goose newer than goose-ls knows: version 17 with a column and a version more,
// holding the facts sheet's session, whose id it returns.
func buildV18(t *testing.T, db *sql.DB) string {
	t.Helper()
	gooseCreateFresh(t, db, 17)
	id := gooseCreateSession(t, db, "/home/me", gooseExampleRows)
	gooseExec(t, db, `ALTER TABLE sessions ADD COLUMN workspace_id TEXT`)
	gooseExec(t, db, `INSERT INTO schema_version (version) VALUES (18)`)
	return id
}

func TestNewerStoreLeftUntouched(t *testing.T) {
	for _, tc := range []struct {
		name   string
		build  func(t *testing.T, db *sql.DB)
		says   string
		listed int // sessions of the untouched store listed beside goose-ls's own
	}{
		{"version 18", func(t *testing.T, db *sql.DB) { buildV18(t, db) }, "is at schema version 18, newer than the versions goose-ls writes (13 to 17)", 1},
		{"version 12 (an older goose's, which goose migrates itself)", func(t *testing.T, db *sql.DB) {
			gooseCreateSchema(t, db)
			gooseExec(t, db, `DELETE FROM schema_version`)
			gooseExec(t, db, `INSERT INTO schema_version (version) VALUES (12)`)
		}, "schema version is 12", 0},
		{"a foreign sessions table", func(t *testing.T, db *sql.DB) {
			gooseExec(t, db, `CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT)`)
			gooseExec(t, db, `INSERT INTO sessions VALUES ('x', 'y')`)
		}, "no schema_version table", 0},
		{"version 13 without goose's columns", func(t *testing.T, db *sql.DB) {
			gooseExec(t, db, `CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`)
			gooseExec(t, db, `INSERT INTO schema_version (version) VALUES (13)`)
			gooseExec(t, db, `CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT)`)
			gooseExec(t, db, `CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT)`)
		}, "lacks goose's columns sessions.name", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sessions")
			os.MkdirAll(dir, 0o700)
			path := filepath.Join(dir, "sessions.db")
			db, err := sql.Open("sqlite", gooseDSN(path))
			if err != nil {
				t.Fatal(err)
			}
			tc.build(t, db)
			db.Close()
			before, files := fileSum(t, path), dirListing(t, dir)

			for i := 0; i < 2; i++ {
				s, err := Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				if s.Notice() == nil || !strings.Contains(s.Notice().Error(), tc.says) || !strings.Contains(s.Notice().Error(), OwnStoreName) {
					t.Errorf("notice %v", s.Notice())
				}
				own := filepath.Join(dir, OwnStoreName)
				if s.Path() != own {
					t.Errorf("writes to %s", s.Path())
				}
				id := record(t, s, Session{Name: "run", WorkingDir: "/w"}, aRun)
				if list, _ := s.List(context.Background()); len(list) != i+1+tc.listed {
					t.Errorf("%d sessions listed", len(list))
				}
				s.Close()
				goose := openAsGoose(t, own)
				if created, pending := gooseFirstRun(t, goose); created || len(pending) > 0 {
					t.Errorf("own store is not goose's v13 layout: %v %v", created, pending)
				}
				gooseConversation(t, goose, id)
				goose.Close()
			}
			if fileSum(t, path) != before {
				t.Error("the store goose-ls may not modify was modified")
			}
			if got := dirListing(t, dir); !cmp.Equal(got, append([]string{OwnStoreName}, files...)) {
				t.Errorf("files %v, before %v", got, files)
			}
		})
	}
}

func TestNewerGooseStoreListedAndCopiedOnResume(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "sessions.db")
	goose := openAsGoose(t, path)
	gooseID := buildV18(t, goose)
	goose.Close()
	before := fileSum(t, path)

	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 1 || list[0].ID != gooseID || !list[0].ReadOnly || list[0].Messages != 4 {
		t.Fatalf("list %+v %v", list, err)
	}
	if _, err := s.peer.Exec(`DELETE FROM messages`); err == nil {
		t.Error("the newer store's connection can write")
	}
	sess, history, err := s.Get(ctx, gooseID)
	if err != nil || !sess.ReadOnly {
		t.Fatalf("get %+v %v", sess, err)
	}
	if d := cmp.Diff(compactArgs(theExampleHistory), compactArgs(history)); d != "" {
		t.Errorf("history (-want +got):\n%s", d)
	}
	var told []string
	rec := &Recorder{Store: s, ID: gooseID, OnCreate: func(id string) { told = append(told, id) }}
	rec.Record(provider.Message{Role: provider.User, Text: "and now?"})
	rec.Record(provider.Message{Role: provider.Assistant, Text: "Now this."})
	if rec.Err() != nil {
		t.Fatal(rec.Err())
	}
	copyID := rec.SessionID()
	if want := time.Now().UTC().Format("20060102") + "_2"; copyID != want || !cmp.Equal(told, []string{copyID}) {
		t.Errorf("copy %s (told %v), want %s after goose's %s", copyID, told, want, gooseID)
	}
	copied, history, err := s.Get(ctx, copyID)
	if err != nil || copied.ReadOnly || copied.Name != "CLI Session" || copied.Model != "gpt-4o" || len(history) != 6 || history[5].Text != "Now this." {
		t.Errorf("copy %+v %d messages %v", copied, len(history), err)
	}
	s.Close()
	if fileSum(t, path) != before {
		t.Error("goose's newer store was modified")
	}
	own := openAsGoose(t, filepath.Join(dir, OwnStoreName))
	if rows := gooseConversation(t, own, copyID); len(rows) != 6 || rows[0] != "user "+gooseExampleRows[0].content+" "+gooseExampleRows[0].metadata {
		t.Errorf("copied rows %v", rows)
	}
}

// oldSchema is goose-ls's layout before goose compatibility, as its session.go created it.
const oldSchema = `
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL DEFAULT '',
	recipe_path TEXT NOT NULL DEFAULT '', user_recipe_values_json TEXT NOT NULL DEFAULT '{}', provider_name TEXT NOT NULL DEFAULT '',
	model TEXT NOT NULL DEFAULT '', input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
	role TEXT NOT NULL CHECK (role IN ('user', 'assistant')), content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, id);
CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC);
INSERT OR IGNORE INTO schema_version(version, applied_at) VALUES (1, datetime('now'));
`

func TestOldGooseLSStoreMigrated(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	os.MkdirAll(filepath.Dir(path), 0o700)
	old, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	gooseExec(t, old, oldSchema)
	gooseExec(t, old, `INSERT INTO sessions VALUES ('20251001_3', 'Recipe hello.yaml', '/w', '/w/hello.yaml', '{"who":"world"}', 'openai', 'gpt-4o', 120, 30,
		'2025-10-01T09:30:00.123456789Z', '2025-10-01T09:31:00.5Z')`)
	gooseExec(t, old, `INSERT INTO sessions VALUES ('20251002_1', 'hi', '/x', '', '{}', '', '', 0, 0, '2025-10-02T10:00:00Z', '2025-10-02T10:00:00Z')`)
	for _, m := range aRun {
		b, _ := json.Marshal(m)
		gooseExec(t, old, `INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20251001_3', ?, ?, 1759311000)`, string(m.Role), string(b))
	}
	old.Close()

	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Notice() == nil || !strings.Contains(s.Notice().Error(), path+OldStoreSuffix) || s.Path() != path {
		t.Fatalf("notice %v path %s", s.Notice(), s.Path())
	}
	if _, err := os.Stat(path + OldStoreSuffix); err != nil {
		t.Errorf("the old store was not moved aside: %v", err)
	}
	list, err := s.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != "20251002_1" {
		t.Fatalf("list %+v %v", list, err)
	}
	sess, msgs, err := s.Get(ctx, "20251001_3")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(compactArgs(aRun), compactArgs(msgs)); d != "" {
		t.Errorf("migrated messages (-want +got):\n%s", d)
	}
	if sess.RecipePath != "/w/hello.yaml" || sess.RecipeValues["who"] != "world" || sess.Provider != "openai" || sess.Model != "gpt-4o" ||
		sess.InputTokens != 120 || sess.OutputTokens != 30 || !sess.CreatedAt.Equal(time.Date(2025, 10, 1, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("migrated session %+v", sess)
	}
	s.Close()

	goose := openAsGoose(t, path)
	if created, pending := gooseFirstRun(t, goose); created || len(pending) != 0 {
		t.Fatalf("goose's first run on the migrated store: %v %v", created, pending)
	}
	if got := gooseListing(t, goose); !cmp.Equal(got, []string{"20251002_1", "20251001_3"}) {
		t.Errorf("goose lists %v", got)
	}
	if rows := gooseConversation(t, goose, "20251001_3"); len(rows) != 4 || !strings.Contains(rows[1], `"requestedModel":"gpt-4o"`) {
		t.Errorf("migrated rows %v", rows)
	}
	// reopening uses the migrated store as goose's, with nothing more to say
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Notice() != nil {
		t.Errorf("notice on reopening: %v", s.Notice())
	}
	if _, _, err := s.Get(ctx, "20251002_1"); err != nil {
		t.Error(err)
	}
}

func TestNotADatabaseLeftUntouched(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "sessions.db")
	garbage := []byte("this is not SQLite, but it is the user's file\n")
	os.WriteFile(path, garbage, 0o600)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Notice() == nil || s.Path() != filepath.Join(dir, OwnStoreName) {
		t.Errorf("notice %v, path %s", s.Notice(), s.Path())
	}
	if got, _ := os.ReadFile(path); string(got) != string(garbage) {
		t.Error("the file was modified")
	}
}
