// What goose does with sessions.db after 1.38, written from the facts sheet (shared/docs/goose-today.md §3)
// and goose 1.47.0's session_manager.rs, and kept apart from the package's code: the migrations to
// versions 14–17 statement by statement (both version-17 layouts found on goose's branches), the store
// goose 1.47.0 creates, its listing, record_usage_metrics, get_session_usage_totals and the sub-agent
// session summon makes.
package session

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"
)

// v17 layouts: the parent_delegation column (goose-today.md §3.1, a PR branch) or the system-prompt and
// container columns (a later copy of goose's main branch). Neither was found in a release.
const (
	v17Delegation = "parent_delegation"
	v17Prompt     = "system_prompt_override"
)

// gooseMigrate is goose's run_migrations from the store's version up to `to`: one BEGIN IMMEDIATE
// transaction, each step followed by its schema_version row. v17 names the version-17 layout.
func gooseMigrate(t *testing.T, db *sql.DB, to int, v17 string) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var current sql.NullInt64
	if err := tx.QueryRow(`SELECT MAX(version) FROM schema_version`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	has := func(col string) bool {
		var n int
		if err := tx.QueryRow(`SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = ?`, col).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	exec := func(stmt string) {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatalf("goose's migration: %v\n%s", err, stmt)
		}
	}
	for v := int(current.Int64) + 1; v <= to; v++ {
		switch v {
		case 14:
			for _, col := range []string{"cache_read_tokens", "cache_write_tokens", "accumulated_cache_read_tokens", "accumulated_cache_write_tokens"} {
				if !has(col) {
					exec("ALTER TABLE sessions ADD COLUMN " + col + " INTEGER")
				}
			}
		case 15:
			if !has("parent_session_id") {
				exec(`ALTER TABLE sessions ADD COLUMN parent_session_id TEXT`)
				exec(`CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id)`)
			}
			exec(gooseLedgerDDL)
			exec(`CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id)`)
		case 16:
			exec(`CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id)`)
		case 17:
			if v17 == v17Prompt {
				for _, col := range []string{"system_prompt_override", "system_prompt_extras_json", "container_id"} {
					if !has(col) {
						exec("ALTER TABLE sessions ADD COLUMN " + col + " TEXT")
					}
				}
			} else {
				exec(`ALTER TABLE sessions ADD COLUMN parent_delegation TEXT`) // unguarded, as goose runs it
			}
		default:
			t.Fatalf("Unknown migration version: %d", v)
		}
		exec(fmt.Sprintf(`INSERT INTO schema_version (version) VALUES (%d)`, v))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

const gooseLedgerDDL = `CREATE TABLE IF NOT EXISTS usage_ledger (
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
)`

// gooseCreateFresh is goose's create_schema at version 16 (goose 1.47.0) or 17 (goose-today.md §3.1: the
// version-16 tables with parent_delegation last), the inventory tables inside the same transaction.
func gooseCreateFresh(t *testing.T, db *sql.DB, version int) {
	t.Helper()
	delegation := ""
	if version == 17 {
		delegation = ", parent_delegation TEXT"
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, stmt := range []string{
		`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		fmt.Sprintf(`INSERT OR IGNORE INTO schema_version (version) VALUES (%d)`, version),
		`CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
			user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}',
			total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER, cache_write_tokens INTEGER,
			accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
			accumulated_cache_read_tokens INTEGER, accumulated_cache_write_tokens INTEGER, accumulated_cost REAL, schedule_id TEXT,
			recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
			goose_mode TEXT NOT NULL DEFAULT 'auto', archived_at TIMESTAMP, project_id TEXT, parent_session_id TEXT` + delegation + `)`,
		`CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,
			session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL,
			created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT)`,
		gooseLedgerDDL,
		`CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id)`,
		`CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id)`,
		`CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC)`,
		`CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type)`,
		`CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id)`,
		`CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id)`,
		`CREATE TABLE IF NOT EXISTS provider_inventory_entries (inventory_key TEXT PRIMARY KEY, provider_id TEXT NOT NULL,
			provider_family TEXT NOT NULL, last_updated_at TEXT, last_refresh_attempt_at TEXT, last_refresh_error TEXT,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE IF NOT EXISTS provider_inventory_models (inventory_key TEXT NOT NULL REFERENCES provider_inventory_entries(inventory_key) ON DELETE CASCADE,
			ordinal INTEGER NOT NULL, model_id TEXT NOT NULL, name TEXT NOT NULL, family TEXT, context_limit INTEGER,
			reasoning BOOLEAN, recommended BOOLEAN, PRIMARY KEY (inventory_key, ordinal))`,
		`CREATE INDEX IF NOT EXISTS idx_provider_inventory_provider_id ON provider_inventory_entries(provider_id)`,
	} {
		if _, err := tx.Exec(stmt); err != nil {
			t.Fatalf("goose's create_schema: %v\n%s", err, stmt)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// gooseStartAt is the start-up of a goose whose CURRENT_SCHEMA_VERSION is version: no schema_version
// table → create (13: goose 1.38's statements; 16 and 17: gooseCreateFresh); else migrate up to version.
// It returns whether it created the store and the migrations it ran.
func gooseStartAt(t *testing.T, db *sql.DB, version int, v17 string) (created bool, ran []int) {
	t.Helper()
	var exists bool
	if err := db.QueryRow(`SELECT EXISTS (SELECT name FROM sqlite_master WHERE type='table' AND name='schema_version')`).Scan(&exists); err != nil {
		exists = false
	}
	if !exists {
		if version == 13 {
			gooseCreateSchema(t, db)
		} else {
			gooseCreateFresh(t, db, version)
		}
		return true, nil
	}
	var current sql.NullInt64
	if err := db.QueryRow(`SELECT MAX(version) FROM schema_version`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	for v := int(current.Int64) + 1; v <= version; v++ {
		ran = append(ran, v)
	}
	gooseMigrate(t, db, version, v17)
	return false, ran
}

// listed is one row of goose's listing.
type listed struct {
	id       string
	messages int
}

// gooseListingAt is goose's list_sessions (types user and scheduled) as the goose of a schema version
// names its columns: the cache columns from 14, parent_session_id from 15; message_count counts the
// messages shown to the user, and the order is the newest message's time (milliseconds read as such),
// else unixepoch(updated_at), then id, latest first.
func gooseListingAt(t *testing.T, db *sql.DB, version int) []listed {
	t.Helper()
	cols := `s.id, s.working_dir, s.name, s.description, s.user_set_name, s.session_type, s.created_at, s.updated_at, s.extension_data,
		s.total_tokens, s.input_tokens, s.output_tokens, s.accumulated_total_tokens, s.accumulated_input_tokens, s.accumulated_output_tokens,
		s.accumulated_cost, s.schedule_id, s.recipe_json, s.user_recipe_values_json, s.provider_name, s.model_config_json, s.goose_mode,
		s.archived_at, s.project_id`
	n := 24
	if version >= 14 {
		cols += `, s.cache_read_tokens, s.cache_write_tokens, s.accumulated_cache_read_tokens, s.accumulated_cache_write_tokens`
		n += 4
	}
	if version >= 15 {
		cols += `, s.parent_session_id`
		n++
	}
	ts := `CASE WHEN m.created_timestamp > 10000000000 THEN m.created_timestamp / 1000 ELSE m.created_timestamp END`
	rows, err := db.Query(`SELECT `+cols+`, COUNT(m.id) FILTER (WHERE COALESCE(json_extract(m.metadata_json, '$.userVisible'), 1) != 0) AS message_count,
		MAX(`+ts+`) AS last_message_timestamp, COALESCE(MAX(`+ts+`), unixepoch(s.updated_at)) AS sort_timestamp
		FROM sessions s LEFT JOIN messages m ON s.id = m.session_id
		WHERE s.session_type IN (?, ?) GROUP BY s.id ORDER BY sort_timestamp DESC, s.id DESC`, "user", "scheduled")
	if err != nil {
		t.Fatalf("goose's listing fails: %v", err)
	}
	defer rows.Close()
	var out []listed
	for rows.Next() {
		vals := make([]any, n+3)
		ptrs := make([]any, n+3)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		count, _ := vals[n].(int64)
		out = append(out, listed{id: fmt.Sprint(vals[0]), messages: int(count)})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	checkSessionRows(t, db)
	return out
}

// ids are the listed sessions' ids.
func ids(l []listed) []string {
	var out []string
	for _, s := range l {
		out = append(out, s.id)
	}
	return out
}

// gooseUsage is one provider request as goose records it (a cache count of 0: none reported).
type gooseUsage struct {
	model                          string
	in, out, cacheRead, cacheWrite int64
	cost                           *float64
	costSource                     string // provider_reported, estimated or ""
}

// gooseRecordUsage is goose's record_usage_metrics (schema version 15 on) for an interactive session
// (no schedule): the carried_forward backfill, the session's columns, the request's ledger row.
func gooseRecordUsage(t *testing.T, db *sql.DB, id string, u gooseUsage) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`INSERT INTO usage_ledger (session_id, created_timestamp, input_tokens, output_tokens, total_tokens,
			cache_read_tokens, cache_write_tokens, cost, cost_source)
		SELECT s.id, strftime('%s','now'),
			MAX(COALESCE(s.accumulated_input_tokens, 0) - l.input_sum, 0), MAX(COALESCE(s.accumulated_output_tokens, 0) - l.output_sum, 0),
			MAX(COALESCE(s.accumulated_total_tokens, 0) - l.total_sum, 0), MAX(COALESCE(s.accumulated_cache_read_tokens, 0) - l.cache_read_sum, 0),
			MAX(COALESCE(s.accumulated_cache_write_tokens, 0) - l.cache_write_sum, 0),
			CASE WHEN s.accumulated_cost IS NULL OR s.accumulated_cost <= l.cost_sum THEN NULL ELSE s.accumulated_cost - l.cost_sum END,
			'carried_forward'
		FROM sessions s, (SELECT COALESCE(SUM(input_tokens), 0) AS input_sum, COALESCE(SUM(output_tokens), 0) AS output_sum,
			COALESCE(SUM(total_tokens), 0) AS total_sum, COALESCE(SUM(cache_read_tokens), 0) AS cache_read_sum,
			COALESCE(SUM(cache_write_tokens), 0) AS cache_write_sum, COALESCE(SUM(cost), 0.0) AS cost_sum
			FROM usage_ledger WHERE session_id = ?) l
		WHERE s.id = ? AND (COALESCE(s.accumulated_input_tokens, 0) > l.input_sum OR COALESCE(s.accumulated_output_tokens, 0) > l.output_sum
			OR COALESCE(s.accumulated_total_tokens, 0) > l.total_sum OR COALESCE(s.accumulated_cost, 0.0) > l.cost_sum + 1e-9)`, id, id); err != nil {
		t.Fatal(err)
	}
	var cr, cw, src any
	if u.cacheRead != 0 {
		cr = u.cacheRead
	}
	if u.cacheWrite != 0 {
		cw = u.cacheWrite
	}
	if u.costSource != "" {
		src = u.costSource
	}
	var cost any
	if u.cost != nil {
		cost = *u.cost
	}
	total := u.in + u.out
	if _, err := tx.Exec(`UPDATE sessions SET schedule_id = ?, total_tokens = ?, input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?,
			accumulated_total_tokens = COALESCE(accumulated_total_tokens, 0) + ?, accumulated_input_tokens = COALESCE(accumulated_input_tokens, 0) + ?,
			accumulated_output_tokens = COALESCE(accumulated_output_tokens, 0) + ?,
			accumulated_cache_read_tokens = COALESCE(accumulated_cache_read_tokens, 0) + ?,
			accumulated_cache_write_tokens = COALESCE(accumulated_cache_write_tokens, 0) + ?,
			accumulated_cost = CASE WHEN ? IS NULL THEN accumulated_cost ELSE COALESCE(accumulated_cost, 0) + ? END,
			updated_at = datetime('now') WHERE id = ?`,
		nil, total, u.in, u.out, cr, cw, total, u.in, u.out, u.cacheRead, u.cacheWrite, cost, cost, id); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO usage_ledger (session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens,
			cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction) VALUES (?, strftime('%s','now'), ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, u.model, u.in, u.out, total, cr, cw, cost, src, 0); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// usageTotals is what goose shows for a session's usage.
type usageTotals struct {
	in, out, total, cacheRead, cacheWrite int64
	cost                                  *float64
}

func (u usageTotals) String() string {
	cost := "NULL"
	if u.cost != nil {
		cost = fmt.Sprintf("%.4f", *u.cost)
	}
	return fmt.Sprintf("in %d out %d total %d cache %d/%d cost %s", u.in, u.out, u.total, u.cacheRead, u.cacheWrite, cost)
}

// gooseUsageTotals is goose's get_session_usage_totals: the session and its sub-agents' sessions
// (recursively, through parent_session_id), per session the larger of its accumulated_* column and its
// ledger's sum, added up; cost NULL unless one of them has one; saturated at i32::MAX.
func gooseUsageTotals(t *testing.T, db *sql.DB, id string) usageTotals {
	t.Helper()
	rows, err := db.Query(`WITH RECURSIVE tree(id) AS (
			SELECT id FROM sessions WHERE id = ?
			UNION
			SELECT s.id FROM sessions s JOIN tree ON s.parent_session_id = tree.id)
		SELECT s.accumulated_input_tokens, s.accumulated_output_tokens, s.accumulated_total_tokens,
			s.accumulated_cache_read_tokens, s.accumulated_cache_write_tokens, s.accumulated_cost,
			SUM(u.input_tokens), SUM(u.output_tokens), SUM(u.total_tokens), SUM(u.cache_read_tokens), SUM(u.cache_write_tokens), SUM(u.cost)
		FROM sessions s LEFT JOIN usage_ledger u ON u.session_id = s.id
		WHERE s.id IN (SELECT id FROM tree) GROUP BY s.id`, id)
	if err != nil {
		t.Fatalf("goose's usage totals fail: %v", err)
	}
	defer rows.Close()
	var tot usageTotals
	larger := func(a, b sql.NullInt64) int64 { return max(a.Int64, b.Int64) }
	for rows.Next() {
		var acc, led [5]sql.NullInt64
		var accCost, ledCost sql.NullFloat64
		if err := rows.Scan(&acc[0], &acc[1], &acc[2], &acc[3], &acc[4], &accCost, &led[0], &led[1], &led[2], &led[3], &led[4], &ledCost); err != nil {
			t.Fatal(err)
		}
		tot.in += larger(acc[0], led[0])
		tot.out += larger(acc[1], led[1])
		tot.total += larger(acc[2], led[2])
		tot.cacheRead += larger(acc[3], led[3])
		tot.cacheWrite += larger(acc[4], led[4])
		if accCost.Valid || ledCost.Valid {
			c := max(accCost.Float64, ledCost.Float64)
			if tot.cost != nil {
				c += *tot.cost
			}
			tot.cost = &c
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, v := range []*int64{&tot.in, &tot.out, &tot.total, &tot.cacheRead, &tot.cacheWrite} {
		*v = min(*v, 1<<31-1)
	}
	return tot
}

// ledgerRows are a session's usage_ledger rows as text, in order.
func ledgerRows(t *testing.T, db *sql.DB, id string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(dump(t, db, `SELECT model, input_tokens, output_tokens, total_tokens, cache_read_tokens,
		cache_write_tokens, cost, cost_source, is_compaction, typeof(created_timestamp) AS ts FROM usage_ledger WHERE session_id = ? ORDER BY id`, id)), "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// gooseCreateSubAgent is the session summon makes for a delegated task: create_session (type sub_agent,
// mode auto) in the task's folder, then, from version 15, update().parent_session_id(parent).
func gooseCreateSubAgent(t *testing.T, db *sql.DB, parent, workDir string, version int) string {
	t.Helper()
	today := time.Now().UTC().Format("20060102")
	var id string
	if err := db.QueryRow(`INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, extension_data, goose_mode)
		VALUES (? || '_' || CAST(COALESCE((SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions WHERE id LIKE ? || '_%'), 0) + 1 AS TEXT),
		?, FALSE, ?, ?, '{}', ?) RETURNING id`, today, today, "Delegated task", "sub_agent", workDir, "auto").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if version >= 15 {
		gooseExec(t, db, `UPDATE sessions SET parent_session_id = ?, updated_at = datetime('now') WHERE id = ?`, parent, id)
	}
	return id
}

// schemaLayout is every table's columns and every index of a store, for before/after comparisons.
func schemaLayout(t *testing.T, db *sql.DB) string {
	t.Helper()
	return dump(t, db, `SELECT m.name, p.cid, p.name, p.type, p."notnull", p.dflt_value, p.pk FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.cid`) +
		strings.Join(strings.Fields(dump(t, db, `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`)), " ")
}
