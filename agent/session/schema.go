// goose 1.38's sessions.db layout (version 13): the statements goose's create_schema runs, and the
// inspection that decides whether a file is goose's v13 store, goose-ls's own old layout, or not ours.

package session

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// GooseSchemaVersion is the schema version goose 1.38 creates and the only one goose-ls writes.
const GooseSchemaVersion = 13

// gooseCreateStatements are goose 1.38's first-run statements (session_manager.rs create_schema, then
// providers/inventory create_tables), in goose's order. goose-ls runs them in one BEGIN IMMEDIATE
// transaction.
var gooseCreateStatements = []string{
	`CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
	)`,
	`INSERT OR IGNORE INTO schema_version (version) VALUES (13)`,
	`CREATE TABLE IF NOT EXISTS sessions (
		id TEXT PRIMARY KEY,
		name TEXT NOT NULL DEFAULT '',
		description TEXT NOT NULL DEFAULT '',
		user_set_name BOOLEAN DEFAULT FALSE,
		session_type TEXT NOT NULL DEFAULT 'user',
		working_dir TEXT NOT NULL,
		created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
		updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
		extension_data TEXT DEFAULT '{}',
		total_tokens INTEGER,
		input_tokens INTEGER,
		output_tokens INTEGER,
		accumulated_total_tokens INTEGER,
		accumulated_input_tokens INTEGER,
		accumulated_output_tokens INTEGER,
		accumulated_cost REAL,
		schedule_id TEXT,
		recipe_json TEXT,
		user_recipe_values_json TEXT,
		provider_name TEXT,
		model_config_json TEXT,
		goose_mode TEXT NOT NULL DEFAULT 'auto',
		archived_at TIMESTAMP,
		project_id TEXT
	)`,
	`CREATE TABLE IF NOT EXISTS messages (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		message_id TEXT,
		session_id TEXT NOT NULL REFERENCES sessions(id),
		role TEXT NOT NULL,
		content_json TEXT NOT NULL,
		created_timestamp INTEGER NOT NULL,
		timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
		tokens INTEGER,
		metadata_json TEXT
	)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type)`,
	`CREATE TABLE IF NOT EXISTS provider_inventory_entries (
		inventory_key TEXT PRIMARY KEY,
		provider_id TEXT NOT NULL,
		provider_family TEXT NOT NULL,
		last_updated_at TEXT,
		last_refresh_attempt_at TEXT,
		last_refresh_error TEXT,
		created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
		updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
	)`,
	`CREATE TABLE IF NOT EXISTS provider_inventory_models (
		inventory_key TEXT NOT NULL REFERENCES provider_inventory_entries(inventory_key) ON DELETE CASCADE,
		ordinal INTEGER NOT NULL,
		model_id TEXT NOT NULL,
		name TEXT NOT NULL,
		family TEXT,
		context_limit INTEGER,
		reasoning BOOLEAN,
		recommended BOOLEAN,
		PRIMARY KEY (inventory_key, ordinal)
	)`,
	`CREATE INDEX IF NOT EXISTS idx_provider_inventory_provider_id ON provider_inventory_entries(provider_id)`,
}

// GooseSessionColumns are the sessions columns goose 1.38 names in its queries; a store lacking one
// breaks goose ("no such column").
var GooseSessionColumns = []string{"id", "working_dir", "name", "description", "user_set_name", "session_type",
	"created_at", "updated_at", "extension_data", "total_tokens", "input_tokens", "output_tokens",
	"accumulated_total_tokens", "accumulated_input_tokens", "accumulated_output_tokens", "accumulated_cost",
	"schedule_id", "recipe_json", "user_recipe_values_json", "provider_name", "model_config_json", "goose_mode",
	"archived_at", "project_id"}

// GooseMessageColumns are the messages columns goose 1.38 names.
var GooseMessageColumns = []string{"id", "message_id", "session_id", "role", "content_json", "created_timestamp", "metadata_json"}

// layoutKind is what inspect found in a database file.
type layoutKind int

