// Moving the sessions goose-ls kept in goose-ls-sessions.db (while goose's store was one it could not
// write) into goose's store once it can: session by session, each in one transaction that also marks
// the copy with where it came from, so a move cut short (a crash, a kill) resumes on the next start
// without copying twice. The old file is renamed only after every session in it was read back from
// goose's store, and only when no other process still has it open.

package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MovedSuffix is appended to goose-ls-sessions.db once every session in it is in goose's store.
const MovedSuffix = ".moved"

// movedSession is called after each session is committed to goose's store (a test stops there).
var movedSession = func(ownID, newID string) {}

// movedFromPath is where a moved session's extension_data keeps the id it had in goose-ls-sessions.db.
const movedFromPath = `'$."` + gooseLSKey + `".moved_from'`

// movedFromSQL reads that marker from a session row (NULL for an extension_data that is not JSON).
const movedFromSQL = `CASE WHEN json_valid(extension_data) THEN json_extract(extension_data, ` + movedFromPath + `) END`

// moveStranded moves the sessions of goose-ls's own store at own (if there is one) into s and returns
// what the user should be told ("" when there was nothing to move).
func (s *Store) moveStranded(ctx context.Context, own string) string {
	if _, err := os.Stat(own); err != nil {
		return ""
	}
	total, renamed, movedTo, err := s.moveFrom(ctx, own)
	switch {
	case err != nil:
		slog.Warn("sessions: moving goose-ls's own store into goose's", "from", own, "err", err)
		return fmt.Sprintf("the sessions goose-ls kept in %s are not all in goose's store %s yet (%v); the file is kept and goose-ls goes on moving them on its next start",
			own, s.path, err)
	case movedTo == "":
		return fmt.Sprintf("the %d sessions goose-ls kept in %s are now in goose's store %s too; another goose-ls still has the old file open, so it is renamed on a later start",
			total, own, s.path)
	}
	msg := fmt.Sprintf("the %d sessions goose-ls kept in %s while it could not write goose's store are now in %s; the old file is kept as %s",
		total, own, s.path, movedTo)
	if renamed > 0 {
		msg += fmt.Sprintf(" (%d of them under new ids, as goose had used theirs)", renamed)
	}
	return msg
}

// ownSession is a session of goose-ls's own store: its id and creation time (which identify its copy),
// and its parent's id there.
type ownSession struct {
	id, created, parent string
}

// moveFrom copies every session of the store at own into s, reads them all back, and renames own. It
// returns how many sessions own holds, how many of them took a new id, and where own went ("" when
// another process still has it open).
func (s *Store) moveFrom(ctx context.Context, own string) (total, renamed int, movedTo string, err error) {
	l, err := inspectFile(ctx, own)
	if err != nil {
		return 0, 0, "", err
	}
	if l.kind != layoutGoose && l.kind != layoutEmpty {
		return 0, 0, "", fmt.Errorf("%s is not a store goose-ls wrote (%s)", own, l.reason)
	}
	if l.kind == layoutGoose {
		if total, renamed, err = s.copyAll(ctx, own, featuresOf(l.version)); err != nil {
			return total, renamed, "", err
		}
	}
	if _, err := os.Stat(own + "-wal"); err == nil { // another connection still has it open
		return total, renamed, "", nil
	}
	movedTo = own + MovedSuffix
	for n := 1; ; n++ {
		if _, err := os.Stat(movedTo); errors.Is(err, os.ErrNotExist) {
			break
		}
		movedTo = own + MovedSuffix + "." + strconv.Itoa(n)
	}
	if err := os.Rename(own, movedTo); err != nil {
		if errors.Is(err, os.ErrNotExist) { // another goose-ls finished the same move first
			return total, renamed, own + MovedSuffix, nil
		}
		return total, renamed, "", err
	}
	os.Remove(own + "-shm")
	return total, renamed, movedTo, nil
}

