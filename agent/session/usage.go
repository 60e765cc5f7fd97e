// Token usage as goose records it per provider request, at each schema version: the session's columns
// (latest request and running totals), and from version 15 the usage_ledger row with the backfill that
// carries older totals forward.

package session

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// AddUsage records one provider request's token counts the way goose does at the store's version:
// total/input/output (and from version 14 the cache counts) are the latest request's, the accumulated_*
// columns running totals. From version 15 it is goose's record_usage_metrics: first a carried_forward
// ledger row for totals the ledger does not hold yet (sessions written before the ledger existed, or by
// a program that does not keep it), then the session's columns, then the request's own row. model is
// the model asked for; goose-ls knows no prices, so cost stays NULL and accumulated_cost unchanged.
func (s *Store) AddUsage(ctx context.Context, id, model string, u provider.Usage) error {
	total := u.InputTokens + u.OutputTokens
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: usage of %s: %w", id, err)
	}
	defer tx.Rollback()
	switch {
	case s.feat.ledger:
		err = recordUsageMetrics(ctx, tx, id, model, u, total)
	case s.feat.cache:
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET total_tokens = ?, input_tokens = ?, output_tokens = ?,
			cache_read_tokens = ?, cache_write_tokens = ?,
			accumulated_total_tokens = COALESCE(accumulated_total_tokens, 0) + ?,
			accumulated_input_tokens = COALESCE(accumulated_input_tokens, 0) + ?,
			accumulated_output_tokens = COALESCE(accumulated_output_tokens, 0) + ?,
			accumulated_cache_read_tokens = COALESCE(accumulated_cache_read_tokens, 0) + ?,
			accumulated_cache_write_tokens = COALESCE(accumulated_cache_write_tokens, 0) + ?,
			updated_at = datetime('now') WHERE id = ?`,
			total, u.InputTokens, u.OutputTokens, nullIfZero(u.CacheReadTokens), nullIfZero(u.CacheWriteTokens),
			total, u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, id)
	default:
		_, err = tx.ExecContext(ctx, `UPDATE sessions SET total_tokens = ?, input_tokens = ?, output_tokens = ?,
			accumulated_total_tokens = COALESCE(accumulated_total_tokens, 0) + ?,
			accumulated_input_tokens = COALESCE(accumulated_input_tokens, 0) + ?,
			accumulated_output_tokens = COALESCE(accumulated_output_tokens, 0) + ?,
			updated_at = datetime('now') WHERE id = ?`,
			total, u.InputTokens, u.OutputTokens, total, u.InputTokens, u.OutputTokens, id)
	}
	if err != nil {
		return fmt.Errorf("sessions: usage of %s: %w", id, err)
	}
	return tx.Commit()
}

// recordUsageMetrics is goose's record_usage_metrics (schema version 15 on) inside tx.
func recordUsageMetrics(ctx context.Context, tx *sql.Tx, id, model string, u provider.Usage, total int) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO usage_ledger (session_id, created_timestamp, input_tokens, output_tokens, total_tokens,
			cache_read_tokens, cache_write_tokens, cost, cost_source)
		SELECT s.id, strftime('%s','now'),
			MAX(COALESCE(s.accumulated_input_tokens, 0) - l.input_sum, 0),
			MAX(COALESCE(s.accumulated_output_tokens, 0) - l.output_sum, 0),
			MAX(COALESCE(s.accumulated_total_tokens, 0) - l.total_sum, 0),
			MAX(COALESCE(s.accumulated_cache_read_tokens, 0) - l.cache_read_sum, 0),
			MAX(COALESCE(s.accumulated_cache_write_tokens, 0) - l.cache_write_sum, 0),
			CASE WHEN s.accumulated_cost IS NULL OR s.accumulated_cost <= l.cost_sum THEN NULL ELSE s.accumulated_cost - l.cost_sum END,
			'carried_forward'
		FROM sessions s,
			(SELECT COALESCE(SUM(input_tokens), 0) AS input_sum, COALESCE(SUM(output_tokens), 0) AS output_sum,
				COALESCE(SUM(total_tokens), 0) AS total_sum, COALESCE(SUM(cache_read_tokens), 0) AS cache_read_sum,
				COALESCE(SUM(cache_write_tokens), 0) AS cache_write_sum, COALESCE(SUM(cost), 0.0) AS cost_sum
			FROM usage_ledger WHERE session_id = ?) l
		WHERE s.id = ?
			AND (COALESCE(s.accumulated_input_tokens, 0) > l.input_sum
				OR COALESCE(s.accumulated_output_tokens, 0) > l.output_sum
				OR COALESCE(s.accumulated_total_tokens, 0) > l.total_sum
				OR COALESCE(s.accumulated_cost, 0.0) > l.cost_sum + 1e-9)`, id, id); err != nil {
		return err
	}
	// goose sets schedule_id to its caller's (a scheduler job's; none for an interactive or headless run)
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET schedule_id = NULL,
			total_tokens = ?, input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?,
			accumulated_total_tokens = COALESCE(accumulated_total_tokens, 0) + ?,
			accumulated_input_tokens = COALESCE(accumulated_input_tokens, 0) + ?,
			accumulated_output_tokens = COALESCE(accumulated_output_tokens, 0) + ?,
			accumulated_cache_read_tokens = COALESCE(accumulated_cache_read_tokens, 0) + ?,
			accumulated_cache_write_tokens = COALESCE(accumulated_cache_write_tokens, 0) + ?,
			updated_at = datetime('now')
		WHERE id = ?`,
		total, u.InputTokens, u.OutputTokens, nullIfZero(u.CacheReadTokens), nullIfZero(u.CacheWriteTokens),
		total, u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO usage_ledger (session_id, created_timestamp, model, input_tokens, output_tokens, total_tokens,
			cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction)
		VALUES (?, strftime('%s','now'), ?, ?, ?, ?, ?, ?, NULL, NULL, 0)`,
		id, nullIfEmpty(model), u.InputTokens, u.OutputTokens, total, nullIfZero(u.CacheReadTokens), nullIfZero(u.CacheWriteTokens))
	return err
}

// nullIfZero stores a count a provider did not report (0) as NULL, as goose stores its None.
func nullIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}
