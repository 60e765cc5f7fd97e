// What goose 1.38 does with sessions.db, written from the facts sheet (shared/docs/goose-sessions.md) and
// kept apart from the package's code: create_schema statement by statement, the first-run path
// (create or migrate), the listing and conversation queries, and a strict decoder of stored rows.
package session

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// gooseDSN is how goose connects (create if missing, foreign keys, 30 s busy timeout, WAL).
func gooseDSN(path string) string {
	return "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_txlock=immediate"
}

func openAsGoose(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", gooseDSN(path))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// gooseCreateSchema is goose's create_schema: one BEGIN IMMEDIATE transaction, then the provider
// inventory tables outside it.
func gooseCreateSchema(t *testing.T, db *sql.DB) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`INSERT OR IGNORE INTO schema_version (version) VALUES (13)`,
		`CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
			user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}',
			total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER,
			accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER, accumulated_cost REAL, schedule_id TEXT,
			recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
			goose_mode TEXT NOT NULL DEFAULT 'auto', archived_at TIMESTAMP, project_id TEXT)`,
		`CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,
			session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL,
			created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id)`,
		`CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC)`,
		`CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type)`,
	} {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatalf("goose's create_schema: %v\n%s", err, stmt)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS provider_inventory_entries (inventory_key TEXT PRIMARY KEY, provider_id TEXT NOT NULL,
			provider_family TEXT NOT NULL, last_updated_at TEXT, last_refresh_attempt_at TEXT, last_refresh_error TEXT,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE IF NOT EXISTS provider_inventory_models (inventory_key TEXT NOT NULL REFERENCES provider_inventory_entries(inventory_key) ON DELETE CASCADE,
			ordinal INTEGER NOT NULL, model_id TEXT NOT NULL, name TEXT NOT NULL, family TEXT, context_limit INTEGER,
			reasoning BOOLEAN, recommended BOOLEAN, PRIMARY KEY (inventory_key, ordinal))`,
		`CREATE INDEX IF NOT EXISTS idx_provider_inventory_provider_id ON provider_inventory_entries(provider_id)`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("goose's inventory tables: %v", err)
		}
	}
}

// gooseFirstRun is goose's SessionStorage::pool(): no schema_version → create_schema; else
// run_migrations. It returns the migrations goose would apply (none for a v13 store); applying one is
// out of this test's scope, so any pending migration is reported, not run.
func gooseFirstRun(t *testing.T, db *sql.DB) (created bool, pending []int) {
	t.Helper()
	var exists bool
	if err := db.QueryRow(`SELECT EXISTS (SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version')`).Scan(&exists); err != nil {
		exists = false
	}
	if !exists {
		gooseCreateSchema(t, db)
		return true, nil
	}
	var current sql.NullInt64
	if err := db.QueryRow(`SELECT MAX(version) FROM schema_version`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	for v := int(current.Int64) + 1; v <= 13; v++ {
		pending = append(pending, v)
	}
	return false, pending
}

// gooseListing is goose's list_sessions_matching for `goose session list` (types user and scheduled):
// it names every column goose reads and fails as goose's does when one is missing.
func gooseListing(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT s.id, s.working_dir, s.name, s.description, s.user_set_name, s.session_type, s.created_at, s.updated_at, s.extension_data,
		s.total_tokens, s.input_tokens, s.output_tokens, s.accumulated_total_tokens, s.accumulated_input_tokens, s.accumulated_output_tokens,
		s.accumulated_cost, s.schedule_id, s.recipe_json, s.user_recipe_values_json, s.provider_name, s.model_config_json, s.goose_mode,
		s.archived_at, s.project_id, COUNT(m.id) as message_count
		FROM sessions s LEFT JOIN messages m ON s.id = m.session_id
		WHERE s.session_type IN (?, ?) GROUP BY s.id ORDER BY s.updated_at DESC`, "user", "scheduled")
	if err != nil {
		t.Fatalf("goose's listing fails: %v", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		vals := make([]any, 25)
		ptrs := make([]any, 25)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, fmt.Sprint(vals[0]))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	checkSessionRows(t, db)
	return ids
}

// sqlxDatetime matches the datetime texts sqlx-sqlite 0.8.6 decodes.
var sqlxDatetime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$`)

// checkSessionRows applies goose's Session::from_row to every session row: the storage classes it
// requires (a wrong one makes goose's whole listing fail).
func checkSessionRows(t *testing.T, db *sql.DB) {
	t.Helper()
	rows, err := db.Query(`SELECT id, typeof(id), typeof(working_dir), typeof(created_at), CAST(created_at AS TEXT), typeof(updated_at),
		CAST(updated_at AS TEXT), typeof(extension_data), typeof(schedule_id), typeof(recipe_json), typeof(user_recipe_values_json),
		typeof(total_tokens), typeof(input_tokens), typeof(output_tokens), typeof(accumulated_total_tokens),
		typeof(accumulated_input_tokens), typeof(accumulated_output_tokens), typeof(user_set_name) FROM sessions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, tid, twd, tc, c, tu, u, text, tsched, trecipe, tvalues string
		var tokens [6]string
		var tset string
		if err := rows.Scan(&id, &tid, &twd, &tc, &c, &tu, &u, &text, &tsched, &trecipe, &tvalues,
			&tokens[0], &tokens[1], &tokens[2], &tokens[3], &tokens[4], &tokens[5], &tset); err != nil {
			t.Fatal(err)
		}
		if tid != "text" || twd != "text" || text != "text" {
			t.Errorf("session %s: id/working_dir/extension_data stored as %s/%s/%s, goose needs text", id, tid, twd, text)
		}
		for _, tc := range []string{tsched, trecipe, tvalues} {
			if tc != "text" && tc != "null" {
				t.Errorf("session %s: a text-or-null column stored as %s", id, tc)
			}
		}
		for _, tc := range tokens {
			if tc != "integer" && tc != "null" {
				t.Errorf("session %s: a token column stored as %s", id, tc)
			}
		}
		if tset != "integer" {
			t.Errorf("session %s: user_set_name stored as %s", id, tset)
		}
		if tc != "text" || !sqlxDatetime.MatchString(c) || tu != "text" || !sqlxDatetime.MatchString(u) {
			t.Errorf("session %s: created_at %s %q / updated_at %s %q are not datetimes goose reads", id, tc, c, tu, u)
		}
	}
}

// gooseConversation is goose's get_conversation followed by the strict decoding of each row; it returns
// the decoded rows as compact JSON (role + content + metadata) for comparisons.
func gooseConversation(t *testing.T, db *sql.DB, sessionID string) []string {
	t.Helper()
	return gooseConversationNamed(t, db, sessionID, sessionID)
}

// gooseConversationNamed is gooseConversation for a session whose message ids name another session: a
// copy, whose messages keep their ids as goose's own copy_session keeps them.
func gooseConversationNamed(t *testing.T, db *sql.DB, sessionID, namedAfter string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT role, content_json, created_timestamp, metadata_json, message_id, typeof(created_timestamp)
		FROM messages WHERE session_id = ? ORDER BY created_timestamp, id`, sessionID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var role, content, tstamp string
		var created int64
		var md, msgID sql.NullString
		if err := rows.Scan(&role, &content, &created, &md, &msgID, &tstamp); err != nil {
			t.Fatal(err)
		}
		if tstamp != "integer" {
			t.Errorf("session %s: created_timestamp stored as %s", sessionID, tstamp)
		}
		if role != "user" && role != "assistant" {
			continue
		}
		if err := strictContent([]byte(content)); err != nil {
			t.Errorf("session %s: goose cannot load content_json %s: %v", sessionID, content, err)
		}
		if md.Valid {
			if err := strictMetadata([]byte(md.String)); err != nil {
				t.Errorf("session %s: metadata_json %s: %v", sessionID, md.String, err)
			}
		}
		if !msgID.Valid || !strings.HasPrefix(msgID.String, "msg_"+namedAfter+"_") {
			t.Errorf("session %s: message_id %v", sessionID, msgID)
		}
		out = append(out, role+" "+content+" "+md.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// gooseSearch is goose's chat-history search shape: json_each over every content_json row.
func gooseSearch(t *testing.T, db *sql.DB, word string) int {
	t.Helper()
	var n int
	err := db.QueryRow(`SELECT COUNT(*) FROM messages m, json_each(m.content_json)
		WHERE json_extract(value, '$.type') = 'text' AND json_extract(value, '$.text') LIKE ?`, "%"+word+"%").Scan(&n)
	if err != nil {
		t.Fatalf("goose's search fails: %v", err)
	}
	return n
}

// The facts sheet's example: a write-tool round trip as goose stores it.
var gooseExampleRows = []struct{ role, content, metadata string }{
	{"user", `[{"type":"text","text":"Create notes.txt with one line: hello from goose"}]`, `{"userVisible":true,"agentVisible":true}`},
	{"assistant", `[{"type":"text","text":"I'll create the file."},{"type":"toolRequest","id":"call_1","toolCall":{"status":"success","value":{"name":"developer__write","arguments":{"path":"/home/me/notes.txt","content":"hello from goose\n"}}}}]`,
		`{"userVisible":true,"agentVisible":true,"inference":{"provider":"openai","requestedModel":"gpt-4o","resolvedModel":"gpt-4o-2024-08-06"}}`},
	{"user", `[{"type":"toolResponse","id":"call_1","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"Created /home/me/notes.txt","annotations":{"audience":["assistant"]}}],"isError":false}}}]`,
		`{"userVisible":true,"agentVisible":true}`},
	{"assistant", `[{"type":"text","text":"Created notes.txt."}]`,
		`{"userVisible":true,"agentVisible":true,"inference":{"provider":"openai","requestedModel":"gpt-4o","resolvedModel":"gpt-4o-2024-08-06"}}`},
}

// gooseCreateSession is goose's create_session (CLI: name "CLI Session", type user, mode auto) followed
// by the updates a CLI session receives, and add_message for each row; it returns the new id.
func gooseCreateSession(t *testing.T, db *sql.DB, workingDir string, rows []struct{ role, content, metadata string }) string {
	t.Helper()
	today := time.Now().UTC().Format("20060102")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var id string
	err = tx.QueryRow(`INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, extension_data, goose_mode)
		VALUES (? || '_' || CAST(COALESCE((SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions WHERE id LIKE ? || '_%'), 0) + 1 AS TEXT),
		?, FALSE, ?, ?, '{}', ?) RETURNING id`, today, today, "CLI Session", "user", workingDir, "auto").Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	gooseExec(t, db, `UPDATE sessions SET provider_name = ?, model_config_json = ?, updated_at = datetime('now') WHERE id = ?`, "openai",
		`{"model_name":"gpt-4o","context_limit":128000,"temperature":null,"max_tokens":null,"toolshim":false,"toolshim_model":null}`, id)
	gooseExec(t, db, `UPDATE sessions SET total_tokens = ?, input_tokens = ?, output_tokens = ?, accumulated_total_tokens = ?,
		accumulated_input_tokens = ?, accumulated_output_tokens = ?, updated_at = datetime('now') WHERE id = ?`, 1200, 1100, 100, 2300, 2100, 200, id)
	for i, r := range rows {
		gooseAddMessage(t, db, id, r.role, r.content, r.metadata, fmt.Sprintf("msg_%s_3f6c2a9e-%04d", id, i))
	}
	return id
}

// gooseAddMessage is goose's add_message.
func gooseAddMessage(t *testing.T, db *sql.DB, id, role, content, metadata, messageID string) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)`,
		messageID, id, role, content, time.Now().Unix(), metadata); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE sessions SET updated_at = datetime('now') WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func gooseExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatal(err)
	}
}

// dump is every row of a query as text, for before/after comparisons.
func dump(t *testing.T, db *sql.DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if bs, ok := v.([]byte); ok {
				v = string(bs)
			}
			fmt.Fprintf(&b, "%s=%v|", cols[i], v)
		}
		b.WriteString("\n")
	}
	return b.String()
}
