// Package session keeps conversations in goose's own session store (SQLite through modernc.org/sqlite):
// <data_dir>/sessions/sessions.db at the schema version goose left it (13 to 17), written as goose writes
// that version, so goose and goose-ls list and resume each other's sessions. goose-ls never migrates a
// store; a missing one is created as the newest goose release creates it. A store goose-ls does not
// understand is never modified: goose-ls then keeps its sessions in goose-ls-sessions.db beside it (same
// layout), and moves them into goose's store once that store is one it writes.
package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// Session is one stored conversation.
type Session struct {
	ID         string
	Name       string
	WorkingDir string
	// Type is goose's session_type: goose-ls creates "user" sessions, and "sub_agent" ones for delegated
	// tasks; listings show user and scheduled.
	Type string
	// ParentID is the session a sub-agent's session was delegated from (parent_session_id, version 15 on).
	ParentID string
	// RecipePath is the recipe file of a goose-ls run (kept in extension_data under "goose_ls.v0").
	RecipePath string
	// Recipe is recipe_json: the rendered recipe as JSON (goose stores the recipe, not its path).
	Recipe       json.RawMessage
	RecipeValues map[string]string
	Provider     string
	Model        string
	GooseMode    string // auto, approve, smart_approve, chat ("" stores auto)
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// LastMessageAt is the newest message's time (zero without messages); listings sort on it, else on
	// UpdatedAt, as goose does.
	LastMessageAt time.Time
	InputTokens   int // accumulated over the session
	OutputTokens  int
	// Messages counts the messages shown to the user (goose's message_count).
	Messages int
	// ReadOnly marks a session of a newer goose's store, which goose-ls lists but never modifies; a
	// Recorder continuing it copies it into goose-ls's own store first.
	ReadOnly bool
}

// Store is an open sessions database: goose's sessions.db, or goose-ls's own store beside it.
type Store struct {
	db       *sql.DB
	feat     features // what the written store's version has
	peer     *sql.DB  // a newer goose's store, opened read-only, when goose-ls writes its own beside it
	peerFeat features
	path     string
	notice   error
	redact   func(string) string
}

// OwnStoreName is the file goose-ls writes beside goose's store when that store is not one it may modify.
const OwnStoreName = "goose-ls-sessions.db"

// ErrNotFound is returned for an unknown id.
var ErrNotFound = errors.New("no such session")

// DefaultPath is <dataDir>/sessions/sessions.db.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, "sessions", "sessions.db") }

// dsn opens a connection with goose's settings: 30 s busy timeout, foreign keys, WAL, and every
// transaction BEGIN IMMEDIATE.
func dsn(path string) string {
	return fileDSN(path, "_pragma=busy_timeout(30000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_txlock=immediate")
}

// Open opens goose's store at path (creating it when absent, migrating goose-ls's own older layout, and
// moving in the sessions goose-ls kept beside it while it could not write there), or goose-ls's own store
// beside it when path holds a store goose-ls must not modify. Notice then says what the user should know.
// redact is applied to everything stored.
func Open(path string, redact func(string) string) (*Store, error) {
	if redact == nil {
		redact = func(s string) string { return s }
	}
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	l, err := inspectFile(ctx, path)
	if err != nil { // not a database goose-ls can read (e.g. "file is not a database"): left alone
		l = layout{kind: layoutNotOurs, reason: err.Error()}
	}
	var notices []string
	if l.kind == layoutGooseLSOld {
		moved, err := migrateOldStore(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("sessions: migrating goose-ls's old store %s: %w", path, err)
		}
		slog.Info("sessions: goose-ls's old store migrated into goose's layout", "path", path, "old", moved)
		if moved != "" {
			notices = append(notices, fmt.Sprintf("goose-ls's sessions were moved into goose's layout in %s; the old file is kept as %s", path, moved))
		}
		l.kind = layoutGoose
	}
	own := filepath.Join(filepath.Dir(path), OwnStoreName)
	if l.kind == layoutEmpty || l.kind == layoutGoose {
		st, l2, err := openGoose(ctx, path, redact)
		if err != nil {
			return nil, err
		}
		if st != nil {
			if msg := st.moveStranded(ctx, own); msg != "" {
				notices = append(notices, msg)
			}
			st.notice = noticeOf(notices)
			return st, nil
		}
		l = l2 // another program made a store of another kind first
	}
	st, l2, err := openGoose(ctx, own, redact)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("sessions: %s is not goose's layout either (%s)", own, l2.reason)
	}
	if l.kind == layoutNewer {
		st.peer, st.peerFeat = openPeer(ctx, path, l.version)
		notices = append(notices, fmt.Sprintf("%s is at schema version %d, newer than the versions goose-ls writes (%d to %d); "+
			"goose-ls lists and reads its sessions but writes nothing there, and keeps its own runs in %s until it knows that version",
			path, l.version, OldestSchemaVersion, NewestSchemaVersion, own))
	} else {
		notices = append(notices, fmt.Sprintf("%s is not a goose session store goose-ls may modify (%s); goose-ls leaves it untouched and keeps its sessions in %s",
			path, l.reason, own))
	}
	st.notice = noticeOf(notices)
	return st, nil
}

