// goose's sessions.db layouts from version 13 (goose 1.38) to 17: the statements with which the newest
// released goose creates a store, what each version adds, and the inspection that decides whether a
// file is a goose store goose-ls writes, a newer one it only reads, goose-ls's own old layout, or not ours.

package session

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Schema versions goose-ls reads and writes: 13 (goose 1.38) up to 17. A store is created at
// CreateSchemaVersion, the version of the newest goose release seen (1.47.0 creates version 16; no
// released goose with version 17 was found, and two different version-17 layouts exist on goose's
// branches, both of which keep every version-16 column).
const (
	OldestSchemaVersion = 13
	NewestSchemaVersion = 17
	CreateSchemaVersion = 16
)

// features are what a store of one schema version has, as goose laid it out at that version.
type features struct {
	version int
	cache   bool // v14: cache_read/write_tokens and their accumulated_* columns
	ledger  bool // v15: usage_ledger and sessions.parent_session_id
}

func featuresOf(version int) features {
	return features{version: version, cache: version >= 14, ledger: version >= 15}
}

// gooseCreateStatements are the first-run statements of goose 1.47.0 (schema version 16:
// session_manager.rs create_schema with providers/inventory create_tables inside the same
// transaction), in goose's order. goose-ls runs them in one BEGIN IMMEDIATE transaction.
var gooseCreateStatements = []string{
	`CREATE TABLE IF NOT EXISTS schema_version (
		version INTEGER PRIMARY KEY,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
	)`,
	fmt.Sprintf(`INSERT OR IGNORE INTO schema_version (version) VALUES (%d)`, CreateSchemaVersion),
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
		cache_read_tokens INTEGER,
		cache_write_tokens INTEGER,
		accumulated_total_tokens INTEGER,
		accumulated_input_tokens INTEGER,
		accumulated_output_tokens INTEGER,
		accumulated_cache_read_tokens INTEGER,
		accumulated_cache_write_tokens INTEGER,
		accumulated_cost REAL,
		schedule_id TEXT,
		recipe_json TEXT,
		user_recipe_values_json TEXT,
		provider_name TEXT,
		model_config_json TEXT,
		goose_mode TEXT NOT NULL DEFAULT 'auto',
		archived_at TIMESTAMP,
		project_id TEXT,
		parent_session_id TEXT
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
	`CREATE TABLE IF NOT EXISTS usage_ledger (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
		created_timestamp INTEGER NOT NULL,
		model TEXT,
		input_tokens INTEGER,
		output_tokens INTEGER,
		total_tokens INTEGER,
		cache_read_tokens INTEGER,
		cache_write_tokens INTEGER,
		cost REAL,
		cost_source TEXT,
		is_compaction INTEGER DEFAULT 0
	)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id)`,
	`CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id)`,
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

// cacheColumns are the sessions columns version 14 adds.
var cacheColumns = []string{"cache_read_tokens", "cache_write_tokens", "accumulated_cache_read_tokens", "accumulated_cache_write_tokens"}

// ledgerColumns are usage_ledger's columns (version 15).
var ledgerColumns = []string{"id", "session_id", "created_timestamp", "model", "input_tokens", "output_tokens", "total_tokens",
	"cache_read_tokens", "cache_write_tokens", "cost", "cost_source", "is_compaction"}

// GooseMessageColumns are the messages columns goose 1.38 names.
var GooseMessageColumns = []string{"id", "message_id", "session_id", "role", "content_json", "created_timestamp", "metadata_json"}

// layoutKind is what inspect found in a database file.
type layoutKind int

const (
	layoutEmpty      layoutKind = iota // no schema_version, sessions or messages table: goose would create its own
	layoutGoose                        // goose's store at a version from 13 to 17 with that version's columns: read and written
	layoutNewer                        // a newer goose's store (version 18 and up): read, never written
	layoutGooseLSOld                   // goose-ls's layout before goose compatibility: migrated
	layoutNotOurs                      // anything else (an older goose's, a foreign layout): never modified
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
	switch {
	case l.version > NewestSchemaVersion:
		l.kind = layoutNewer
		l.reason = fmt.Sprintf("its schema version is %d", l.version)
		return l, nil
	case l.version < OldestSchemaVersion:
		l.kind = layoutNotOurs
		l.reason = fmt.Sprintf("its schema version is %d, older than goose 1.38's; goose updates it on its next start", l.version)
		return l, nil
	}
	ledgerCols := map[string]bool{}
	if l.version >= 15 {
		if ledgerCols, err = columnNames(ctx, q, "usage_ledger"); err != nil {
			return layout{}, err
		}
	}
	if missing := missingColumns(featuresOf(l.version), sessionCols, messageCols, ledgerCols); len(missing) > 0 {
		l.kind = layoutNotOurs
		l.reason = fmt.Sprintf("it is at version %d but lacks goose's columns %s", l.version, strings.Join(missing, ", "))
		return l, nil
	}
	l.kind = layoutGoose
	return l, nil
}

// missingColumns lists the columns goose names at a version that a store lacks.
func missingColumns(f features, sessionCols, messageCols, ledgerCols map[string]bool) []string {
	want := func(table string, cols []string, have map[string]bool, missing []string) []string {
		for _, c := range cols {
			if !have[c] {
				missing = append(missing, table+"."+c)
			}
		}
		return missing
	}
	missing := want("sessions", GooseSessionColumns, sessionCols, nil)
	if f.cache {
		missing = want("sessions", cacheColumns, sessionCols, missing)
	}
	if f.ledger {
		missing = want("sessions", []string{"parent_session_id"}, sessionCols, missing)
		missing = want("usage_ledger", ledgerColumns, ledgerCols, missing)
	}
	return want("messages", GooseMessageColumns, messageCols, missing)
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
	list, err := names(ctx, q, query, args...)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(list))
	for _, name := range list {
		out[name] = true
	}
	return out, nil
}

// names are the first column of query's rows, in order.
func names(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	return out, rows.Err()
}

// createGooseSchema creates goose's store (CreateSchemaVersion) in one BEGIN IMMEDIATE transaction (the
// DSN's _txlock), unless another process (goose or goose-ls) created a schema_version table first; it
// returns the layout found afterwards.
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
	return layout{kind: layoutGoose, version: CreateSchemaVersion}, nil
}
