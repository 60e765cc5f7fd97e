// The pipelined session recorder: writes never wait for the store, the store opens once the first
// request is written (or something waits), everything queued is stored in order by the time close
// returns, reads see the writes queued before them, and a store that cannot open stores nothing without
// blocking the run.

package host

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/session"
)

func TestQueuedRecorderWritesWithoutWaitingForTheStore(t *testing.T) {
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	release := make(chan struct{})
	var created []string
	q := newQueuedRecorder(&session.Recorder{Meta: session.Session{Name: "queued", WorkingDir: "/w"},
		OnCreate: func(id string) { created = append(created, id) }},
		func() (*session.Store, error) { <-release; return store, nil }, 0)

	// the store is not open yet: none of these may wait for it (the test would hang)
	q.SetProvider("openai", "gpt-4o")
	if _, found := q.ExtensionData("todo"); found {
		t.Fatal("a new session has no extension data")
	}
	q.Record(provider.Message{Role: provider.User, Text: "first"})
	q.Record(provider.Message{Role: provider.Assistant, Text: "second"})
	q.Usage(provider.Usage{InputTokens: 10, OutputTokens: 2})
	q.Record(provider.Message{Role: provider.User, Text: "third"})
	close(release)

	// a read after the writes sees them: the session exists and holds the value set through the queue
	if err := q.SetExtensionData("todo", map[string]string{"content": "- [ ] a"}); err != nil {
		t.Fatal(err)
	}
	raw, found := q.ExtensionData("todo")
	if !found || string(raw) != `{"content":"- [ ] a"}` {
		t.Fatalf("extension data after the first message: %s %v", raw, found)
	}
	if err := q.close(); err != nil {
		t.Fatal(err)
	}
	if len(created) != 1 {
		t.Fatalf("OnCreate calls: %v", created)
	}
	sess, history, err := store.Get(context.Background(), created[0])
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range history {
		texts = append(texts, string(m.Role)+":"+m.Text)
	}
	if diff := cmp.Diff([]string{"user:first", "assistant:second", "user:third"}, texts); diff != "" {
		t.Errorf("stored messages (-want +got):\n%s", diff)
	}
	if sess.Name != "queued" || sess.Provider != "openai" || sess.Model != "gpt-4o" {
		t.Errorf("session meta: name %q provider %q model %q", sess.Name, sess.Provider, sess.Model)
	}
	if sess.InputTokens != 10 || sess.OutputTokens != 2 {
		t.Errorf("usage not stored: %d in, %d out", sess.InputTokens, sess.OutputTokens)
	}
}

func TestQueuedRecorderExtensionDataBeforeTheFirstMessage(t *testing.T) {
	release := make(chan struct{})
	q := newQueuedRecorder(&session.Recorder{}, func() (*session.Store, error) {
		<-release
		return nil, errors.New("no store")
	}, 0)
	set := make(chan error, 1)
	go func() { set <- q.SetExtensionData("todo", "kept") }()
	// the value is answered at once, before the store (still opening) has it
	for {
		if raw, found := q.ExtensionData("todo"); found {
			var v string
			if json.Unmarshal(raw, &v) != nil || v != "kept" {
				t.Fatalf("extension data %s", raw)
			}
			break
		}
		runtime.Gosched()
	}
	close(release)
	if err := <-set; err != nil {
		t.Fatalf("a store that did not open stores nothing, without an error per write: %v", err)
	}
	q.Record(provider.Message{Role: provider.User, Text: "not stored"})
	if err := q.close(); err != nil {
		t.Fatal(err)
	}
	// after close, writes are dropped and reads answer at once
	q.Record(provider.Message{Role: provider.User, Text: "late"})
	if _, found := q.ExtensionData("other"); found {
		t.Fatal("found a value never set")
	}
}

func TestQueuedRecorderOpensTheStoreOnceTheFirstRequestIsWritten(t *testing.T) {
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var mu sync.Mutex
	var order []string
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	var id string
	q := newQueuedRecorder(&session.Recorder{Meta: session.Session{Name: "gated"}, OnCreate: func(s string) { id = s }},
		func() (*session.Store, error) { note("open"); return store, nil }, time.Hour)
	q.SetProvider("openai", "gpt-4o")
	q.Record(provider.Message{Role: provider.User, Text: "first"})
	runtime.Gosched()
	note("request written")
	q.openNow() // what the host's httptrace hook does
	q.Record(provider.Message{Role: provider.Assistant, Text: "reply"})
	if err := q.close(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"request written", "open"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if _, history, err := store.Get(context.Background(), id); err != nil || len(history) != 2 {
		t.Errorf("stored %d messages: %v", len(history), err)
	}

	// with no request ever written, closing the recorder still opens the store and writes everything
	q = newQueuedRecorder(&session.Recorder{Meta: session.Session{Name: "never sent"}, OnCreate: func(s string) { id = s }},
		func() (*session.Store, error) { return store, nil }, time.Hour)
	q.Record(provider.Message{Role: provider.User, Text: "only"})
	if err := q.close(); err != nil {
		t.Fatal(err)
	}
	if sess, history, err := store.Get(context.Background(), id); err != nil || len(history) != 1 || sess.Name != "never sent" {
		t.Errorf("stored %+v with %d messages: %v", sess, len(history), err)
	}
}
