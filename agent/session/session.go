// Package session keeps conversations in an embedded SQLite database (pure Go, modernc.org/sqlite) in
// goose's layout: <data_dir>/sessions/sessions.db, ids YYYYMMDD_N, messages as JSON; secrets redacted.
package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// Session is one stored conversation.
type Session struct {
	ID           string
	Name         string
	WorkingDir   string
	RecipePath   string
	RecipeValues map[string]string
	Provider     string
	Model        string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	InputTokens  int
	OutputTokens int
	Messages     int
}

// Store is an open sessions database.
type Store struct {
	db     *sql.DB
	redact func(string) string
}

const schema = `
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL DEFAULT '',
	working_dir TEXT NOT NULL DEFAULT '',
	recipe_path TEXT NOT NULL DEFAULT '',
	user_recipe_values_json TEXT NOT NULL DEFAULT '{}',
	provider_name TEXT NOT NULL DEFAULT '',
	model TEXT NOT NULL DEFAULT '',
	input_tokens INTEGER NOT NULL DEFAULT 0,
	output_tokens INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	session_id TEXT NOT NULL REFERENCES sessions(id),
	role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
	content_json TEXT NOT NULL,
	created_timestamp INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, id);
CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC);
INSERT OR IGNORE INTO schema_version(version, applied_at) VALUES (1, datetime('now'));
`

// DefaultPath is <dataDir>/sessions/sessions.db.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, "sessions", "sessions.db") }

// Open opens (creating) the database; redact is applied to everything stored.
func Open(path string, redact func(string) string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sessions: %s: %w", path, err)
	}
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &Store{db: db, redact: redact}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

const stamp = time.RFC3339Nano

// Create stores a new session and returns its id (UTC date + per-day counter).
func (s *Store) Create(ctx context.Context, sess Session) (string, error) {
	now := time.Now().UTC()
	values, _ := json.Marshal(sess.RecipeValues)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	day := now.Format("20060102")
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions WHERE id LIKE ?`, day+"_%").Scan(&n); err != nil {
		return "", err
	}
	id := fmt.Sprintf("%s_%d", day, n+1)
	_, err = tx.ExecContext(ctx, `INSERT INTO sessions(id, name, working_dir, recipe_path, user_recipe_values_json, provider_name, model, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, s.redact(sess.Name), sess.WorkingDir, sess.RecipePath, s.redact(string(values)), sess.Provider, sess.Model, now.Format(stamp), now.Format(stamp))
	if err != nil {
		return "", err
	}
	return id, tx.Commit()
}

// Append stores one message.
func (s *Store) Append(ctx context.Context, id string, m provider.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	if _, err := s.db.ExecContext(ctx, `INSERT INTO messages(session_id, role, content_json, created_timestamp) VALUES (?, ?, ?, ?)`,
		id, string(m.Role), s.redact(string(b)), now.Unix()); err != nil {
		return fmt.Errorf("sessions: append to %s: %w", id, err)
	}
	_, err = s.db.ExecContext(ctx, `UPDATE sessions SET updated_at = ? WHERE id = ?`, now.Format(stamp), id)
	return err
}

// AddUsage adds token counts to the session.
func (s *Store) AddUsage(ctx context.Context, id string, u provider.Usage) error {
	_, err := s.db.ExecContext(ctx, `UPDATE sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ? WHERE id = ?`, u.InputTokens, u.OutputTokens, id)
	return err
}

// ErrNotFound is returned for an unknown id.
var ErrNotFound = errors.New("no such session")

// List returns the sessions, most recently updated first.
func (s *Store) List(ctx context.Context) ([]Session, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.name, s.working_dir, s.recipe_path, s.user_recipe_values_json, s.provider_name, s.model,
		s.input_tokens, s.output_tokens, s.created_at, s.updated_at, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)
		FROM sessions s ORDER BY s.updated_at DESC, s.id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		sess, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sess)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(...any) error }

func scan(r scanner) (Session, error) {
	var sess Session
	var values, created, updated string
	err := r.Scan(&sess.ID, &sess.Name, &sess.WorkingDir, &sess.RecipePath, &values, &sess.Provider, &sess.Model,
		&sess.InputTokens, &sess.OutputTokens, &created, &updated, &sess.Messages)
	if err != nil {
		return sess, err
	}
	_ = json.Unmarshal([]byte(values), &sess.RecipeValues)
	sess.CreatedAt, _ = time.Parse(stamp, created)
	sess.UpdatedAt, _ = time.Parse(stamp, updated)
	return sess, nil
}

// Get returns a session and its messages.
func (s *Store) Get(ctx context.Context, id string) (Session, []provider.Message, error) {
	row := s.db.QueryRowContext(ctx, `SELECT s.id, s.name, s.working_dir, s.recipe_path, s.user_recipe_values_json, s.provider_name, s.model,
		s.input_tokens, s.output_tokens, s.created_at, s.updated_at, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)
		FROM sessions s WHERE s.id = ?`, id)
	sess, err := scan(row)
	if errors.Is(err, sql.ErrNoRows) {
		return sess, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return sess, nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT content_json FROM messages WHERE session_id = ? ORDER BY id`, id)
	if err != nil {
		return sess, nil, err
	}
	defer rows.Close()
	var msgs []provider.Message
	for rows.Next() {
		var content string
		if err := rows.Scan(&content); err != nil {
			return sess, nil, err
		}
		var m provider.Message
		if err := json.Unmarshal([]byte(content), &m); err != nil {
			return sess, nil, fmt.Errorf("session %s: a stored message is not valid JSON: %w", id, err)
		}
		msgs = append(msgs, m)
	}
	return sess, msgs, rows.Err()
}
