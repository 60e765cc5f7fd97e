// The sessions goose-ls kept in goose-ls-sessions.db move into goose's store once goose-ls writes it:
// every session and message read back, ids kept unless goose has used them, the old file renamed last;
// a move killed half way loses nothing and finishes on the next start.
package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// ownStore makes goose-ls's own store in dir as a goose-ls of that time made it: version 13 (beside a
// store of goose 1.39 or newer, before goose-ls knew version 14) or 16 (beside a store newer than it
// knows). It holds a run, a run with a sub-agent, and an empty session (ACP's session/new); their ids
// are returned, the sub-agent's last.
func ownStore(t *testing.T, dir string, version int) []string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, OwnStoreName)
	if version == 13 {
		db := openAsGoose(t, path)
		gooseCreateSchema(t, db)
		db.Close()
	}
	s, l, err := openGoose(ctx, path, func(s string) string { return s })
	if err != nil || s == nil || l.version != version {
		t.Fatalf("own store: %v %+v", err, l)
	}
	defer s.Close()
	a := record(t, s, Session{Name: "a run", WorkingDir: "/w", RecipePath: "/w/r.yaml"}, aRun)
	b, sub := recordRunWithSubAgent(t, s)
	c, err := s.Create(ctx, Session{Name: "ACP: w", WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	return []string{a, b, c, sub}
}

// ownRows are a session's messages as stored (id, role, content, time, metadata), to compare a copy with.
func ownRows(t *testing.T, db *sql.DB, id string) string {
	t.Helper()
	return dump(t, db, `SELECT message_id, role, content_json, created_timestamp, metadata_json FROM messages WHERE session_id = ? ORDER BY created_timestamp, id`, id)
}

// copiesOf maps each own id to the ids of the sessions in goose's store marked as its copy.
func copiesOf(t *testing.T, db *sql.DB) map[string][]string {
	t.Helper()
	rows, err := db.Query(`SELECT id, ` + movedFromSQL + ` FROM sessions WHERE ` + movedFromSQL + ` IS NOT NULL ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var id, from string
		if err := rows.Scan(&id, &from); err != nil {
			t.Fatal(err)
		}
		out[from] = append(out[from], id)
	}
	return out
}

// gooseStoreAt15 is goose's store after goose 1.42 migrated it: version 15, with a session of goose's own
// whose id (the day's first) goose-ls's store also used.
func gooseStoreAt15(t *testing.T, path string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	goose := openAsGoose(t, path)
	gooseCreateSchema(t, goose)
	gooseMigrate(t, goose, 15, "")
	id := gooseCreateSession(t, goose, "/home/me", gooseExampleRows)
	goose.Close()
	return id
}

func TestStrandedRunsMoveIntoGooseStore(t *testing.T) {
	for _, ownVersion := range []int{13, 16} {
		t.Run(fmt.Sprintf("own store at v%d", ownVersion), func(t *testing.T) {
			ctx := context.Background()
			path := DefaultPath(t.TempDir())
			gooseID := gooseStoreAt15(t, path)
			dir := filepath.Dir(path)
			own := ownStore(t, dir, ownVersion)
			ownDB := openAsGoose(t, filepath.Join(dir, OwnStoreName))
			want := map[string]string{}
			for _, id := range own {
				want[id] = ownRows(t, ownDB, id)
			}
			ownDB.Close()
			gooseBefore := dump(t, openAsGoose(t, path), `SELECT * FROM sessions WHERE id = ?`, gooseID)

			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			moved := filepath.Join(dir, OwnStoreName+MovedSuffix)
			if s.Path() != path || s.Notice() == nil || !strings.Contains(s.Notice().Error(), "the 4 sessions goose-ls kept in "+filepath.Join(dir, OwnStoreName)) ||
				!strings.Contains(s.Notice().Error(), "the old file is kept as "+moved) || !strings.Contains(s.Notice().Error(), "(1 of them under new ids") {
				t.Errorf("path %s notice %v", s.Path(), s.Notice())
			}
			if _, err := os.Stat(filepath.Join(dir, OwnStoreName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the own store is still there: %v", err)
			}
			s.Close()

			goose := openAsGoose(t, path)
			copies := copiesOf(t, goose)
			old := openAsGoose(t, moved)
			for _, id := range own {
				if len(copies[id]) != 1 {
					t.Fatalf("session %s has copies %v", id, copies[id])
				}
				copyID := copies[id][0]
				if id == gooseID && copyID == id || id != gooseID && copyID != id {
					t.Errorf("session %s moved as %s (goose's session is %s)", id, copyID, gooseID)
				}
				// every message with its id, content, time and metadata; goose decodes each
				if got := ownRows(t, goose, copyID); got != want[id] {
					t.Errorf("session %s as %s:\n%s\nwant\n%s", id, copyID, got, want[id])
				}
				gooseConversationNamed(t, goose, copyID, id)
				for _, col := range []string{"name", "working_dir", "session_type", "CAST(created_at AS TEXT)", "accumulated_input_tokens", "goose_mode", "provider_name"} {
					var a, b any
					old.QueryRow(`SELECT `+col+` FROM sessions WHERE id = ?`, id).Scan(&a)
					goose.QueryRow(`SELECT `+col+` FROM sessions WHERE id = ?`, copyID).Scan(&b)
					if !cmp.Equal(a, b) {
						t.Errorf("session %s %s: %v, moved %v", id, col, a, b)
					}
				}
			}
			if got := dump(t, goose, `SELECT * FROM sessions WHERE id = ?`, gooseID); got != gooseBefore {
				t.Errorf("goose's own session changed:\n%s\n%s", gooseBefore, got)
			}
			listed := ids(gooseListingAt(t, goose, 15))
			if len(listed) != 4 { // goose's, the two runs, the empty session; not the sub-agent
				t.Errorf("goose lists %v", listed)
			}
			if ownVersion == 16 { // the sub-agent's link follows its parent; the ledger comes along
				run, sub := copies[own[1]][0], copies[own[3]][0]
				var parent string
				goose.QueryRow(`SELECT parent_session_id FROM sessions WHERE id = ?`, sub).Scan(&parent)
				if parent != run {
					t.Errorf("moved sub-agent's parent %s, want %s", parent, run)
				}
				if got := gooseUsageTotals(t, goose, run).String(); got != "in 280 out 55 total 335 cache 120/10 cost NULL" {
					t.Errorf("moved run's totals: %s", got)
				}
				if rows := ledgerRows(t, goose, run); len(rows) != 2 {
					t.Errorf("moved ledger %q", rows)
				}
			} else if got := gooseUsageTotals(t, goose, copies[own[0]][0]).String(); got != "in 250 out 50 total 300 cache 0/0 cost NULL" {
				t.Errorf("moved v13 run's totals (from its columns, as goose reads a session from before the ledger): %s", got)
			}
			var ext string
			goose.QueryRow(`SELECT extension_data FROM sessions WHERE id = ?`, copies[own[0]][0]).Scan(&ext)
			if ext != `{"goose_ls.v0":{"recipe_path":"/w/r.yaml","moved_from":"`+own[0]+`"}}` {
				t.Errorf("extension_data %s", ext)
			}
			goose.Close()
			old.Close()

			// the next start has nothing to say, and goose-ls reads the moved sessions
			s, err = Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Notice() != nil {
				t.Errorf("notice on the next start: %v", s.Notice())
			}
			if _, history, err := s.Get(ctx, copies[own[0]][0]); err != nil || len(history) != 4 {
				t.Errorf("moved run read back: %d messages, %v", len(history), err)
			}
		})
	}
}

// TestStrandedMoveTopsUpACopy: an older goose-ls added messages to its own store after a move had
// copied that session (the move could not rename a file still open); the next move adds them.
func TestStrandedMoveTopsUpACopy(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	gooseStoreAt15(t, path)
	dir := filepath.Dir(path)
	own := ownStore(t, dir, 13)
	ownPath := filepath.Join(dir, OwnStoreName)
	holder := openAsGoose(t, ownPath) // another process with the file open
	if _, err := holder.Exec(`SELECT 1 FROM sessions`); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Notice() == nil || !strings.Contains(s.Notice().Error(), "another goose-ls still has the old file open") {
		t.Errorf("notice %v", s.Notice())
	}
	s.Close()
	// the other goose-ls goes on writing its own store
	old, _, err := openGoose(ctx, ownPath, func(s string) string { return s })
	if err != nil || old == nil {
		t.Fatal(err)
	}
	if err := old.Append(ctx, own[0], provider.Message{Role: provider.User, Text: "written after the copy"}); err != nil {
		t.Fatal(err)
	}
	old.Close()
	holder.Close()

	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Notice() == nil || !strings.Contains(s.Notice().Error(), "the old file is kept as") {
		t.Errorf("notice %v", s.Notice())
	}
	_, history, err := s.Get(ctx, copiesOf(t, s.db)[own[0]][0])
	if err != nil || len(history) != 5 || history[4].Text != "written after the copy" {
		t.Errorf("the copy was not topped up: %d messages %v", len(history), err)
	}
}
