// goose-ls on goose's stores of versions 14 to 17, built statement by statement as goose builds them:
// goose first and goose-ls first, resumes both ways, the usage ledger and the totals goose shows, a
// sub-agent's session under its parent, and the listing's order and counts.
package session

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// gooseBuilds are the stores a goose user has at each version: goose 1.38's store migrated by a newer
// goose, or made by it fresh.
var gooseBuilds = []struct {
	name    string
	version int
	v17     string
	build   func(t *testing.T, db *sql.DB)
}{
	{"v14 migrated", 14, "", func(t *testing.T, db *sql.DB) { gooseCreateSchema(t, db); gooseMigrate(t, db, 14, "") }},
	{"v15 migrated", 15, "", func(t *testing.T, db *sql.DB) { gooseCreateSchema(t, db); gooseMigrate(t, db, 15, "") }},
	{"v16 migrated", 16, "", func(t *testing.T, db *sql.DB) { gooseCreateSchema(t, db); gooseMigrate(t, db, 16, "") }},
	{"v16 created by goose 1.47", 16, "", func(t *testing.T, db *sql.DB) { gooseCreateFresh(t, db, 16) }},
	{"v17 parent_delegation migrated", 17, v17Delegation, func(t *testing.T, db *sql.DB) {
		gooseCreateSchema(t, db)
		gooseMigrate(t, db, 17, v17Delegation)
	}},
	{"v17 parent_delegation created", 17, v17Delegation, func(t *testing.T, db *sql.DB) { gooseCreateFresh(t, db, 17) }},
	{"v17 system prompt and container migrated", 17, v17Prompt, func(t *testing.T, db *sql.DB) {
		gooseCreateSchema(t, db)
		gooseMigrate(t, db, 17, v17Prompt)
	}},
}

// recordRunWithSubAgent records aRun with two provider requests (the second with cache counts) and a
// sub-agent delegated between them; it returns the run's and the sub-agent's session ids.
func recordRunWithSubAgent(t *testing.T, s *Store) (string, string) {
	t.Helper()
	rec := &Recorder{Store: s, Meta: Session{Name: "a run", WorkingDir: "/w"}}
	rec.SetProvider("anthropic", "claude-sonnet-4")
	rec.Record(aRun[0])
	rec.Usage(provider.Usage{InputTokens: 100, OutputTokens: 20})
	rec.Record(aRun[1])
	rec.Record(aRun[2])
	sub := rec.SubAgent("/w/sub")
	sub.SetProvider("anthropic", "claude-haiku")
	sub.Record(provider.Message{Role: provider.User, Text: "count the files"})
	sub.Usage(provider.Usage{InputTokens: 30, OutputTokens: 5})
	sub.Record(provider.Message{Role: provider.Assistant, Text: "3 files"})
	rec.Usage(provider.Usage{InputTokens: 150, OutputTokens: 30, CacheReadTokens: 120, CacheWriteTokens: 10})
	rec.Record(aRun[3])
	if rec.Err() != nil || sub.Err() != nil {
		t.Fatal(rec.Err(), sub.Err())
	}
	return rec.SessionID(), sub.SessionID()
}

// checkSubAgent checks the sub-agent's session as goose's summon makes one.
func checkSubAgent(t *testing.T, goose *sql.DB, subID, parent string, linked bool) {
	t.Helper()
	var typ, name, mode, dir string
	if err := goose.QueryRow(`SELECT session_type, name, goose_mode, working_dir FROM sessions WHERE id = ?`, subID).Scan(&typ, &name, &mode, &dir); err != nil {
		t.Fatal(err)
	}
	if typ != "sub_agent" || name != "Delegated task" || mode != "auto" || dir != "/w/sub" {
		t.Errorf("sub-agent session: %s %q %s %s", typ, name, mode, dir)
	}
	if linked {
		var p sql.NullString
		if err := goose.QueryRow(`SELECT parent_session_id FROM sessions WHERE id = ?`, subID).Scan(&p); err != nil || p.String != parent {
			t.Errorf("parent_session_id %v, want %s (%v)", p, parent, err)
		}
	}
	if rows := gooseConversation(t, goose, subID); len(rows) != 2 || !strings.Contains(rows[1], "3 files") {
		t.Errorf("sub-agent rows %q", rows)
	}
}

