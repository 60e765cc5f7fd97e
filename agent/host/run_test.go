// Runs in the host's table: edit events and undo entries carry their turn, the undo cap, pruning of
// finished runs, cancellation, secrets redacted in every event.
package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestEditEventsCarryTheirTurn(t *testing.T) {
	root := t.TempDir()
	h := New(Options{Env: testEnv(t), Providers: script(
		call("c1", "write", `{"path":"a.txt","content":"one\n"}`),
		calls(provider.ToolCall{ID: "c2", Name: "edit", Arguments: json.RawMessage(`{"path":"a.txt","before":"one","after":"two"}`)},
			provider.ToolCall{ID: "c3", Name: "write", Arguments: json.RawMessage(`{"path":"b.txt","content":"bee\n"}`)}),
	)})
	defer h.Close()
	fe := &recordingFrontend{}
	r, out := runToEnd(t, h, Request{Prompt: "edit", Root: root, NoSession: true}, fe)
	if out.Status != agent.StatusCompleted {
		t.Fatalf("status %s", out.Status)
	}
	type edit struct {
		Path    string
		Turn    int
		Created bool
	}
	var got []edit
	for _, e := range fe.of(KindEdit) {
		got = append(got, edit{filepath.Base(e.Path), e.Turn, e.Created})
	}
	// the two calls of turn 2 run concurrently: compare without their order
	want := map[edit]bool{{"a.txt", 1, true}: true, {"a.txt", 2, false}: true, {"b.txt", 2, true}: true}
	if len(got) != 3 || got[0] != (edit{"a.txt", 1, true}) || !want[got[1]] || !want[got[2]] || got[1] == got[2] {
		t.Fatalf("edit events %+v", got)
	}
	turn2, err := r.Edits(2)
	if err != nil || len(turn2) != 2 {
		t.Fatalf("turn 2 edits %+v %v", turn2, err)
	}
	for _, e := range turn2 {
		if filepath.Base(e.Path) == "a.txt" && (string(e.Before) != "one\n" || string(e.After) != "two\n" || e.Created) {
			t.Errorf("a.txt in turn 2: %+v", e)
		}
		if filepath.Base(e.Path) == "b.txt" && (e.Before != nil || string(e.After) != "bee\n" || !e.Created) {
			t.Errorf("b.txt in turn 2: %+v", e)
		}
	}
	if r.Turn() != 3 {
		t.Errorf("the run ended in turn %d, want 3", r.Turn())
	}
}

func TestUndoDataIsCappedPerRun(t *testing.T) {
	root := t.TempDir()
	big := strings.Repeat("x", 60)
	h := New(Options{Env: testEnv(t), MaxUndoBytes: 100, Providers: script(
		call("c1", "write", `{"path":"a.txt","content":"`+big+`"}`),
		call("c2", "write", `{"path":"b.txt","content":"`+big+`"}`),
		call("c3", "write", `{"path":"c.txt","content":"`+strings.Repeat("y", 101)+`"}`),
	)})
	defer h.Close()
	fe := &recordingFrontend{}
	r, _ := runToEnd(t, h, Request{Prompt: "write", Root: root, NoSession: true}, fe)
	if _, err := r.Edits(1); !errors.Is(err, ErrUndoDropped) {
		t.Errorf("turn 1 should be dropped past the cap: %v", err)
	}
	if e, err := r.Edits(2); err != nil || len(e) != 1 || string(e[0].After) != big {
		t.Errorf("turn 2 should be kept: %+v %v", e, err)
	}
	if _, err := r.Edits(3); !errors.Is(err, ErrUndoDropped) {
		t.Errorf("an edit larger than the cap is not kept: %v", err)
	}
	if n := r.UndoBytes(); n != 60 {
		t.Errorf("undo bytes %d, want 60", n)
	}
	if n := len(fe.of(KindEdit)); n != 3 {
		t.Errorf("every edit is still an event: %d", n)
	}
}

