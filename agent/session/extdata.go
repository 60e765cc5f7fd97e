// A session's extension_data entries (goose's per-extension state, e.g. the todo list under "todo.v0"):
// one key replaced at a time, the other keys kept as they are; values are redacted like everything stored.

package session

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SetExtensionData stores value (JSON-encodable) under key in the session's extension_data.
func (s *Store) SetExtensionData(ctx context.Context, id, key string, value any) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("sessions: extension data %s: %w", key, err)
	}
	redacted, err := redactJSON(raw, s.redact)
	if err != nil {
		return fmt.Errorf("sessions: extension data %s: %w", key, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: extension data of %s: %w", id, err)
	}
	defer tx.Rollback()
	var current sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT extension_data FROM sessions WHERE id = ?`, id).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sessions: extension data: %w: %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("sessions: extension data of %s: %w", id, err)
	}
	data := map[string]json.RawMessage{}
	if len(bytes.TrimSpace([]byte(current.String))) > 0 {
		if err := json.Unmarshal([]byte(current.String), &data); err != nil {
			return fmt.Errorf("sessions: extension data of %s is not a JSON object: %w", id, err)
		}
	}
	b, err := marshalCompact(redacted)
	if err != nil {
		return fmt.Errorf("sessions: extension data %s: %w", key, err)
	}
	data[key] = bytes.TrimSpace(b)
	all, err := marshalCompact(data)
	if err != nil {
		return fmt.Errorf("sessions: extension data of %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET extension_data = ?, updated_at = datetime('now') WHERE id = ?`,
		string(bytes.TrimSpace(all)), id); err != nil {
		return fmt.Errorf("sessions: extension data of %s: %w", id, err)
	}
	return tx.Commit()
}

// ExtensionData is the value under key in the session's extension_data (false when there is none); a
// session of a newer goose's store is read there.
func (s *Store) ExtensionData(ctx context.Context, id, key string) (json.RawMessage, bool, error) {
	var current sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT extension_data FROM sessions WHERE id = ?`, id).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) && s.peer != nil {
		err = s.peer.QueryRowContext(ctx, `SELECT extension_data FROM sessions WHERE id = ?`, id).Scan(&current)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, fmt.Errorf("sessions: extension data: %w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, false, fmt.Errorf("sessions: extension data of %s: %w", id, err)
	}
	data := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(current.String), &data); err != nil {
		return nil, false, nil // goose reads a bad extension_data as empty
	}
	v, ok := data[key]
	return v, ok, nil
}

// SetExtensionData stores value under key in the recorded session's extension_data; before the session
// exists (no message yet) it is kept and written when the session is created.
func (r *Recorder) SetExtensionData(key string, value any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID == "" || !r.checked {
		if r.pendingExt == nil {
			r.pendingExt = map[string]any{}
		}
		r.pendingExt[key] = value
		return nil
	}
	return r.Store.SetExtensionData(context.Background(), r.ID, key, value)
}

// ExtensionData is the value under key in the session being continued (false for a new session).
func (r *Recorder) ExtensionData(key string) (json.RawMessage, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.pendingExt[key]; ok {
		b, err := json.Marshal(v)
		return b, err == nil
	}
	if r.ID == "" {
		return nil, false
	}
	v, ok, err := r.Store.ExtensionData(context.Background(), r.ID, key)
	if err != nil {
		return nil, false
	}
	return v, ok
}

// flushExtensionData writes what SetExtensionData kept before the session existed; r.mu is held.
func (r *Recorder) flushExtensionData() {
	for k, v := range r.pendingExt {
		r.keep(r.Store.SetExtensionData(context.Background(), r.ID, k, v))
	}
	r.pendingExt = nil
}