func TestGooseFirstAtEveryVersion(t *testing.T) {
	for _, b := range gooseBuilds {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			path := DefaultPath(t.TempDir())
			os.MkdirAll(filepath.Dir(path), 0o700)
			goose := openAsGoose(t, path)
			b.build(t, goose)
			gooseID := gooseCreateSession(t, goose, "/home/me", gooseExampleRows) // tokens from before the ledger
			versions, layoutBefore := dump(t, goose, `SELECT version FROM schema_version`), schemaLayout(t, goose)
			ledger := b.version >= 15

			s, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Notice() != nil || s.Path() != path || s.SchemaVersion() != b.version {
				t.Fatalf("goose's v%d store not used as it is: %v (%s, v%d)", b.version, s.Notice(), s.Path(), s.SchemaVersion())
			}
			id, subID := recordRunWithSubAgent(t, s)

			// goose of that version has nothing to do; the layout is as goose left it
			if created, ran := gooseStartAt(t, goose, b.version, b.v17); created || len(ran) > 0 {
				t.Errorf("goose's start: created %v, migrations %v", created, ran)
			}
			if got := dump(t, goose, `SELECT version FROM schema_version`); got != versions {
				t.Errorf("schema_version %q, was %q", got, versions)
			}
			if d := cmp.Diff(layoutBefore, schemaLayout(t, goose)); d != "" {
				t.Errorf("the layout changed (-before +after):\n%s", d)
			}
			list := gooseListingAt(t, goose, b.version)
			if got := ids(list); len(got) != 2 || !slices.Contains(got, id) || !slices.Contains(got, gooseID) {
				t.Errorf("goose lists %v", list)
			}
			if rows := gooseConversation(t, goose, id); len(rows) != 4 {
				t.Errorf("goose-ls's run has %d rows", len(rows))
			}
			checkSubAgent(t, goose, subID, id, ledger)
			var latest, acc, cache string
			goose.QueryRow(`SELECT total_tokens || '/' || input_tokens || '/' || output_tokens,
				accumulated_total_tokens || '/' || accumulated_input_tokens || '/' || accumulated_output_tokens,
				cache_read_tokens || '/' || cache_write_tokens || '/' || accumulated_cache_read_tokens || '/' || accumulated_cache_write_tokens
				FROM sessions WHERE id = ?`, id).Scan(&latest, &acc, &cache)
			if latest != "180/150/30" || acc != "300/250/50" || cache != "120/10/120/10" {
				t.Errorf("token columns: latest %s accumulated %s cache %s", latest, acc, cache)
			}
			if ledger {
				want := []string{
					"model=claude-sonnet-4|input_tokens=100|output_tokens=20|total_tokens=120|cache_read_tokens=<nil>|cache_write_tokens=<nil>|cost=<nil>|cost_source=<nil>|is_compaction=0|ts=integer|",
					"model=claude-sonnet-4|input_tokens=150|output_tokens=30|total_tokens=180|cache_read_tokens=120|cache_write_tokens=10|cost=<nil>|cost_source=<nil>|is_compaction=0|ts=integer|",
				}
				if d := cmp.Diff(want, ledgerRows(t, goose, id)); d != "" {
					t.Errorf("ledger (-want +got):\n%s", d)
				}
				if rows := ledgerRows(t, goose, subID); len(rows) != 1 || !strings.HasPrefix(rows[0], "model=claude-haiku|input_tokens=30|output_tokens=5|total_tokens=35|") {
					t.Errorf("sub-agent's ledger %q", rows)
				}
				// the run's totals take in its sub-agent's
				if got := gooseUsageTotals(t, goose, id).String(); got != "in 280 out 55 total 335 cache 120/10 cost NULL" {
					t.Errorf("goose's totals: %s", got)
				}
			} else if tables, _ := tableNames(ctx, goose); tables["usage_ledger"] {
				t.Error("a v14 store got a usage_ledger")
			}

			// goose-ls continues goose's session: its totals from before the ledger are carried forward
			again := &Recorder{Store: s, ID: gooseID}
			again.SetProvider("anthropic", "claude-sonnet-4")
			again.Record(provider.Message{Role: provider.User, Text: "Now append a second line"})
			again.Usage(provider.Usage{InputTokens: 500, OutputTokens: 50, CacheReadTokens: 400})
			again.Record(provider.Message{Role: provider.Assistant, Text: "Appended."})
			if again.Err() != nil {
				t.Fatal(again.Err())
			}
			if rows := gooseConversation(t, goose, gooseID); len(rows) != 6 {
				t.Errorf("goose's session has %d rows after goose-ls's turn", len(rows))
			}
			if ledger {
				want := []string{
					"model=<nil>|input_tokens=2100|output_tokens=200|total_tokens=2300|cache_read_tokens=0|cache_write_tokens=0|cost=<nil>|cost_source=carried_forward|is_compaction=0|ts=integer|",
					"model=claude-sonnet-4|input_tokens=500|output_tokens=50|total_tokens=550|cache_read_tokens=400|cache_write_tokens=<nil>|cost=<nil>|cost_source=<nil>|is_compaction=0|ts=integer|",
				}
				if d := cmp.Diff(want, ledgerRows(t, goose, gooseID)); d != "" {
					t.Errorf("goose's session's ledger (-want +got):\n%s", d)
				}
				if got := gooseUsageTotals(t, goose, gooseID).String(); got != "in 2600 out 250 total 2850 cache 400/0 cost NULL" {
					t.Errorf("goose's totals of its resumed session: %s", got)
				}
			}

			// goose continues goose-ls's session; goose-ls reads its turn back
			gooseAddMessage(t, goose, id, "user", `[{"type":"text","text":"and now?"}]`, `{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_g1")
			gooseAddMessage(t, goose, id, "assistant", `[{"type":"thinking","thinking":"hmm","signature":"sig"},{"type":"text","text":"All done."}]`,
				`{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_g2")
			if ledger {
				cost := 0.5
				gooseRecordUsage(t, goose, id, gooseUsage{model: "gpt-4o", in: 200, out: 40, cost: &cost, costSource: "provider_reported"})
				if got := gooseUsageTotals(t, goose, id).String(); got != "in 480 out 95 total 575 cache 120/10 cost 0.5000" {
					t.Errorf("goose's totals after its turn: %s", got)
				}
				if rows := ledgerRows(t, goose, id); len(rows) != 3 || strings.Contains(strings.Join(rows, ""), "carried_forward") {
					t.Errorf("goose's record after goose-ls's: %q", rows)
				}
			}
			sess, history, err := s.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := append(compactArgs(aRun), provider.Message{Role: provider.User, Text: "and now?"}, provider.Message{Role: provider.Assistant, Text: "All done.", Thinking: "hmm"})
			if d := cmp.Diff(want, compactArgs(history)); d != "" || sess.Messages != 6 {
				t.Errorf("goose-ls reads %d messages (-want +got):\n%s", sess.Messages, d)
			}
			if ledger && sess.ParentID != "" {
				t.Errorf("a top-level session has parent %s", sess.ParentID)
			}
			if sub, _, err := s.Get(ctx, subID); err != nil || (ledger && sub.ParentID != id) || sub.Type != "sub_agent" {
				t.Errorf("sub-agent read back %+v %v", sub, err)
			}
			// goose-ls lists as goose does
			mine, err := s.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []listed
			for _, m := range mine {
				got = append(got, listed{m.ID, m.Messages})
			}
			if d := cmp.Diff(gooseListingAt(t, goose, b.version), got, cmp.AllowUnexported(listed{})); d != "" {
				t.Errorf("listing (-goose +goose-ls):\n%s", d)
			}
		})
	}
}