func TestFinishedRunsArePrunedRunningOnesKept(t *testing.T) {
	release := make(chan struct{})
	h := New(Options{Env: testEnv(t), MaxFinishedRuns: 2, Providers: func(s provider.Settings) (provider.Setup, error) {
		return provider.Setup{Provider: blockingProvider{release}, Name: "blocking", Model: "m"}, nil
	}})
	defer h.Close()
	root := t.TempDir()
	// the first run waits in its provider until released; the others answer at once
	first, err := h.Start(context.Background(), Request{Prompt: "wait", Root: root, NoSession: true}, &recordingFrontend{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := 0; i < 3; i++ {
		r, _ := runToEnd(t, h, Request{Prompt: "hi", Root: root, NoSession: true}, &recordingFrontend{})
		ids = append(ids, r.ID)
	}
	if h.Run(first.ID) != first {
		t.Errorf("a running run was pruned")
	}
	if h.Run(ids[0]) != nil || h.Run(ids[1]) == nil || h.Run(ids[2]) == nil {
		t.Errorf("want the oldest finished run pruned and the two latest kept: %v %v %v", h.Run(ids[0]), h.Run(ids[1]), h.Run(ids[2]))
	}
	close(release)
	if out, _ := first.Wait(); out.Status != agent.StatusCompleted {
		t.Errorf("released run: %s", out.Status)
	}
	if h.Run(ids[1]) != nil || h.Run(ids[2]) == nil || h.Run(first.ID) != first {
		t.Errorf("after the first run finished, the table should hold it and the latest other one")
	}
}

func TestSecretsAreRedactedInEvents(t *testing.T) {
	const secret = "sk-host-secret-0123456789"
	root := t.TempDir()
	h := New(Options{Env: testEnv(t), Providers: scriptWith([]string{secret},
		provider.Message{Text: "the key is " + secret + ".", ToolCalls: []provider.ToolCall{{ID: "c1", Name: "write", Arguments: json.RawMessage(`{"path":"k.txt","content":"` + secret + `"}`)}}},
		provider.Message{Text: "again " + secret},
	)})
	defer h.Close()
	fe := &recordingFrontend{}
	_, out := runToEnd(t, h, Request{Prompt: "tell", Root: root}, fe)
	b, _ := json.Marshal(fe.events)
	if strings.Contains(string(b), secret) || strings.Contains(out.LastText, secret) {
		t.Fatalf("the secret leaked: %s", b)
	}
	if !strings.Contains(string(b), "the key is") || len(fe.of(KindToolStart)) != 1 {
		t.Fatalf("events missing: %s", b)
	}
	for _, e := range fe.events {
		if e.Loop != nil && (strings.Contains(e.Loop.Text, secret) || (e.Loop.Call != nil && strings.Contains(string(e.Loop.Call.Arguments), secret))) {
			t.Errorf("the loop event leaked: %+v", e.Loop)
		}
	}
	// the file itself holds what the model wrote
	if data, _ := os.ReadFile(filepath.Join(root, "k.txt")); string(data) != secret {
		t.Errorf("file %q", data)
	}
}

func TestCancelEndsTheRun(t *testing.T) {
	h := New(Options{Env: testEnv(t), Providers: func(s provider.Settings) (provider.Setup, error) {
		return provider.Setup{Provider: blockingProvider{make(chan struct{})}, Name: "blocking", Model: "m"}, nil
	}})
	defer h.Close()
	// by Run.Cancel (an editor's goose.cancel, ACP's session/cancel)
	fe := &recordingFrontend{}
	r, err := h.Start(context.Background(), Request{Prompt: "wait", Root: t.TempDir(), NoSession: true}, fe)
	if err != nil {
		t.Fatal(err)
	}
	r.Cancel()
	if out, _ := r.Wait(); out.Status != agent.StatusCancelled {
		t.Errorf("Run.Cancel: status %s", out.Status)
	}
	if done := fe.of(KindDone); len(done) != 1 || done[0].Status != "cancelled" {
		t.Errorf("done events %+v", done)
	}
	// by the caller's context (the CLI's interrupt)
	ctx, cancel := context.WithCancel(context.Background())
	r, err = h.Start(ctx, Request{Prompt: "wait", Root: t.TempDir(), NoSession: true}, &recordingFrontend{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if out, _ := r.Wait(); out.Status != agent.StatusCancelled {
		t.Errorf("cancelled context: status %s", out.Status)
	}
	select {
	case <-r.Context().Done():
	default:
		t.Error("the run's context is still live after the run ended")
	}
}
