// The store against goose 1.38's own behaviour on real SQLite files: goose first (a v13 store), goose 1.38
// on the store goose-ls creates, resume both ways, concurrent writers.
package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// aRun is a goose-ls run: a prompt, a tool call, its result, the answer.
var aRun = []provider.Message{
	{Role: provider.User, Text: "Write hello.txt <b>& say so</b>"},
	{Role: provider.Assistant, Text: "Writing it.", ToolCalls: []provider.ToolCall{{ID: "toolu_1", Name: "write", Arguments: json.RawMessage(`{"path":"hello.txt","content":"hi\n","n":12345678901234567890}`)}}},
	{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: "toolu_1", Text: "Created hello.txt"}}},
	{Role: provider.Assistant, Text: "Done."},
}

// theExampleHistory is the facts sheet's goose session as goose-ls resumes it.
var theExampleHistory = []provider.Message{
	{Role: provider.User, Text: "Create notes.txt with one line: hello from goose"},
	{Role: provider.Assistant, Text: "I'll create the file.", ToolCalls: []provider.ToolCall{{ID: "call_1", Name: "developer__write",
		Arguments: json.RawMessage(`{"path":"/home/me/notes.txt","content":"hello from goose\n"}`)}}},
	{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: "call_1", Text: "Created /home/me/notes.txt"}}},
	{Role: provider.Assistant, Text: "Created notes.txt."},
}

// compactArgs makes tool arguments comparable whatever their spacing.
func compactArgs(msgs []provider.Message) []provider.Message {
	out := make([]provider.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		out[i].ToolCalls = nil
		for _, c := range m.ToolCalls {
			var b bytes.Buffer
			_ = json.Compact(&b, c.Arguments)
			c.Arguments = b.Bytes()
			out[i].ToolCalls = append(out[i].ToolCalls, c)
		}
	}
	return out
}

func record(t *testing.T, s *Store, meta Session, msgs []provider.Message) string {
	t.Helper()
	rec := &Recorder{Store: s, Meta: meta}
	rec.SetProvider("anthropic", "claude-sonnet-4")
	for _, m := range msgs {
		rec.Record(m)
	}
	rec.Usage(provider.Usage{InputTokens: 100, OutputTokens: 20})
	rec.Usage(provider.Usage{InputTokens: 150, OutputTokens: 30})
	if rec.Err() != nil {
		t.Fatal(rec.Err())
	}
	return rec.SessionID()
}

var gooseTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