const (
	layoutEmpty      layoutKind = iota // no schema_version, sessions or messages table: goose would create its own
	layoutGoose13                      // schema_version at 13 with goose's columns: read and written
	layoutGooseLSOld                   // goose-ls's layout before goose compatibility: migrated
	layoutNotOurs                      // anything else (a newer or older goose, a foreign layout): never modified
)

// layout describes a database file.
type layout struct {
	kind    layoutKind
	version int    // MAX(version) of schema_version (0 when absent or empty)
	reason  string // why a layoutNotOurs file is not used
}

// querier is what inspect needs (a *sql.DB, *sql.Conn or *sql.Tx).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// inspect classifies the database without writing to it.
func inspect(ctx context.Context, q querier) (layout, error) {
	tables, err := tableNames(ctx, q)
	if err != nil {
		return layout{}, err
	}
	if !tables["schema_version"] {
		if !tables["sessions"] && !tables["messages"] {
			return layout{kind: layoutEmpty}, nil
		}
		return layout{kind: layoutNotOurs, reason: "it has sessions/messages tables but no schema_version table"}, nil
	}
	var version sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&version); err != nil {
		return layout{}, fmt.Errorf("reading schema_version: %w", err)
	}
	l := layout{version: int(version.Int64)}
	sessionCols, err := columnNames(ctx, q, "sessions")
	if err != nil {
		return layout{}, err
	}
	messageCols, err := columnNames(ctx, q, "messages")
	if err != nil {
		return layout{}, err
	}
	if l.version <= 1 && sessionCols["recipe_path"] && sessionCols["model"] && !sessionCols["goose_mode"] && !messageCols["message_id"] {
		l.kind = layoutGooseLSOld
		return l, nil
	}
	if l.version != GooseSchemaVersion {
		l.kind = layoutNotOurs
		l.reason = fmt.Sprintf("its schema version is %d; goose-ls writes only version %d", l.version, GooseSchemaVersion)
		return l, nil
	}
	if missing := missingGooseColumns(sessionCols, messageCols); len(missing) > 0 {
		l.kind = layoutNotOurs
		l.reason = "it is at version 13 but lacks goose's columns " + strings.Join(missing, ", ")
		return l, nil
	}
	l.kind = layoutGoose13
	return l, nil
}

// missingGooseColumns lists the columns goose 1.38 names that a store lacks.
func missingGooseColumns(sessionCols, messageCols map[string]bool) []string {
	var missing []string
	for _, c := range GooseSessionColumns {
		if !sessionCols[c] {
			missing = append(missing, "sessions."+c)
		}
	}
	for _, c := range GooseMessageColumns {
		if !messageCols[c] {
			missing = append(missing, "messages."+c)
		}
	}
	return missing
}

func tableNames(ctx context.Context, q querier) (map[string]bool, error) {
	names, err := nameSet(ctx, q, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, fmt.Errorf("listing tables: %w", err)
	}
	return names, nil
}

func columnNames(ctx context.Context, q querier, table string) (map[string]bool, error) {
	names, err := nameSet(ctx, q, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("columns of %s: %w", table, err)
	}
	return names, nil
}

// nameSet is the set of the first column of a query's rows.
func nameSet(ctx context.Context, q querier, query string, args ...any) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out[name] = true
	}
	return out, rows.Err()
}

// createGooseSchema creates goose's v13 store in one BEGIN IMMEDIATE transaction (the DSN's _txlock),
// unless another process (goose or goose-ls) created a schema_version table first; it returns the layout
// found afterwards.
func createGooseSchema(ctx context.Context, db *sql.DB) (layout, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return layout{}, fmt.Errorf("creating goose's schema: %w", err)
	}
	defer tx.Rollback()
	l, err := inspect(ctx, tx)
	if err != nil {
		return layout{}, err
	}
	if l.kind != layoutEmpty {
		return l, nil // someone else was first
	}
	for _, stmt := range gooseCreateStatements {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return layout{}, fmt.Errorf("creating goose's schema: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return layout{}, fmt.Errorf("creating goose's schema: %w", err)
	}
	return layout{kind: layoutGoose13, version: GooseSchemaVersion}, nil
}
