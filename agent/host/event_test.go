// The runEvent fixtures (testdata/runevents, also read by the VS Code and Neovim tests) are exactly what
// Event marshals, and loop events become them.
package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

var allKinds = []EventKind{KindStart, KindText, KindMessage, KindToolStart, KindToolEnd, KindEdit, KindSession, KindUsage,
	KindNotice, KindError, KindFinalOutput, KindDone, KindSubagentDone}

// fixtures reads testdata/runevents/KIND.json: a list of events as the server sends them.
func fixtures(t *testing.T, kind EventKind) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "runevents", string(kind)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatalf("%s.json: %v", kind, err)
	}
	return list
}

func TestEveryKindHasFixturesAndNothingElse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "runevents", "*.json"))
	var got, want []string
	for _, f := range files {
		got = append(got, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	for _, k := range allKinds {
		want = append(want, string(k))
	}
	sort.Strings(got)
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fixture files (-kinds +files):\n%s", diff)
	}
}

func TestFixturesAreExactlyWhatEventMarshals(t *testing.T) {
	for _, kind := range allKinds {
		for i, raw := range fixtures(t, kind) {
			var e Event
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatalf("%s[%d]: %v", kind, i, err)
			}
			if e.Kind != kind {
				t.Errorf("%s[%d] has kind %q", kind, i, e.Kind)
			}
			got, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			json.Compact(&want, raw)
			if string(got) != want.String() {
				t.Errorf("%s[%d]:\n got %s\nwant %s", kind, i, got, want.String())
			}
		}
	}
}

func TestLoopEventsBecomeTheFixtures(t *testing.T) {
	call := &provider.ToolCall{ID: "c1", Name: "edit", Arguments: json.RawMessage(`{"path":"notes.txt","before":"beta","after":"gamma"}`)}
	for _, tc := range []struct {
		kind  EventKind
		index int
		loop  agent.Event
	}{
		{KindText, 0, agent.Event{Kind: agent.EventText, Text: "I will **edit**"}},
		{KindMessage, 0, agent.Event{Kind: agent.EventMessage, Text: agent.MaxTurnsMessage}},
		{KindToolStart, 0, agent.Event{Kind: agent.EventToolStart, Call: call}},
		{KindToolEnd, 0, agent.Event{Kind: agent.EventToolEnd, Call: call, Result: &tools.Result{Text: "edited notes.txt"}}},
		{KindToolEnd, 1, agent.Event{Kind: agent.EventToolEnd, Agent: "sub", Call: &provider.ToolCall{ID: "c2", Name: "edit"}, Result: &tools.Result{Text: "ok\nmore", IsError: true}}},
		{KindUsage, 0, agent.Event{Kind: agent.EventUsage, Usage: provider.Usage{InputTokens: 100, OutputTokens: 10}}},
		{KindNotice, 0, agent.Event{Kind: agent.EventNotice, Text: "Context limit reached. Compacting to continue conversation..."}},
		{KindError, 0, agent.Event{Kind: agent.EventError, Err: errors.New("no provider configured: set GOOSE_PROVIDER")}},
		{KindFinalOutput, 0, agent.Event{Kind: agent.EventFinalOutput, Text: `{"a":1}`}},
		{KindDone, 0, agent.Event{Kind: agent.EventDone, Text: "completed"}},
		{KindSubagentDone, 0, agent.Event{Kind: agent.EventDone, Agent: "sub", Text: "completed"}},
	} {
		got, _ := json.Marshal(fromLoop("run-1", tc.loop))
		var want bytes.Buffer
		json.Compact(&want, fixtures(t, tc.kind)[tc.index])
		if string(got) != want.String() {
			t.Errorf("%s[%d] from the loop:\n got %s\nwant %s", tc.kind, tc.index, got, want.String())
		}
	}
	if e := fromLoop("run-1", agent.Event{Kind: agent.EventTurnStart, Turn: 2}); e.Kind != "" || e.Loop == nil || e.Loop.Turn != 2 {
		t.Errorf("a turn start has no runEvent of its own but keeps the loop event: %+v", e)
	}
}

// BenchmarkEventJSON is the cost of one streamed text delta's runEvent: made from the loop's event and
// marshalled as the language server sends it.
func BenchmarkEventJSON(b *testing.B) {
	le := agent.Event{Kind: agent.EventText, Text: "a streamed piece of the assistant's reply"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(fromLoop("run-1", le)); err != nil {
			b.Fatal(err)
		}
	}
}
