// SetRecipe and Delete on goose's stores of every version goose-ls writes, read back as goose reads
// them: a deleted session leaves no message and no usage_ledger row, other sessions stay whole.
package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// changeBuilds are goose 1.38's store (version 13) and the later ones.
func changeBuilds() []struct {
	name    string
	version int
	build   func(t *testing.T, db *sql.DB)
} {
	out := []struct {
		name    string
		version int
		build   func(t *testing.T, db *sql.DB)
	}{{"v13 goose 1.38", 13, gooseCreateSchema}}
	for _, b := range gooseBuilds {
		out = append(out, struct {
			name    string
			version int
			build   func(t *testing.T, db *sql.DB)
		}{b.name, b.version, b.build})
	}
	return out
}

func TestDeleteAsGooseAtEveryVersion(t *testing.T) {
	for _, b := range changeBuilds() {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			path := DefaultPath(t.TempDir())
			os.MkdirAll(filepath.Dir(path), 0o700)
			goose := openAsGoose(t, path)
			b.build(t, goose)
			gooseID := gooseCreateSession(t, goose, "/home/me", gooseExampleRows)
			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.SchemaVersion() != b.version {
				t.Fatalf("goose-ls writes version %d, want %d", s.SchemaVersion(), b.version)
			}
			id, subID := recordRunWithSubAgent(t, s)
			if b.version >= 15 && len(ledgerRows(t, goose, id)) == 0 {
				t.Fatal("the run has no usage_ledger rows to delete")
			}

			if err := s.Delete(ctx, id); err != nil {
				t.Fatal(err)
			}
			if n := count(t, goose, `SELECT COUNT(*) FROM sessions WHERE id = ?`, id); n != 0 {
				t.Errorf("the session is still stored (%d)", n)
			}
			if n := count(t, goose, `SELECT COUNT(*) FROM messages WHERE session_id = ?`, id); n != 0 {
				t.Errorf("%d of its messages are still stored", n)
			}
			if b.version >= 15 {
				if got := ledgerRows(t, goose, id); len(got) != 0 {
					t.Errorf("its usage_ledger rows are still stored: %q", got)
				}
				if len(ledgerRows(t, goose, subID)) == 0 {
					t.Error("the sub-agent's usage_ledger rows went with the parent")
				}
			}
			// goose's own delete leaves the other sessions (a delegated one included) as they were
			listed := gooseListing(t, goose)
			if slices.Contains(listed, id) || !slices.Contains(listed, gooseID) {
				t.Errorf("goose lists %v", listed)
			}
			if rows := gooseConversation(t, goose, gooseID); len(rows) != len(gooseExampleRows) {
				t.Errorf("goose's own session has %d rows", len(rows))
			}
			if rows := gooseConversation(t, goose, subID); len(rows) != 2 {
				t.Errorf("the sub-agent's session has %d rows", len(rows))
			}
			if err := s.Delete(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Errorf("deleting it again: %v, want ErrNotFound", err)
			}
		})
	}
}

// count runs a COUNT query as goose would.
func count(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSetRecipeAsGoose(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	s, err := Open(path, func(v string) string { return strings.ReplaceAll(v, "sk-secret", "[REDACTED]") })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := s.Create(ctx, Session{Name: "Review", WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	goose := openAsGoose(t, path)
	column := func(name string) string {
		t.Helper()
		var v sql.NullString
		if err := goose.QueryRow(`SELECT `+name+` FROM sessions WHERE id = ?`, id).Scan(&v); err != nil {
			t.Fatal(err)
		}
		if !v.Valid {
			return "NULL"
		}
		return v.String
	}
	recipe := json.RawMessage(`{"title":"Review","prompt":"use sk-secret"}`)
	if err := s.SetRecipe(ctx, id, recipe, nil); err != nil {
		t.Fatal(err)
	}
	const stored = `{"prompt":"use [REDACTED]","title":"Review"}` // as Create stores a recipe: redacted, compact
	if got := column("recipe_json"); got != stored {
		t.Errorf("recipe_json %s", got)
	}
	if got := column("user_recipe_values_json"); got != "NULL" {
		t.Errorf("no values given, user_recipe_values_json %s", got)
	}
	if err := s.SetRecipe(ctx, id, recipe, map[string]string{"key": "sk-secret", "to": "main"}); err != nil {
		t.Fatal(err)
	}
	if got := column("user_recipe_values_json"); got != `{"key":"[REDACTED]","to":"main"}` {
		t.Errorf("user_recipe_values_json %s", got)
	}
	if err := s.SetRecipe(ctx, id, recipe, map[string]string{}); err != nil {
		t.Fatal(err)
	}
	if got := column("user_recipe_values_json"); got != "{}" { // goose's Some(empty map)
		t.Errorf("empty values: user_recipe_values_json %s", got)
	}
	read, _, err := s.Get(ctx, id)
	if err != nil || string(read.Recipe) != stored || len(read.RecipeValues) != 0 {
		t.Errorf("read back: %s %v %v", read.Recipe, read.RecipeValues, err)
	}
	gooseListing(t, goose) // goose decodes the row
	if err := s.SetRecipe(ctx, "20200101_1", recipe, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown session: %v, want ErrNotFound", err)
	}
}
