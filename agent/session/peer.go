// A newer goose's store (schema version 18 and up) beside goose-ls's own: listed and read through a
// read-only connection, never written; continuing one of its sessions copies it into goose-ls's store.

package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
)

// openPeer opens a newer goose's store for reading only (query_only: SQLite refuses every write) when it
// still has every column goose 1.38 reads; nil otherwise (its sessions are then not listed). The
// connection is read-write at the file level so that, like goose's own, the last one to close removes the
// -wal and -shm files (a mode=ro connection leaves them behind). Its features say whether it still has
// parent_session_id, the one later column goose-ls reads.
func openPeer(ctx context.Context, path string, version int) (*sql.DB, features) {
	db, err := sql.Open("sqlite", fileDSN(path, "mode=rw&_pragma=busy_timeout(30000)&_pragma=query_only(1)"))
	if err != nil {
		return nil, features{}
	}
	sessionCols, err1 := columnNames(ctx, db, "sessions")
	messageCols, err2 := columnNames(ctx, db, "messages")
	if err := errors.Join(err1, err2); err != nil || len(missingColumns(featuresOf(OldestSchemaVersion), sessionCols, messageCols, nil)) > 0 {
		slog.Debug("sessions: goose's newer store is not listed", "path", path, "err", err)
		db.Close()
		return nil, features{}
	}
	return db, features{version: version, ledger: sessionCols["parent_session_id"]}
}

// peerHighest is the highest N of the day's ids in the newer goose's store (0 without one), so goose-ls's
// own ids never repeat one listed beside them.
func (s *Store) peerHighest(ctx context.Context, day string) int64 {
	if s.peer == nil {
		return 0
	}
	var n sql.NullInt64
	_ = s.peer.QueryRowContext(ctx, `SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions WHERE id LIKE ? || '_%'`, day).Scan(&n)
	return n.Int64
}

// writableID is the session to append to for id: id itself when it is in the store goose-ls writes;
// for a session of the newer goose's store, a copy of it (rows as goose stored them) made in goose-ls's
// store, whose new id is returned.
func (s *Store) writableID(ctx context.Context, id string) (string, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM sessions WHERE id = ?`, id).Scan(&one)
	if err == nil || s.peer == nil || !errors.Is(err, sql.ErrNoRows) {
		return id, nil // unknown ids fail where they are used
	}
	var name, workingDir, ext, recipe, values, providerName, model, mode sql.NullString
	var in, out sql.NullInt64
	err = s.peer.QueryRowContext(ctx, `SELECT name, working_dir, extension_data, recipe_json, user_recipe_values_json, provider_name,
		model_config_json, goose_mode, accumulated_input_tokens, accumulated_output_tokens FROM sessions WHERE id = ?`, id).Scan(
		&name, &workingDir, &ext, &recipe, &values, &providerName, &model, &mode, &in, &out)
	if errors.Is(err, sql.ErrNoRows) {
		return id, nil
	}
	if err != nil {
		return "", fmt.Errorf("sessions: copying %s from goose's store: %w", id, err)
	}
	type row struct {
		role, content string
		created       int64
		metadata      sql.NullString
	}
	rows, err := s.peer.QueryContext(ctx, `SELECT role, content_json, created_timestamp, metadata_json FROM messages
		WHERE session_id = ? ORDER BY created_timestamp, id`, id)
	if err != nil {
		return "", fmt.Errorf("sessions: copying %s from goose's store: %w", id, err)
	}
	var msgs []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.role, &r.content, &r.created, &r.metadata); err != nil {
			rows.Close()
			return "", err
		}
		msgs = append(msgs, r)
	}
	rows.Close()
	day := time.Now().UTC().Format("20060102")
	floor := s.peerHighest(ctx, day)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	var newID string
	if !mode.Valid || mode.String == "" {
		mode.String, mode.Valid = "auto", true
	}
	if !ext.Valid {
		ext.String, ext.Valid = "{}", true
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, extension_data, goose_mode,
			recipe_json, user_recipe_values_json, provider_name, model_config_json, accumulated_input_tokens, accumulated_output_tokens,
			accumulated_total_tokens)
		VALUES (? || '_' || CAST(MAX(COALESCE((SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions WHERE id LIKE ? || '_%'), 0), ?) + 1 AS TEXT),
			?, FALSE, 'user', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`, day, day, floor, name.String, workingDir.String, ext, mode, recipe, values, providerName, model, in, out,
		sql.NullInt64{Int64: in.Int64 + out.Int64, Valid: in.Valid || out.Valid}).Scan(&newID)
	if err != nil {
		return "", fmt.Errorf("sessions: copying %s from goose's store: %w", id, err)
	}
	for _, r := range msgs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json)
			VALUES (?, ?, ?, ?, ?, ?)`, fmt.Sprintf("msg_%s_%s", newID, uuid.New()), newID, r.role, r.content, r.created, r.metadata); err != nil {
			return "", fmt.Errorf("sessions: copying %s from goose's store: %w", id, err)
		}
	}
	return newID, tx.Commit()
}