func TestGooseFirst(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	os.MkdirAll(filepath.Dir(path), 0o700)
	goose := openAsGoose(t, path)
	if created, _ := gooseFirstRun(t, goose); !created {
		t.Fatal("goose did not create its store")
	}
	gooseID := gooseCreateSession(t, goose, "/home/me", gooseExampleRows)
	gooseSessionBefore := dump(t, goose, `SELECT * FROM sessions WHERE id = ?`, gooseID)
	gooseMessagesBefore := dump(t, goose, `SELECT * FROM messages WHERE session_id = ?`, gooseID)
	versionsBefore := dump(t, goose, `SELECT version FROM schema_version`)

	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Notice() != nil || s.Path() != path {
		t.Fatalf("goose's v13 store not used: %v (%s)", s.Notice(), s.Path())
	}
	recipe, err := RecipeJSON("title: Hello\ndescription: says hello\nprompt: |\n  say hello\nparameters: []\n")
	if err != nil {
		t.Fatal(err)
	}
	id := record(t, s, Session{Name: "Recipe hello.yaml", WorkingDir: "/w", RecipePath: "/w/hello.yaml", Recipe: recipe,
		RecipeValues: map[string]string{"who": "world"}, GooseMode: "approve"}, aRun)
	day := time.Now().UTC().Format("20060102")
	if id != day+"_2" {
		t.Errorf("goose-ls's id %s after goose's %s", id, gooseID)
	}

	// goose's session is untouched and still loads; goose-ls's run is stored in goose's format
	if got := dump(t, goose, `SELECT * FROM sessions WHERE id = ?`, gooseID); got != gooseSessionBefore {
		t.Errorf("goose's session changed:\n%s\n%s", gooseSessionBefore, got)
	}
	if got := dump(t, goose, `SELECT * FROM messages WHERE session_id = ?`, gooseID); got != gooseMessagesBefore {
		t.Errorf("goose's messages changed")
	}
	if got := dump(t, goose, `SELECT version FROM schema_version`); got != versionsBefore {
		t.Errorf("schema_version changed: %s", got)
	}
	if got := len(gooseConversation(t, goose, gooseID)); got != 4 {
		t.Errorf("goose's session has %d rows", got)
	}
	if got := gooseListing(t, goose); !cmp.Equal(got, []string{id, gooseID}) && !cmp.Equal(got, []string{gooseID, id}) {
		t.Errorf("goose lists %v", got)
	}
	rows := gooseConversation(t, goose, id)
	want := []string{
		`user [{"type":"text","text":"Write hello.txt <b>& say so</b>"}] {"userVisible":true,"agentVisible":true}`,
		`assistant [{"type":"text","text":"Writing it."},{"type":"toolRequest","id":"toolu_1","toolCall":{"status":"success","value":{"name":"write","arguments":{"path":"hello.txt","content":"hi\n","n":12345678901234567890}}}}] {"userVisible":true,"agentVisible":true,"inference":{"provider":"anthropic","requestedModel":"claude-sonnet-4"}}`,
		`user [{"type":"toolResponse","id":"toolu_1","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"Created hello.txt"}],"isError":false}}}] {"userVisible":true,"agentVisible":true}`,
		`assistant [{"type":"text","text":"Done."}] {"userVisible":true,"agentVisible":true,"inference":{"provider":"anthropic","requestedModel":"claude-sonnet-4"}}`,
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("goose-ls's rows (-want +got):\n%s", d)
	}
	var name, typ, ext, mode, created, updated, model, values, recipeJSON, providerName string
	var total, in, out, accTotal, accIn, accOut int
	var userSet int
	err = goose.QueryRow(`SELECT name, session_type, extension_data, goose_mode, CAST(created_at AS TEXT), CAST(updated_at AS TEXT), model_config_json,
		user_recipe_values_json, recipe_json, provider_name, total_tokens, input_tokens, output_tokens, accumulated_total_tokens,
		accumulated_input_tokens, accumulated_output_tokens, user_set_name FROM sessions WHERE id = ?`, id).Scan(&name, &typ, &ext, &mode,
		&created, &updated, &model, &values, &recipeJSON, &providerName, &total, &in, &out, &accTotal, &accIn, &accOut, &userSet)
	if err != nil {
		t.Fatal(err)
	}
	if name != "Recipe hello.yaml" || typ != "user" || mode != "approve" || providerName != "anthropic" || userSet != 0 ||
		ext != `{"goose_ls.v0":{"recipe_path":"/w/hello.yaml"}}` || values != `{"who":"world"}` ||
		model != `{"model_name":"claude-sonnet-4","context_limit":null,"temperature":null,"max_tokens":null,"toolshim":false,"toolshim_model":null}` {
		t.Errorf("session columns: %q %q %q %q %q %q %q", name, typ, mode, providerName, ext, values, model)
	}
	if recipeJSON != `{"description":"says hello","parameters":[],"prompt":"say hello\n","title":"Hello"}` {
		t.Errorf("recipe_json %s", recipeJSON)
	}
	if !gooseTimestamp.MatchString(created) || !gooseTimestamp.MatchString(updated) {
		t.Errorf("timestamps %q %q", created, updated)
	}
	if total != 180 || in != 150 || out != 30 || accTotal != 300 || accIn != 250 || accOut != 50 {
		t.Errorf("tokens: latest %d/%d/%d accumulated %d/%d/%d", total, in, out, accTotal, accIn, accOut)
	}
	if gooseSearch(t, goose, "hello") < 2 {
		t.Error("goose's search does not find both sessions' text")
	}

	// goose-ls lists both and reads each back
	list, err := s.List(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("list %+v %v", list, err)
	}
	got, msgs, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(compactArgs(aRun), compactArgs(msgs)); d != "" {
		t.Errorf("goose-ls's run read back (-want +got):\n%s", d)
	}
	if got.RecipePath != "/w/hello.yaml" || got.Model != "claude-sonnet-4" || got.InputTokens != 250 || got.OutputTokens != 50 ||
		got.Messages != 4 || got.RecipeValues["who"] != "world" || got.GooseMode != "approve" || string(got.Recipe) != recipeJSON {
		t.Errorf("session read back %+v", got)
	}

	// resume goose's session in goose-ls: the history is goose's conversation, new rows goose's format
	sess, history, err := s.Get(ctx, gooseID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(compactArgs(theExampleHistory), compactArgs(history)); d != "" {
		t.Errorf("goose's session as history (-want +got):\n%s", d)
	}
	if sess.Name != "CLI Session" || sess.Provider != "openai" || sess.Model != "gpt-4o" || sess.WorkingDir != "/home/me" || sess.InputTokens != 2100 {
		t.Errorf("goose's session %+v", sess)
	}
	again := &Recorder{Store: s, ID: gooseID}
	again.SetProvider("anthropic", "claude-sonnet-4") // goose-ls answers with another model than goose did
	again.Record(provider.Message{Role: provider.User, Text: "Now append a second line"})
	again.Record(provider.Message{Role: provider.Assistant, Text: "Appended."})
	if again.Err() != nil {
		t.Fatal(again.Err())
	}
	if rows := gooseConversation(t, goose, gooseID); len(rows) != 6 || !strings.Contains(rows[5], `"inference":{"provider":"anthropic","requestedModel":"claude-sonnet-4"}`) {
		t.Errorf("resumed goose session rows %v", rows)
	}
}

func TestGooseLSFirst(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := DefaultPath(dir)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := record(t, s, Session{Name: "a run", WorkingDir: "/w"}, aRun)
	s.Close()

	goose := openAsGoose(t, path)
	if created, pending := gooseFirstRun(t, goose); created || len(pending) != 0 {
		t.Fatalf("goose's first run: created %v, pending migrations %v", created, pending)
	}
	if got := dump(t, goose, `SELECT version FROM schema_version`); got != "version=16|\n" {
		t.Errorf("schema_version rows %q", got)
	}
	var mode string
	goose.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal mode %s", mode)
	}
	// the layout is exactly the one goose 1.47.0 creates, which goose 1.38 uses as it is
	ref := openAsGoose(t, filepath.Join(dir, "reference.db"))
	gooseCreateFresh(t, ref, 16)
	layoutQuery := `SELECT m.name, p.cid, p.name, p.type, p."notnull", p.dflt_value, p.pk FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' ORDER BY m.name, p.cid`
	if d := cmp.Diff(dump(t, ref, layoutQuery), dump(t, goose, layoutQuery)); d != "" {
		t.Errorf("tables differ from goose's (-goose +goose-ls):\n%s", d)
	}
	indexQuery := `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`
	normalise := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if d := cmp.Diff(normalise(dump(t, ref, indexQuery)), normalise(dump(t, goose, indexQuery))); d != "" {
		t.Errorf("indexes differ (-goose +goose-ls):\n%s", d)
	}
	if got := gooseListing(t, goose); !cmp.Equal(got, []string{id}) {
		t.Errorf("goose lists %v", got)
	}
	gooseConversation(t, goose, id)

	// goose resumes goose-ls's session and adds a turn; goose creates a session of its own after it
	gooseAddMessage(t, goose, id, "user", `[{"type":"text","text":"and now?"}]`, `{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_x1")
	gooseAddMessage(t, goose, id, "assistant", `[{"type":"thinking","thinking":"hmm","signature":"sig"},{"type":"text","text":"All done."}]`,
		`{"userVisible":true,"agentVisible":true}`, "msg_"+id+"_x2")
	gooseID := gooseCreateSession(t, goose, "/g", gooseExampleRows[:1])
	if want := time.Now().UTC().Format("20060102") + "_2"; gooseID != want {
		t.Errorf("goose's next id %s, want %s", gooseID, want)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, history, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := append(compactArgs(aRun), provider.Message{Role: provider.User, Text: "and now?"}, provider.Message{Role: provider.Assistant, Text: "All done.", Thinking: "hmm"})
	if d := cmp.Diff(want, compactArgs(history)); d != "" {
		t.Errorf("history after goose's turn (-want +got):\n%s", d)
	}
}

func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	const stores, sessionsEach, messagesEach = 2, 4, 10
	var wg sync.WaitGroup
	ids := make(chan string, stores*sessionsEach)
	errs := make(chan error, stores*sessionsEach)
	opened := make([]*Store, stores)
	for i := range opened { // both open the fresh file at once: one creates goose's schema
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(path, nil)
			if err != nil {
				errs <- err
				return
			}
			opened[i] = s
		}()
	}
	wg.Wait()
	for _, s := range opened {
		if s == nil {
			t.Fatal(<-errs)
		}
		defer s.Close()
	}
	for _, s := range opened {
		for j := 0; j < sessionsEach; j++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, err := s.Create(ctx, Session{Name: "c", WorkingDir: "/w"})
				if err != nil {
					errs <- err
					return
				}
				for k := 0; k < messagesEach; k++ {
					if err := s.Append(ctx, id, provider.Message{Role: provider.User, Text: fmt.Sprint("m", k)}); err != nil {
						errs <- err
						return
					}
				}
				ids <- id
			}()
		}
	}
	wg.Wait()
	close(ids)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("id %s given twice", id)
		}
		seen[id] = true
	}
	list, err := opened[0].List(ctx)
	if err != nil || len(list) != stores*sessionsEach || len(seen) != stores*sessionsEach {
		t.Fatalf("list %d sessions, %d ids, %v", len(list), len(seen), err)
	}
	for _, se := range list {
		if se.Messages != messagesEach {
			t.Errorf("%s has %d messages", se.ID, se.Messages)
		}
	}
	goose := openAsGoose(t, path)
	if got := dump(t, goose, `SELECT version FROM schema_version`); got != "version=16|\n" {
		t.Errorf("schema_version %q", got)
	}
}

func TestRedactedAndIDsByMax(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	redact := func(s string) string { return strings.ReplaceAll(s, "sk-secret-123", "[REDACTED]") }
	s, err := Open(path, redact)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Create(ctx, Session{Name: "sk-secret-123", RecipeValues: map[string]string{"token": "sk-secret-123"},
		Recipe: json.RawMessage(`{"title":"t","prompt":"use sk-secret-123"}`)})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []provider.Message{
		{Role: provider.User, Text: "key sk-secret-123"},
		{Role: provider.Assistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "shell", Arguments: json.RawMessage(`{"command":"echo sk-secret-123"}`)}}},
		{Role: provider.User, ToolResults: []provider.ToolResult{{CallID: "c1", Text: "sk-secret-123", IsError: true}}},
	} {
		if err := s.Append(ctx, id, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Append(ctx, "19990101_1", provider.Message{Role: provider.User, Text: "x"}); err == nil {
		t.Error("appending to an unknown session succeeded")
	}
	// ids follow the day's highest number, not the count
	day := time.Now().UTC().Format("20060102")
	gooseExec(t, s.db, `INSERT INTO sessions (id, working_dir) VALUES (?, '/')`, day+"_7")
	next, _ := s.Create(ctx, Session{})
	if next != day+"_8" {
		t.Errorf("next id %s", next)
	}
	s.Close()
	for _, f := range []string{path, path + "-wal"} {
		data, _ := os.ReadFile(f)
		if bytes.Contains(data, []byte("sk-secret-123")) {
			t.Errorf("%s holds the secret", filepath.Base(f))
		}
	}
	s, _ = Open(path, nil)
	defer s.Close()
	_, msgs, err := s.Get(ctx, id)
	if err != nil || len(msgs) != 3 || !msgs[2].ToolResults[0].IsError || msgs[1].ToolCalls[0].Name != "shell" {
		t.Errorf("messages %+v %v", msgs, err)
	}
	if _, _, err := s.Get(ctx, "nope"); err == nil {
		t.Error("unknown id found")
	}
}

func TestRecorderCreatesOnFirstMessageAndResumes(t *testing.T) {
	ctx := context.Background()
	s, err := Open(DefaultPath(t.TempDir()), func(s string) string { return s })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var created []string
	rec := &Recorder{Store: s, Meta: Session{Name: NameFor("/x/hello.yaml", "")}, OnCreate: func(id string) { created = append(created, id) }}
	rec.Usage(provider.Usage{InputTokens: 99}) // before the session exists: nothing to add to
	if rec.SessionID() != "" {
		t.Fatal("session created before any message")
	}
	rec.SetProvider("openai", "gpt-4o")
	rec.SetRecipe("title: T\nprompt: p\n")
	rec.Record(provider.Message{Role: provider.User, Text: "hi"})
	rec.SetProvider("anthropic", "claude") // too late: the session exists
	rec.Record(provider.Message{Role: provider.Assistant, Text: "hello"})
	rec.Usage(provider.Usage{InputTokens: 10, OutputTokens: 3})
	if rec.Err() != nil || len(created) != 1 || created[0] != rec.SessionID() {
		t.Fatalf("err %v created %v id %q", rec.Err(), created, rec.SessionID())
	}
	again := &Recorder{Store: s, ID: rec.SessionID()}
	again.Record(provider.Message{Role: provider.User, Text: "more"})
	sess, msgs, err := s.Get(ctx, rec.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	if sess.Name != "Recipe hello.yaml" || sess.Provider != "openai" || sess.Model != "gpt-4o" || sess.InputTokens != 10 || sess.OutputTokens != 3 ||
		len(msgs) != 3 || msgs[2].Text != "more" || string(sess.Recipe) != `{"prompt":"p","title":"T"}` {
		t.Fatalf("session %+v messages %+v", sess, msgs)
	}
	// resumed with another provider: the session names it from then on, as goose's update_provider does
	resumed := &Recorder{Store: s, ID: rec.SessionID()}
	resumed.SetProvider("anthropic", "claude-sonnet-4")
	resumed.Record(provider.Message{Role: provider.User, Text: "and now?"})
	if sess, _, err = s.Get(ctx, rec.SessionID()); err != nil || sess.Provider != "anthropic" || sess.Model != "claude-sonnet-4" || resumed.Err() != nil {
		t.Errorf("after a resume with another provider: %+v %v %v", sess, err, resumed.Err())
	}
	if got := NameFor("", strings.Repeat("é", 70)); got != strings.Repeat("é", 60)+"…" {
		t.Errorf("long prompt name %q", got)
	}
}

// BenchmarkAppend measures one stored message (BEGIN IMMEDIATE, insert, updated_at, commit in WAL).
func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	s, err := Open(DefaultPath(b.TempDir()), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	id, err := s.Create(ctx, Session{WorkingDir: "/w"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.Append(ctx, id, aRun[1]); err != nil {
			b.Fatal(err)
		}
	}
}
