// Migration of goose-ls's store layout before goose compatibility (schema_version 1, sessions with
// recipe_path and model, messages holding whole provider.Message JSON) into goose's layout, as goose
// creates a store.

package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/google/uuid"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// OldStoreSuffix is appended to a migrated old store's file name.
const OldStoreSuffix = ".goose-ls-old"

type oldSession struct {
	id, name, workingDir, recipePath, values, providerName, model, created, updated string
	in, out                                                                         int64
}

type oldMessage struct {
	sessionID, role, content string
	created                  int64
}

// migrateOldStore copies every session and message of goose-ls's old store at path into a new goose
// store, then moves the old file aside (path + OldStoreSuffix, numbered if taken) and puts the new one
// in its place. It returns where the old file went ("" when another goose-ls process migrated it first).
func migrateOldStore(ctx context.Context, path string) (string, error) {
	sessions, messages, err := readOldStore(ctx, path)
	if err != nil {
		return "", err
	}
	tmp := fmt.Sprintf("%s.goose-ls-migrating-%d", path, os.Getpid())
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	if err := writeMigrated(ctx, tmp, sessions, messages); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if l, err := inspectFile(ctx, path); err != nil || l.kind != layoutGooseLSOld {
		os.Remove(tmp) // another goose-ls process migrated it meanwhile
		return "", err
	}
	moved := path + OldStoreSuffix
	for n := 1; ; n++ {
		if _, err := os.Stat(moved); errors.Is(err, os.ErrNotExist) {
			break
		}
		moved = path + OldStoreSuffix + "." + strconv.Itoa(n)
	}
	if err := os.Rename(path, moved); err != nil {
		return "", err
	}
	for _, side := range []string{"-wal", "-shm"} { // left only if the old store was not closed cleanly
		if _, err := os.Stat(path + side); err == nil {
			_ = os.Rename(path+side, moved+side)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return moved, err
	}
	return moved, nil
}

// readOldStore reads the old layout (the whole store, in one read transaction).
func readOldStore(ctx context.Context, path string) ([]oldSession, []oldMessage, error) {
	db, err := sql.Open("sqlite", fileDSN(path, "mode=rw&_pragma=busy_timeout(30000)"))
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT id, name, working_dir, recipe_path, user_recipe_values_json, provider_name, model,
		input_tokens, output_tokens, created_at, updated_at FROM sessions ORDER BY id`)
	if err != nil {
		return nil, nil, err
	}
	var sessions []oldSession
	for rows.Next() {
		var o oldSession
		if err := rows.Scan(&o.id, &o.name, &o.workingDir, &o.recipePath, &o.values, &o.providerName, &o.model,
			&o.in, &o.out, &o.created, &o.updated); err != nil {
			rows.Close()
			return nil, nil, err
		}
		sessions = append(sessions, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	rows, err = db.QueryContext(ctx, `SELECT session_id, role, content_json, created_timestamp FROM messages ORDER BY id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var messages []oldMessage
	for rows.Next() {
		var m oldMessage
		if err := rows.Scan(&m.sessionID, &m.role, &m.content, &m.created); err != nil {
			return nil, nil, err
		}
		messages = append(messages, m)
	}
	return sessions, messages, rows.Err()
}

// writeMigrated creates goose's store at path and fills it in one transaction.
func writeMigrated(ctx context.Context, path string, sessions []oldSession, messages []oldMessage) error {
	db, err := openWAL(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := createGooseSchema(ctx, db); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	models := map[string][2]string{}
	for _, o := range sessions {
		ext := "{}"
		if o.recipePath != "" {
			b, _ := marshalCompact(map[string]any{gooseLSKey: map[string]string{"recipe_path": o.recipePath}})
			ext = string(b)
		}
		var values any
		var vm map[string]string
		if json.Unmarshal([]byte(o.values), &vm) == nil && len(vm) > 0 {
			b, _ := marshalCompact(vm)
			values = string(b)
		}
		var model any
		if o.model != "" {
			b, _ := marshalCompact(modelConfig{ModelName: o.model})
			model = string(b)
		}
		models[o.id] = [2]string{o.providerName, o.model}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at,
				extension_data, accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens,
				user_recipe_values_json, provider_name, model_config_json, goose_mode)
			VALUES (?, ?, FALSE, 'user', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'auto')`,
			o.id, o.name, o.workingDir, sqliteTime(parseTimestamp(o.created)), sqliteTime(parseTimestamp(o.updated)), ext,
			o.in+o.out, o.in, o.out, values, nullIfEmpty(o.providerName), model); err != nil {
			return fmt.Errorf("session %s: %w", o.id, err)
		}
	}
	identity := func(s string) string { return s }
	for i, m := range messages {
		var pm provider.Message
		if err := json.Unmarshal([]byte(m.content), &pm); err != nil {
			return fmt.Errorf("session %s: message %d is not goose-ls's old JSON: %w", m.sessionID, i+1, err)
		}
		if pm.Role == "" {
			pm.Role = provider.Role(m.role)
		}
		content, err := encodeContent(pm, identity)
		if err != nil {
			return fmt.Errorf("session %s: message %d: %w", m.sessionID, i+1, err)
		}
		pm2 := models[m.sessionID]
		if _, err := tx.ExecContext(ctx, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json)
			VALUES (?, ?, ?, ?, ?, ?)`, fmt.Sprintf("msg_%s_%s", m.sessionID, uuid.New()), m.sessionID, string(pm.Role), content, m.created,
			encodeMetadata(pm.Role, pm2[0], pm2[1])); err != nil {
			return fmt.Errorf("session %s: message %d: %w", m.sessionID, i+1, err)
		}
	}
	return tx.Commit()
}
