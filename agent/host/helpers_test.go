// Helpers of the host tests: a recording front end, a scripted provider, goose's configuration in a
// temporary folder, an in-memory overlay of recipe files.
package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// recordingFrontend is a front end that allows every call, consents as told and keeps every event.
type recordingFrontend struct {
	mu       sync.Mutex
	events   []Event
	consent  bool
	consents int
	files    recipe.FS
}

func (f *recordingFrontend) Approve(context.Context, *Run, agent.ApprovalRequest) (agent.Decision, error) {
	return agent.Allow, nil
}

func (f *recordingFrontend) Consent(_ context.Context, _ *Run, _ ConsentRequest) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.consents++
	return f.consent
}

func (f *recordingFrontend) Workspace(_ *Run, root string) (tools.Workspace, error) {
	return tools.Disk{Dir: root}, nil
}

func (f *recordingFrontend) Files() recipe.FS    { return f.files }
func (f *recordingFrontend) Asker() render.Asker { return nil }

func (f *recordingFrontend) Event(_ *Run, e Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events = append(f.events, e)
}

// of returns the events of one kind.
func (f *recordingFrontend) of(kind EventKind) []Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Event
	for _, e := range f.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// testEnv is goose's configuration for a test: its own folders, auto mode.
func testEnv(t *testing.T, extra ...string) func(string) (string, bool) {
	t.Helper()
	env := map[string]string{"GOOSE_PATH_ROOT": t.TempDir(), "GOOSE_MODE": "auto"}
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}
}

// script answers the n-th provider call from a list of replies; past its end it says "done".
func script(replies ...provider.Message) agent.ProviderFactory {
	return scriptWith(nil, replies...)
}

// scriptWith is script with a provider setup's secrets.
func scriptWith(secrets []string, replies ...provider.Message) agent.ProviderFactory {
	return func(s provider.Settings) (provider.Setup, error) {
		p := &scripted.Provider{Script: func(n int, _ provider.Request) provider.Message {
			if n < len(replies) {
				return replies[n]
			}
			return provider.Message{Text: "done"}
		}}
		return provider.Setup{Provider: p, Name: "scripted", Model: "m", Secrets: secrets}, nil
	}
}

func call(id, name, args string) provider.Message {
	return provider.Message{ToolCalls: []provider.ToolCall{{ID: id, Name: name, Arguments: json.RawMessage(args)}}}
}

func calls(cs ...provider.ToolCall) provider.Message { return provider.Message{ToolCalls: cs} }

// runToEnd starts a request and waits for its outcome.
func runToEnd(t *testing.T, h *Host, req Request, fe Frontend) (*Run, agent.Outcome) {
	t.Helper()
	r, err := h.Start(context.Background(), req, fe)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return r, out
}

// blockingProvider answers a conversation whose first message is "wait" once release is closed, any
// other at once.
type blockingProvider struct{ release chan struct{} }

func (blockingProvider) Name() string { return "blocking" }
func (b blockingProvider) Stream(ctx context.Context, req provider.Request, _ func(provider.Delta)) (provider.Response, error) {
	if len(req.Messages) == 0 || !strings.Contains(req.Messages[0].Text, "wait") {
		return provider.Response{Message: provider.Message{Role: provider.Assistant, Text: "at once"}}, nil
	}
	select {
	case <-b.release:
	case <-ctx.Done():
		return provider.Response{}, ctx.Err()
	}
	return provider.Response{Message: provider.Message{Role: provider.Assistant, Text: "released"}}, nil
}

func hasTool(ts []provider.Tool, name string) bool {
	for _, t := range ts {
		if t.Name == name {
			return true
		}
	}
	return false
}

// buffers is an in-memory recipe.FS with recipe.Buffers, like the editor's overlay.
type buffers map[string]string

func (b buffers) ReadFile(name string) ([]byte, error) {
	if s, ok := b[name]; ok {
		return []byte(s), nil
	}
	return recipe.ReadRegularFile(name, recipe.DefaultMaxSize)
}

func (b buffers) Buffer(name string) ([]byte, bool) {
	s, ok := b[name]
	return []byte(s), ok
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