func TestGooseLSFirstThenEveryGoose(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := DefaultPath(dir)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Notice() != nil || s.SchemaVersion() != CreateSchemaVersion {
		t.Fatalf("new store: %v, v%d", s.Notice(), s.SchemaVersion())
	}
	id, subID := recordRunWithSubAgent(t, s)
	s.Close()
	// exactly the store goose 1.47.0 creates
	made := openAsGoose(t, path)
	ref := openAsGoose(t, filepath.Join(dir, "reference.db"))
	gooseCreateFresh(t, ref, 16)
	if d := cmp.Diff(schemaLayout(t, ref), schemaLayout(t, made)); d != "" {
		t.Errorf("layout differs from goose 1.47.0's (-goose +goose-ls):\n%s", d)
	}
	if got := dump(t, made, `SELECT version FROM schema_version`); got != "version=16|\n" {
		t.Errorf("schema_version %q", got)
	}
	var mode string
	made.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	made.Close()
	if mode != "wal" {
		t.Errorf("journal mode %s", mode)
	}
	original, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	for _, g := range []struct {
		name    string
		version int
		v17     string
		ran     []int
	}{{"goose at v14", 14, "", nil}, {"goose at v15", 15, "", nil}, {"goose at v16", 16, "", nil},
		{"goose at v17 (parent_delegation)", 17, v17Delegation, []int{17}}, {"goose at v17 (system prompt, container)", 17, v17Prompt, []int{17}}} {
		t.Run(g.name, func(t *testing.T) {
			copyPath := DefaultPath(t.TempDir())
			os.MkdirAll(filepath.Dir(copyPath), 0o700)
			if err := os.WriteFile(copyPath, original, 0o600); err != nil {
				t.Fatal(err)
			}
			goose := openAsGoose(t, copyPath)
			if created, ran := gooseStartAt(t, goose, g.version, g.v17); created || !cmp.Equal(ran, g.ran) {
				t.Fatalf("goose's start: created %v, migrations %v", created, ran)
			}
			if got := ids(gooseListingAt(t, goose, g.version)); !cmp.Equal(got, []string{id}) {
				t.Errorf("goose lists %v", got)
			}
			gooseConversation(t, goose, id)
			checkSubAgent(t, goose, subID, id, true)
			ledger := g.version >= 15
			if ledger {
				if got := gooseUsageTotals(t, goose, id).String(); got != "in 280 out 55 total 335 cache 120/10 cost NULL" {
					t.Errorf("goose's totals: %s", got)
				}
			}
			gooseAddMessage(t, goose, id, "user", `[{"type":"text","text":"and now?"}]`, `{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_g1")
			gooseAddMessage(t, goose, id, "assistant", `[{"type":"text","text":"All done."}]`, `{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_g2")
			gooseChild := ""
			if ledger { // goose's turn, and a task goose delegates from goose-ls's session
				gooseRecordUsage(t, goose, id, gooseUsage{model: "gpt-4o", in: 200, out: 40})
				gooseChild = gooseCreateSubAgent(t, goose, id, "/g", g.version)
				gooseAddMessage(t, goose, gooseChild, "user", `[{"type":"text","text":"look"}]`, `{"userVisible":true,"agentVisible":true}`, "msg_"+gooseChild+"_1")
				gooseRecordUsage(t, goose, gooseChild, gooseUsage{model: "gpt-4o", in: 7, out: 3, cacheRead: 5})
			}
			goose.Close()

			// goose-ls again, on the store as goose left it (v17 after goose 17's migration)
			s, err := Open(copyPath, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Notice() != nil || s.SchemaVersion() != max(16, g.version) {
				t.Fatalf("reopened: %v v%d", s.Notice(), s.SchemaVersion())
			}
			_, history, err := s.Get(ctx, id)
			if err != nil || len(history) != 6 || history[5].Text != "All done." {
				t.Fatalf("history %d %v", len(history), err)
			}
			if gooseChild != "" {
				if child, _, err := s.Get(ctx, gooseChild); err != nil || child.ParentID != id || child.Type != "sub_agent" {
					t.Errorf("goose's sub-agent session read back %+v %v", child, err)
				}
			}
			rec := &Recorder{Store: s, ID: id}
			rec.SetProvider("anthropic", "claude-sonnet-4")
			rec.Record(provider.Message{Role: provider.User, Text: "one more"})
			rec.Usage(provider.Usage{InputTokens: 10, OutputTokens: 1})
			rec.Record(provider.Message{Role: provider.Assistant, Text: "ok"})
			if rec.Err() != nil {
				t.Fatal(rec.Err())
			}
			goose = openAsGoose(t, copyPath)
			if rows := gooseConversation(t, goose, id); len(rows) != 8 {
				t.Errorf("%d rows", len(rows))
			}
			if ledger {
				if got := gooseUsageTotals(t, goose, id).String(); got != "in 497 out 99 total 596 cache 125/10 cost NULL" {
					t.Errorf("goose's totals at the end: %s", got)
				}
			}
		})
	}
}

// TestListingOrderAndCountsAsGoose: the newest message first (a timestamp in milliseconds read as such),
// a session without messages by its last update, ties by id; only messages shown to the user count.
func TestListingOrderAndCountsAsGoose(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	os.MkdirAll(filepath.Dir(path), 0o700)
	goose := openAsGoose(t, path)
	gooseCreateFresh(t, goose, 16)
	visible := `{"userVisible":true,"agentVisible":true}`
	old := gooseCreateSession(t, goose, "/a", nil)
	gooseExec(t, goose, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, 'user', ?, ?, ?)`,
		"msg_"+old+"_1", old, `[{"type":"text","text":"old"}]`, 1700000000, visible)
	ms := gooseCreateSession(t, goose, "/b", nil) // goose desktop's milliseconds
	gooseExec(t, goose, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, 'user', ?, ?, ?)`,
		"msg_"+ms+"_1", ms, `[{"type":"text","text":"ms"}]`, int64(1750000000123), visible)
	gooseExec(t, goose, `INSERT INTO messages (message_id, session_id, role, content_json, created_timestamp, metadata_json) VALUES (?, ?, 'user', ?, ?, ?)`,
		"msg_"+ms+"_2", ms, `[{"type":"text","text":"summary"}]`, int64(1750000000124), `{"userVisible":false,"agentVisible":true}`)
	empty := gooseCreateSession(t, goose, "/c", nil) // updated now: newest
	// the old session was updated after the other's last message: only its message's time must count
	gooseExec(t, goose, `UPDATE sessions SET updated_at = '2024-01-01 00:00:00' WHERE id = ?`, ms)
	gooseExec(t, goose, `UPDATE sessions SET updated_at = '2025-07-01 00:00:00' WHERE id = ?`, old)
	want := []listed{{empty, 0}, {ms, 1}, {old, 1}}
	if got := gooseListingAt(t, goose, 16); !cmp.Equal(got, want, cmp.AllowUnexported(listed{})) {
		t.Fatalf("goose lists %v, the test expects %v", got, want)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	list, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []listed
	for _, l := range list {
		got = append(got, listed{l.ID, l.Messages})
	}
	if !cmp.Equal(got, want, cmp.AllowUnexported(listed{})) {
		t.Errorf("goose-ls lists %v, goose %v", got, want)
	}
	if list[1].LastMessageAt.Unix() != 1750000000 {
		t.Errorf("last message at %v", list[1].LastMessageAt)
	}
}