// copyAll copies every session of own (attached to s's one connection, and only read) that is not in s
// yet, tops up copies that miss messages added since, and reads every session back.
func (s *Store) copyAll(ctx context.Context, own string, ownFeat features) (total, renamed int, err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS own`, own); err != nil {
		return 0, 0, fmt.Errorf("opening %s: %w", own, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DETACH DATABASE own`)
	cols, err := commonSessionColumns(ctx, conn)
	if err != nil {
		return 0, 0, err
	}
	sessions, err := ownSessions(ctx, conn, ownFeat)
	if err != nil {
		return 0, 0, err
	}
	copied := map[string]string{} // id in own → id in s
	for _, o := range sessions {
		id, fresh, err := s.copySession(ctx, conn, o, cols, ownFeat, copied)
		if err != nil {
			return len(sessions), renamed, fmt.Errorf("session %s: %w", o.id, err)
		}
		copied[o.id] = id
		if fresh && id != o.id {
			renamed++
		}
		movedSession(o.id, id)
	}
	for _, o := range sessions {
		if err := readBack(ctx, conn, o.id, copied[o.id]); err != nil {
			return len(sessions), renamed, fmt.Errorf("session %s read back as %s: %w", o.id, copied[o.id], err)
		}
	}
	return len(sessions), renamed, nil
}

// commonSessionColumns are the sessions columns both stores have, less those copySession sets itself.
func commonSessionColumns(ctx context.Context, conn *sql.Conn) ([]string, error) {
	mine, err := nameSet(ctx, conn, `SELECT name FROM pragma_table_info('sessions', 'main')`)
	if err != nil {
		return nil, err
	}
	own, err := names(ctx, conn, `SELECT name FROM pragma_table_info('sessions', 'own') ORDER BY cid`)
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range own {
		if mine[c] && c != "id" && c != "extension_data" && c != "parent_session_id" {
			cols = append(cols, c)
		}
	}
	return cols, nil
}

// ownSessions lists own's sessions, those without a parent first (a sub-agent's copy links to its
// parent's copy).
func ownSessions(ctx context.Context, conn *sql.Conn, ownFeat features) ([]ownSession, error) {
	parent := "NULL"
	if ownFeat.ledger {
		parent = "parent_session_id"
	}
	rows, err := conn.QueryContext(ctx, `SELECT id, CAST(created_at AS TEXT), `+parent+` FROM own.sessions
		ORDER BY `+parent+` IS NOT NULL, created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ownSession
	for rows.Next() {
		var o ownSession
		var created, p sql.NullString
		if err := rows.Scan(&o.id, &created, &p); err != nil {
			return nil, err
		}
		o.created, o.parent = created.String, p.String
		out = append(out, o)
	}
	return out, rows.Err()
}

// ownMessageID is a message's id as goose names one that has none (its migration 7).
const ownMessageID = `COALESCE(o.message_id, 'msg_' || o.session_id || '_' || o.id)`

// copySession copies one session in one transaction: found by its mark when an earlier move copied it
// (then only messages added to it since are copied), else inserted under its own id, or a new one of
// the same day when goose has used that id. It returns the copy's id and whether it was made now.
func (s *Store) copySession(ctx context.Context, conn *sql.Conn, o ownSession, cols []string, ownFeat features, copied map[string]string) (string, bool, error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return "", false, err
	}
	defer tx.Rollback()
	var id string
	err = tx.QueryRowContext(ctx, `SELECT id FROM main.sessions WHERE `+movedFromSQL+` = ? AND CAST(created_at AS TEXT) IS ?`,
		o.id, nullIfEmpty(o.created)).Scan(&id)
	fresh := errors.Is(err, sql.ErrNoRows)
	switch {
	case fresh:
		if id, err = s.freeID(ctx, tx, o.id); err != nil {
			return "", false, err
		}
		list := strings.Join(cols, ", ")
		extra, args := "", []any{id, o.id}
		if s.feat.ledger && o.parent != "" {
			parent := o.parent
			if p, ok := copied[o.parent]; ok {
				parent = p
			}
			extra, args = ", parent_session_id", append(args, parent)
		}
		args = append(args, o.id)
		if _, err := tx.ExecContext(ctx, `INSERT INTO main.sessions (id, extension_data, `+list+extra+`)
			SELECT ?, json_set(CASE WHEN json_valid(extension_data) THEN extension_data ELSE '{}' END, `+movedFromPath+`, ?), `+list+
			strings.Repeat(", ?", len(args)-3)+` FROM own.sessions WHERE id = ?`, args...); err != nil {
			return "", false, err
		}
		if s.feat.ledger && ownFeat.ledger {
			if _, err := tx.ExecContext(ctx, `INSERT INTO main.usage_ledger (session_id, created_timestamp, model, input_tokens, output_tokens,
					total_tokens, cache_read_tokens, cache_write_tokens, cost, cost_source, is_compaction)
				SELECT ?, created_timestamp, model, input_tokens, output_tokens, total_tokens, cache_read_tokens, cache_write_tokens,
					cost, cost_source, is_compaction FROM own.usage_ledger WHERE session_id = ? ORDER BY id`, id, o.id); err != nil {
				return "", false, err
			}
		}
	case err != nil:
		return "", false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO main.messages (message_id, session_id, role, content_json, created_timestamp, timestamp, tokens, metadata_json)
		SELECT `+ownMessageID+`, ?, o.role, o.content_json, o.created_timestamp, o.timestamp, o.tokens, o.metadata_json
		FROM own.messages o WHERE o.session_id = ?
			AND `+ownMessageID+` NOT IN (SELECT message_id FROM main.messages WHERE session_id = ? AND message_id IS NOT NULL)
		ORDER BY o.created_timestamp, o.id`, id, o.id, id); err != nil {
		return "", false, err
	}
	return id, fresh, tx.Commit()
}

