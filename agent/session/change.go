// Changes to a stored session after goose's create_session, as goose's session manager makes them:
// the recipe a session's set-up rendered (its update().recipe().user_recipe_values()), deletion (its
// delete_session), used when a set-up fails after the session was created, and /clear.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// SetRecipe stores a session's rendered recipe and the parameter values it was given, redacted as
// Create stores them; updated_at moves. values nil leaves user_recipe_values_json as it is (goose sets
// it only when the set-up has values; an empty set is stored as {}).
func (s *Store) SetRecipe(ctx context.Context, id string, recipe json.RawMessage, values map[string]string) error {
	recipeJSON, err := s.recipeColumn(recipe)
	if err != nil {
		return err
	}
	query, args := `UPDATE sessions SET recipe_json = ?, updated_at = datetime('now') WHERE id = ?`, []any{recipeJSON, id}
	if values != nil {
		encoded := "{}"
		if v := s.recipeValuesColumn(values); v != nil {
			encoded = v.(string)
		}
		query = `UPDATE sessions SET recipe_json = ?, user_recipe_values_json = ?, updated_at = datetime('now') WHERE id = ?`
		args = []any{recipeJSON, encoded, id}
	}
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("sessions: recipe of %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("sessions: recipe of %s: %w", id, ErrNotFound)
	}
	return nil
}

// Delete removes a session as goose's delete_session does, in one transaction: its messages, its
// usage_ledger rows (schema version 15 on), then the session. An unknown id is ErrNotFound.
func (s *Store) Delete(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: deleting %s: %w", id, err)
	}
	defer tx.Rollback()
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM sessions WHERE id = ?)`, id).Scan(&exists); err != nil {
		return fmt.Errorf("sessions: deleting %s: %w", id, err)
	}
	if !exists {
		return fmt.Errorf("sessions: deleting %s: %w", id, ErrNotFound)
	}
	statements := []string{`DELETE FROM messages WHERE session_id = ?`}
	if s.feat.ledger {
		statements = append(statements, `DELETE FROM usage_ledger WHERE session_id = ?`)
	}
	statements = append(statements, `DELETE FROM sessions WHERE id = ?`)
	for _, q := range statements {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("sessions: deleting %s: %w", id, err)
		}
	}
	return tx.Commit()
}

// ClearConversation is goose's /clear, in one transaction: the session's messages replaced by none
// (replace_conversation), its total, input and output token counts set to 0, then the command and its
// answer stored as goose stores a command's exchange, visible to the user only. An unknown id is
// ErrNotFound.
func (s *Store) ClearConversation(ctx context.Context, id, command, answer string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: clearing %s: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET total_tokens = 0, input_tokens = 0, output_tokens = 0,
		updated_at = datetime('now') WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("sessions: clearing %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("sessions: clearing %s: %w", id, ErrNotFound)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ?`, id); err != nil {
		return fmt.Errorf("sessions: clearing %s: %w", id, err)
	}
	now := time.Now().Unix()
	userOnly, _ := marshalCompact(metadata{UserVisible: true}) // shown to the user, never sent to the model
	for _, m := range []provider.Message{{Role: provider.User, Text: command}, {Role: provider.Assistant, Text: answer}} {
		content, err := encodeContent(m, s.redact)
		if err == nil {
			err = insertMessage(ctx, tx, id, fmt.Sprintf("msg_%s_%s", id, uuid.New()), string(m.Role), content, now, string(userOnly))
		}
		if err != nil {
			return fmt.Errorf("sessions: clearing %s: %w", id, err)
		}
	}
	return tx.Commit()
}
