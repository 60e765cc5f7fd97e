// Reading sessions as goose does: the listing (types user and scheduled, latest message first) and one
// session with its conversation turned into the history goose-ls resumes.

package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// sessionColumns are read for listings and Get; timestamps as text (modernc would turn TIMESTAMP
// columns into time.Time otherwise). parent_session_id is read where the store has it.
func sessionColumns(f features) string {
	parent := "NULL"
	if f.ledger {
		parent = "s.parent_session_id"
	}
	return `s.id, s.name, s.description, s.working_dir, s.session_type,
	CAST(s.created_at AS TEXT), CAST(s.updated_at AS TEXT), s.extension_data,
	s.accumulated_input_tokens, s.accumulated_output_tokens, s.recipe_json, s.user_recipe_values_json,
	s.provider_name, s.model_config_json, s.goose_mode, ` + parent
}

// Messages are counted and dated as goose does: only those shown to the user count, and a timestamp
// above 10,000,000,000 is in milliseconds.
const (
	userVisibleMessage = `COALESCE(json_extract(m.metadata_json, '$.userVisible'), 1) != 0`
	messageSeconds     = `CASE WHEN m.created_timestamp > 10000000000 THEN m.created_timestamp / 1000 ELSE m.created_timestamp END`
)

// List returns the sessions goose lists (types user and scheduled), as goose orders them: by the newest
// message's time, else the last update, then by id, latest first. Beside goose-ls's own store, a newer
// goose's sessions are listed with goose-ls's.
func (s *Store) List(ctx context.Context) ([]Session, error) {
	out, err := listFrom(ctx, s.db, s.feat)
	if err != nil || s.peer == nil {
		return out, err
	}
	theirs, err := listFrom(ctx, s.peer, s.peerFeat)
	if err != nil {
		slog.Warn("sessions: goose's newer store cannot be listed", "err", err)
		return out, nil
	}
	for i := range theirs {
		theirs[i].ReadOnly = true
	}
	out = append(out, theirs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].sortAt().Unix(), out[j].sortAt().Unix()
		if a != b {
			return a > b
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// sortAt is goose's listing key: the newest message's time, else the last update.
func (s Session) sortAt() time.Time {
	if !s.LastMessageAt.IsZero() {
		return s.LastMessageAt
	}
	return s.UpdatedAt
}

func listFrom(ctx context.Context, db *sql.DB, f features) ([]Session, error) {
	rows, err := db.QueryContext(ctx, `SELECT `+sessionColumns(f)+`, COUNT(m.id) FILTER (WHERE `+userVisibleMessage+`),
			MAX(`+messageSeconds+`) AS last_message_timestamp,
			COALESCE(MAX(`+messageSeconds+`), unixepoch(s.updated_at)) AS sort_timestamp
		FROM sessions s LEFT JOIN messages m ON s.id = m.session_id
		WHERE s.session_type IN ('user', 'scheduled')
		GROUP BY s.id ORDER BY sort_timestamp DESC, s.id DESC`)
	if err != nil {
		return nil, fmt.Errorf("sessions: listing: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		var sortTimestamp sql.NullInt64
		sess, err := scanSession(rows, &sortTimestamp)
		if err != nil {
			return nil, fmt.Errorf("sessions: listing: %w", err)
		}
		out = append(out, sess)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(...any) error }

func scanSession(r scanner, extra ...any) (Session, error) {
	var sess Session
	var name, description, workingDir, sessionType, created, updated, ext, recipe, values, providerName, model, mode, parent sql.NullString
	var in, out, last sql.NullInt64
	if err := r.Scan(append([]any{&sess.ID, &name, &description, &workingDir, &sessionType, &created, &updated, &ext,
		&in, &out, &recipe, &values, &providerName, &model, &mode, &parent, &sess.Messages, &last}, extra...)...); err != nil {
		return sess, err
	}
	sess.Name = name.String
	if sess.Name == "" {
		sess.Name = description.String
	}
	sess.WorkingDir, sess.Type, sess.Provider, sess.GooseMode = workingDir.String, sessionType.String, providerName.String, mode.String
	sess.ParentID = parent.String
	sess.InputTokens, sess.OutputTokens = int(in.Int64), int(out.Int64)
	sess.CreatedAt, sess.UpdatedAt = parseTimestamp(created.String), parseTimestamp(updated.String)
	if last.Valid {
		sess.LastMessageAt = time.Unix(last.Int64, 0).UTC()
	}
	var extData map[string]json.RawMessage
	if json.Unmarshal([]byte(ext.String), &extData) == nil {
		var own struct {
			RecipePath string `json:"recipe_path"`
		}
		if json.Unmarshal(extData[gooseLSKey], &own) == nil {
			sess.RecipePath = own.RecipePath
		}
	}
	if recipe.Valid && json.Valid([]byte(recipe.String)) {
		sess.Recipe = json.RawMessage(recipe.String)
	}
	_ = json.Unmarshal([]byte(values.String), &sess.RecipeValues)
	var mc modelConfig
	if json.Unmarshal([]byte(model.String), &mc) == nil {
		sess.Model = mc.ModelName
	}
	return sess, nil
}

// timestampLayouts are the datetime texts goose (sqlx) accepts.
var timestampLayouts = []string{"2006-01-02 15:04:05", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02 15:04:05Z07:00"}

// parseTimestamp reads a stored datetime (UTC unless it says otherwise); zero when unreadable.
func parseTimestamp(s string) time.Time {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(n, 0).UTC()
	}
	return time.Time{}
}

// Get returns a session of any type and its conversation as goose-ls resumes it (see decodeRow for what
// is kept). A row whose content_json goose itself could not load is an error, as in goose.
func (s *Store) Get(ctx context.Context, id string) (Session, []provider.Message, error) {
	sess, msgs, err := getFrom(ctx, s.db, s.feat, id)
	if errors.Is(err, ErrNotFound) && s.peer != nil {
		sess, msgs, err = getFrom(ctx, s.peer, s.peerFeat, id)
		sess.ReadOnly = true
	}
	return sess, msgs, err
}

func getFrom(ctx context.Context, db *sql.DB, f features, id string) (Session, []provider.Message, error) {
	row := db.QueryRowContext(ctx, `SELECT `+sessionColumns(f)+`,
			(SELECT COUNT(*) FILTER (WHERE `+userVisibleMessage+`) FROM messages m WHERE m.session_id = s.id),
			(SELECT MAX(`+messageSeconds+`) FROM messages m WHERE m.session_id = s.id)
		FROM sessions s WHERE s.id = ?`, id)
	sess, err := scanSession(row)
	if errors.Is(err, sql.ErrNoRows) {
		return sess, nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return sess, nil, fmt.Errorf("sessions: %s: %w", id, err)
	}
	rows, err := db.QueryContext(ctx, `SELECT role, content_json, metadata_json FROM messages
		WHERE session_id = ? ORDER BY created_timestamp, id`, id)
	if err != nil {
		return sess, nil, fmt.Errorf("sessions: %s: %w", id, err)
	}
	defer rows.Close()
	var msgs []provider.Message
	for n := 1; rows.Next(); n++ {
		var role, content string
		var md sql.NullString
		if err := rows.Scan(&role, &content, &md); err != nil {
			return sess, nil, fmt.Errorf("sessions: %s: %w", id, err)
		}
		m, ok, err := decodeRow(role, content, md)
		if err != nil {
			return sess, nil, fmt.Errorf("sessions: %s: message %d: %w", id, n, err)
		}
		if ok {
			msgs = append(msgs, m)
		}
	}
	if err := rows.Err(); err != nil {
		return sess, nil, err
	}
	return sess, pairToolCalls(msgs), nil
}

// sqliteTime is how goose's datetime('now') writes a time.
func sqliteTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

// ResumeRecipe is the session's stored recipe (recipe_json) as text to run again, without its
// parameters (the stored recipe is already rendered); nil when the session has none.
func (s Session) ResumeRecipe() []byte {
	var fields map[string]json.RawMessage
	if len(s.Recipe) == 0 || json.Unmarshal(s.Recipe, &fields) != nil || fields == nil {
		return nil
	}
	delete(fields, "parameters")
	b, err := marshalCompact(fields)
	if err != nil {
		return nil
	}
	return b
}