// dayID matches goose's session ids, YYYYMMDD_N.
var dayID = regexp.MustCompile(`^(\d{8})_\d+$`)

// freeID is ownID when goose's store has no session of that id, else the next id of the same day that
// neither store has used (so that no session still to move loses its id to this one).
func (s *Store) freeID(ctx context.Context, tx *sql.Tx, ownID string) (string, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM main.sessions WHERE id = ?`, ownID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ownID, nil
	}
	if err != nil {
		return "", err
	}
	day := time.Now().UTC().Format("20060102")
	if m := dayID.FindStringSubmatch(ownID); m != nil {
		day = m[1]
	}
	var id string
	err = tx.QueryRowContext(ctx, `SELECT ? || '_' || CAST(COALESCE((SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER))
		FROM (SELECT id FROM main.sessions UNION ALL SELECT id FROM own.sessions) WHERE id LIKE ? || '_%'), 0) + 1 AS TEXT)`, day, day).Scan(&id)
	return id, err
}

// readBack checks that the copy holds the session as own has it: the session's name, folder, type and
// creation time, and every message of own with its id, role, content, time and metadata.
func readBack(ctx context.Context, conn *sql.Conn, ownID, id string) error {
	var same bool
	err := conn.QueryRowContext(ctx, `SELECT o.name IS s.name AND o.working_dir IS s.working_dir AND o.session_type IS s.session_type
			AND CAST(o.created_at AS TEXT) IS CAST(s.created_at AS TEXT)
		FROM own.sessions o, main.sessions s WHERE o.id = ? AND s.id = ?`, ownID, id).Scan(&same)
	if errors.Is(err, sql.ErrNoRows) {
		return errors.New("the copy is missing")
	}
	if err != nil {
		return err
	}
	if !same {
		return errors.New("the copy's name, folder, type or creation time differ")
	}
	var missing int
	err = conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM own.messages o WHERE o.session_id = ? AND NOT EXISTS (
			SELECT 1 FROM main.messages m WHERE m.session_id = ? AND m.message_id = `+ownMessageID+`
				AND m.role IS o.role AND m.content_json IS o.content_json AND m.created_timestamp IS o.created_timestamp
				AND m.metadata_json IS o.metadata_json)`, ownID, id).Scan(&missing)
	if err != nil {
		return err
	}
	if missing > 0 {
		return fmt.Errorf("%d messages are not in the copy", missing)
	}
	return nil
}