// noticeOf joins what the user should be told into one notice (nil for nothing).
func noticeOf(notices []string) error {
	if len(notices) == 0 {
		return nil
	}
	return errors.New("sessions: " + strings.Join(notices, "; "))
}

// inspectFile classifies the file at path without writing to it (no pragma that changes the file; a
// missing file is empty).
func inspectFile(ctx context.Context, path string) (layout, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return layout{kind: layoutEmpty}, nil
	}
	db, err := sql.Open("sqlite", fileDSN(path, "mode=rw&_pragma=busy_timeout(30000)"))
	if err != nil {
		return layout{}, err
	}
	defer db.Close()
	return inspect(ctx, db)
}

// openGoose opens path with goose's settings and creates goose's schema when it is empty; the store is
// nil (with the layout found) when the file turns out not to be a goose store goose-ls writes.
func openGoose(ctx context.Context, path string, redact func(string) string) (*Store, layout, error) {
	l, err := inspectFile(ctx, path)
	if err != nil {
		return nil, l, fmt.Errorf("sessions: %s: %w", path, err)
	}
	if l.kind != layoutEmpty && l.kind != layoutGoose {
		return nil, l, nil
	}
	db, err := openWAL(ctx, path)
	if err != nil {
		return nil, l, fmt.Errorf("sessions: %w", err)
	}
	if l.kind == layoutEmpty {
		if l, err = createGooseSchema(ctx, db); err != nil {
			db.Close()
			return nil, l, fmt.Errorf("sessions: %s: %w", path, err)
		}
	} else if l, err = inspect(ctx, db); err != nil {
		db.Close()
		return nil, l, fmt.Errorf("sessions: %s: %w", path, err)
	}
	if l.kind != layoutGoose {
		db.Close()
		return nil, l, nil
	}
	return &Store{db: db, feat: featuresOf(l.version), path: path, redact: redact}, l, nil
}

// Close closes the database.
func (s *Store) Close() error {
	if s.peer != nil {
		s.peer.Close()
	}
	return s.db.Close()
}

// Path is the file goose-ls reads and writes.
func (s *Store) Path() string { return s.path }

// SchemaVersion is the schema version of the file goose-ls writes.
func (s *Store) SchemaVersion() int { return s.feat.version }

// Notice is what the user should be told once, or nil: goose's store was left alone and goose-ls's own
// store is used instead, sessions kept beside it were moved in, or goose-ls's old store was migrated.
func (s *Store) Notice() error { return s.notice }

// gooseLSKey is goose-ls's key in goose's extension_data (goose keeps keys it does not know).
const gooseLSKey = "goose_ls.v0"

// modelConfig is goose's ModelConfig as goose serialises it (field order kept).
type modelConfig struct {
	ModelName     string   `json:"model_name"`
	ContextLimit  *int     `json:"context_limit"`
	Temperature   *float64 `json:"temperature"`
	MaxTokens     *int     `json:"max_tokens"`
	Toolshim      bool     `json:"toolshim"`
	ToolshimModel *string  `json:"toolshim_model"`
}

// nullIfEmpty stores "" as NULL.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Create stores a new session as goose's create_session does (id YYYYMMDD_N from the day's highest N,
// timestamps from SQLite's clock in UTC) and returns its id. A sub-agent's session (Type "sub_agent")
// is then linked to its parent as goose links it, when the store's version has parent_session_id.
func (s *Store) Create(ctx context.Context, sess Session) (string, error) {
	ext := "{}"
	if sess.RecipePath != "" {
		b, _ := marshalCompact(map[string]any{gooseLSKey: map[string]string{"recipe_path": sess.RecipePath}})
		ext = string(b)
	}
	values := s.recipeValuesColumn(sess.RecipeValues)
	recipeJSON, err := s.recipeColumn(sess.Recipe)
	if err != nil {
		return "", err
	}
	var model any
	if sess.Model != "" {
		b, _ := marshalCompact(modelConfig{ModelName: sess.Model})
		model = string(b)
	}
	mode := sess.GooseMode
	if mode == "" {
		mode = "auto"
	}
	typ := sess.Type
	if typ == "" {
		typ = "user"
	}
	day := time.Now().UTC().Format("20060102")
	floor := s.peerHighest(ctx, day)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("sessions: %w", err)
	}
	defer tx.Rollback()
	var id string
	err = tx.QueryRowContext(ctx, `INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, extension_data, goose_mode,
			recipe_json, user_recipe_values_json, provider_name, model_config_json)
		VALUES (? || '_' || CAST(MAX(COALESCE((SELECT MAX(CAST(SUBSTR(id, 10) AS INTEGER)) FROM sessions WHERE id LIKE ? || '_%'), 0), ?) + 1 AS TEXT),
			?, FALSE, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`,
		day, day, floor, s.redact(sess.Name), typ, sess.WorkingDir, ext, mode, recipeJSON, values, nullIfEmpty(sess.Provider), model).Scan(&id)
	if err != nil {
		return "", fmt.Errorf("sessions: creating a session: %w", err)
	}
	if sess.ParentID != "" && s.feat.ledger { // summon's update().parent_session_id(...)
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET parent_session_id = ?, updated_at = datetime('now') WHERE id = ?`, sess.ParentID, id); err != nil {
			return "", fmt.Errorf("sessions: linking session %s to %s: %w", id, sess.ParentID, err)
		}
	}
	return id, tx.Commit()
}

// recipeValuesColumn is user_recipe_values_json: the values redacted, NULL for none.
func (s *Store) recipeValuesColumn(values map[string]string) any {
	if len(values) == 0 {
		return nil
	}
	redacted := map[string]string{}
	for k, v := range values {
		redacted[k] = s.redact(v)
	}
	b, _ := marshalCompact(redacted)
	return string(b)
}

// recipeColumn is recipe_json: the recipe redacted, NULL for none.
func (s *Store) recipeColumn(recipe json.RawMessage) (any, error) {
	if len(recipe) == 0 {
		return nil, nil
	}
	v, err := redactJSON(recipe, s.redact)
	if err != nil {
		return nil, fmt.Errorf("sessions: the recipe is not JSON: %w", err)
	}
	b, _ := marshalCompact(v)
	return string(b), nil
}

// Append stores one message as goose's add_message does: content_json, metadata_json, message_id
// msg_<session>_<uuid v4>, created_timestamp in unix seconds; the session's updated_at moves.
func (s *Store) Append(ctx context.Context, id string, m provider.Message) error {
	return s.appendMessage(ctx, id, m, "", "")
}

// appendMessage is Append with the provider and model that wrote an assistant message ("": the
// session's provider_name and model_config_json).
func (s *Store) appendMessage(ctx context.Context, id string, m provider.Message, providerName, model string) error {
	content, err := encodeContent(m, s.redact)
	if err != nil {
		return fmt.Errorf("sessions: append to %s: %w", id, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: append to %s: %w", id, err)
	}
	defer tx.Rollback()
	var sessionProvider, modelJSON sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT provider_name, model_config_json FROM sessions WHERE id = ?`, id).Scan(&sessionProvider, &modelJSON)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("sessions: append: %w: %s", ErrNotFound, id)
	}
	if err != nil {
		return fmt.Errorf("sessions: append to %s: %w", id, err)
	}
	if providerName == "" || model == "" {
		var mc modelConfig
		_ = json.Unmarshal([]byte(modelJSON.String), &mc)
		providerName, model = sessionProvider.String, mc.ModelName
	}
	if err := insertMessage(ctx, tx, id, fmt.Sprintf("msg_%s_%s", id, uuid.New()), string(m.Role), content, time.Now().Unix(),
		encodeMetadata(m.Role, providerName, model)); err != nil {
		return fmt.Errorf("sessions: append to %s: %w", id, err)
	}
	return tx.Commit()
}

// insertMessage is goose's insert_message inside tx: a message never sorts before the session's stored
// ones (its created_timestamp is raised to theirs), and the session's updated_at moves.
func insertMessage(ctx context.Context, tx *sql.Tx, sessionID, messageID, role, content string, created int64, metadata string) error {
	var latest sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(created_timestamp) FROM messages WHERE session_id = ?`, sessionID).Scan(&latest); err != nil {
		return err
	}
	if latest.Valid && latest.Int64 > created {
		created = latest.Int64
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json)
		VALUES (?, ?, ?, ?, ?, ?)`, messageID, sessionID, role, content, created, metadata); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE sessions SET updated_at = datetime('now') WHERE id = ?`, sessionID)
	return err
}

// setProvider names the provider and model of an existing session, as goose's update_provider does when a
// session is resumed with the provider configured now.
func (s *Store) setProvider(ctx context.Context, id, providerName, model string) error {
	var modelJSON any
	if model != "" {
		b, _ := marshalCompact(modelConfig{ModelName: model})
		modelJSON = string(b)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sessions: provider of %s: %w", id, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET provider_name = ?, model_config_json = COALESCE(?, model_config_json), updated_at = datetime('now') WHERE id = ?`,
		providerName, modelJSON, id); err != nil {
		return fmt.Errorf("sessions: provider of %s: %w", id, err)
	}
	return tx.Commit()
}

// fileDSN is the driver's address of the database at path: SQLite reads it as a URI, so `%`, `?` and `#` in
// the path are escaped (unescaped, a folder named "a#b" opened a file named "a").
func fileDSN(path, query string) string {
	return "file:" + uriEscaper.Replace(path) + "?" + query
}

var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
