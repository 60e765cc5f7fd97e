// The loop against scripted vendor servers: tools, errors fed back, parallel calls, max_turns, final
// output, retry, compaction, approval modes and cancellation.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) add(e Event) { r.mu.Lock(); r.events = append(r.events, e); r.mu.Unlock() }
func (r *recorder) kinds(k EventKind) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func devConfig(t *testing.T, p provider.Provider, extra ...Mount) (Config, string, *recorder) {
	t.Helper()
	root := t.TempDir()
	rec := &recorder{}
	dev := &tools.Developer{WS: tools.Disk{Dir: root}}
	mounts := append([]Mount{{Ext: dev}}, extra...)
	return Config{Provider: p, Model: "m", System: "sys", Tools: NewToolbox(mounts...), WorkDir: root, Events: rec.add}, root, rec
}

func call(name, args string) wiretest.Call { return wiretest.Call{Name: name, Args: args} }

// lastToolResults returns the tool results the model received in request n.
func toolResultsText(body map[string]any) string {
	b, _ := json.Marshal(body["messages"])
	return string(b)
}

func TestToolsRunAndErrorsGoBackToTheModel(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(
				wiretest.Reply{Text: "Writing.", Calls: []wiretest.Call{
					call("write", `{"path":"src/hello.txt","content":"hello\nworld\n"}`),
					call("shell", `{"command":"echo from-shell; exit 3"}`),
				}},
				wiretest.Reply{Calls: []wiretest.Call{call("edit", `{"path":"src/hello.txt","before":"nope","after":"x"}`)}},
				wiretest.Reply{Calls: []wiretest.Call{call("edit", `{"path":"src/hello.txt","before":"world","after":"goose"}`)}},
				wiretest.Reply{Text: "All done."},
			))
			defer srv.Close()
			cfg, root, rec := devConfig(t, v.Provider(srv.URL))
			out := Run(context.Background(), cfg, nil, "make a file")
			if out.Status != StatusCompleted || out.Err != nil {
				t.Fatalf("status %s err %v", out.Status, out.Err)
			}
			data, _ := os.ReadFile(filepath.Join(root, "src/hello.txt"))
			if string(data) != "hello\ngoose\n" {
				t.Errorf("file: %q", data)
			}
			reqs := srv.Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests", len(reqs))
			}
			second := toolResultsText(reqs[1])
			for _, want := range []string{"Created src/hello.txt (2 lines)", "from-shell", "Command exited with code 3"} {
				if !strings.Contains(second, want) {
					t.Errorf("request 2 lacks %q: %s", want, second)
				}
			}
			if !strings.Contains(toolResultsText(reqs[2]), "No match found for the specified text.") {
				t.Errorf("edit error not returned to the model")
			}
			if got := len(rec.kinds(EventToolEnd)); got != 4 {
				t.Errorf("%d tool end events", got)
			}
			var text strings.Builder
			for _, e := range rec.kinds(EventText) {
				text.WriteString(e.Text)
			}
			if text.String() != "Writing.All done." {
				t.Errorf("streamed text %q", text.String())
			}
			if out.LastText != "All done." || out.Usage.InputTokens == 0 {
				t.Errorf("outcome %+v", out)
			}
		})
	}
}

// sleeper is an extension whose tool sleeps and counts how many calls run at once.
type sleeper struct {
	d        time.Duration
	inFlight atomic.Int32
	peak     atomic.Int32
}

func (s *sleeper) Name() string         { return "sleepy" }
func (s *sleeper) Unprefixed() bool     { return false }
func (s *sleeper) Instructions() string { return "" }
func (s *sleeper) Close() error         { return nil }
func (s *sleeper) Tools() []tools.Spec {
	return []tools.Spec{{Name: "nap", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}
func (s *sleeper) Call(ctx context.Context, _ string, _ json.RawMessage) tools.Result {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	select {
	case <-time.After(s.d):
		return tools.Result{Text: "rested"}
	case <-ctx.Done():
		return tools.Result{Text: "woken", IsError: true}
	}
}

func TestToolCallsOfATurnRunConcurrently(t *testing.T) {
	var calls []wiretest.Call
	for i := 0; i < 8; i++ {
		calls = append(calls, call("sleepy__nap", `{}`))
	}
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: calls}, wiretest.Reply{Text: "ok"}))
	defer srv.Close()
	s := &sleeper{d: 50 * time.Millisecond}
	cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL), Mount{Ext: s})
	out := Run(context.Background(), cfg, nil, "nap")
	if out.Status != StatusCompleted {
		t.Fatal(out.Status, out.Err)
	}
	if p := s.peak.Load(); p != 8 {
		t.Errorf("peak concurrency %d, want 8", p)
	}
	if n := strings.Count(toolResultsText(srv.Requests()[1]), "rested"); n != 8 {
		t.Errorf("%d results", n)
	}
}

func TestMaxTurns(t *testing.T) {
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{call("tree", `{"path":"."}`)}}))
	defer srv.Close()
	cfg, _, rec := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
	cfg.MaxTurns = 3
	out := Run(context.Background(), cfg, nil, "loop forever")
	if out.Status != StatusMaxTurns || len(srv.Requests()) != 3 {
		t.Fatalf("status %s after %d requests", out.Status, len(srv.Requests()))
	}
	if msgs := rec.kinds(EventMessage); len(msgs) != 1 || msgs[0].Text != MaxTurnsMessage {
		t.Errorf("messages %+v", msgs)
	}
}

func TestFinalOutputValidatedAndNudged(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"},"files":{"type":"array","items":{"type":"string"}}},"required":["count","files"]}`)
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(wiretest.Replies(
				wiretest.Reply{Text: "Here you go: 2 files"}, // no tool: nudged
				wiretest.Reply{Calls: []wiretest.Call{call("recipe__final_output", `{"count":"two"}`)}},
				wiretest.Reply{Calls: []wiretest.Call{call("recipe__final_output", `{"count": 2, "files": ["a", "b"]}`)}},
				wiretest.Reply{Text: "should not be asked"},
			))
			defer srv.Close()
			fo, err := NewFinalOutput(schema)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, rec := devConfig(t, v.Provider(srv.URL), Mount{Ext: fo})
			cfg.FinalOutput = fo
			out := Run(context.Background(), cfg, nil, "count")
			if out.Status != StatusCompleted || out.FinalOutput != `{"count":2,"files":["a","b"]}` {
				t.Fatalf("%s %q", out.Status, out.FinalOutput)
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Errorf("%d requests", len(reqs))
			}
			if !strings.Contains(toolResultsText(reqs[1]), "You MUST call the `final_output` tool NOW") {
				t.Error("no nudge")
			}
			third := toolResultsText(reqs[2])
			if !strings.Contains(third, "Validation failed") || !strings.Contains(third, "/count") || !strings.Contains(third, "Expected format") {
				t.Errorf("validation error not sent: %s", third)
			}
			if f := rec.kinds(EventFinalOutput); len(f) != 1 || f[0].Text != out.FinalOutput {
				t.Errorf("final output events %+v", f)
			}
		})
	}
	if _, err := NewFinalOutput(json.RawMessage(`{}`)); err == nil || !strings.Contains(err.Error(), "empty json_schema") {
		t.Errorf("empty schema: %v", err)
	}
}

func TestRetryResetsTheConversationUntilChecksPass(t *testing.T) {
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		msgs := body["messages"].([]any)
		// a fresh conversation (system + prompt) starts every attempt
		if len(msgs) == 2 {
			if n == 0 {
				return wiretest.Reply{Text: "I think it's done."}
			}
			return wiretest.Reply{Calls: []wiretest.Call{call("write", `{"path":"done.txt","content":"ok"}`)}}
		}
		return wiretest.Reply{Text: "written"}
	})
	defer srv.Close()
	cfg, root, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
	cfg.Retry = &Retry{MaxRetries: 2, Checks: []string{"test -f done.txt"}, OnFailure: "echo cleanup >> failures.log"}
	out := Run(context.Background(), cfg, nil, "create done.txt")
	if out.Status != StatusCompleted {
		t.Fatalf("%s %v", out.Status, out.Err)
	}
	if log, _ := os.ReadFile(filepath.Join(root, "failures.log")); string(log) != "cleanup\n" {
		t.Errorf("on_failure ran %q", log)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests", n)
	}

	// never passing: exhausted after max_retries
	srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "nope"}))
	defer srv2.Close()
	cfg2, _, rec := devConfig(t, wiretest.Vendors[0].Provider(srv2.URL))
	cfg2.Retry = &Retry{MaxRetries: 2, Checks: []string{"false"}}
	out = Run(context.Background(), cfg2, nil, "x")
	if out.Status != StatusRetriesExhausted || len(srv2.Requests()) != 3 {
		t.Fatalf("%s after %d requests", out.Status, len(srv2.Requests()))
	}
	if m := rec.kinds(EventMessage); len(m) != 1 || m[0].Text != "Maximum retry attempts (2) exceeded. Unable to complete the task successfully." {
		t.Errorf("%+v", m)
	}
}

func TestContextLengthErrorCompactsAndContinues(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			srv := v.Serve(func(n int, body map[string]any) wiretest.Reply {
				s := toolResultsText(body)
				switch {
				case strings.Contains(s, "Summarise this conversation"):
					return wiretest.Reply{Text: "SUMMARY: the user wants a tree."}
				case n == 0:
					return wiretest.Reply{Calls: []wiretest.Call{call("tree", `{"path":"."}`)}}
				case strings.Contains(s, "SUMMARY:"):
					return wiretest.Reply{Text: "continued after compaction"}
				}
				return wiretest.ContextLengthError(v.Name)
			})
			defer srv.Close()
			cfg, _, rec := devConfig(t, v.Provider(srv.URL))
			out := Run(context.Background(), cfg, nil, "show the tree")
			if out.Status != StatusCompleted || out.LastText != "continued after compaction" {
				t.Fatalf("%s %q %v", out.Status, out.LastText, out.Err)
			}
			var notices []string
			for _, e := range rec.kinds(EventNotice) {
				notices = append(notices, e.Text)
			}
			if !strings.Contains(strings.Join(notices, "|"), "Context limit reached. Compacting to continue conversation...") {
				t.Errorf("notices %v", notices)
			}
		})
	}
	// a second failure right after compaction stops the run
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		if strings.Contains(toolResultsText(body), "Summarise this conversation") {
			return wiretest.Reply{Text: "summary"}
		}
		if n == 0 {
			return wiretest.Reply{Calls: []wiretest.Call{call("tree", `{"path":"."}`)}}
		}
		return wiretest.ContextLengthError("openai")
	})
	defer srv.Close()
	cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
	out := Run(context.Background(), cfg, nil, "x")
	if out.Status != StatusProviderError || !strings.HasPrefix(out.LastText, "Unable to continue: Context limit still exceeded") {
		t.Errorf("%s %q", out.Status, out.LastText)
	}
}

func TestProactiveCompaction(t *testing.T) {
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		if strings.Contains(toolResultsText(body), "Summarise this conversation") {
			return wiretest.Reply{Text: "short summary"}
		}
		if n == 0 {
			return wiretest.Reply{Calls: []wiretest.Call{call("shell", `{"command":"head -c 6000 /dev/zero | tr '\\0' x"}`)}}
		}
		return wiretest.Reply{Text: fmt.Sprintf("saw %d messages", len(body["messages"].([]any)))}
	})
	defer srv.Close()
	cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
	cfg.ContextLimit = 1500 // ~6000 bytes of output pass 80 % of it
	out := Run(context.Background(), cfg, nil, "make noise")
	if out.Status != StatusCompleted || out.LastText != "saw 4 messages" { // system + summary + ack + request
		t.Fatalf("%s %q", out.Status, out.LastText)
	}
}

func TestApprovalModes(t *testing.T) {
	script := wiretest.Replies(
		wiretest.Reply{Calls: []wiretest.Call{call("tree", `{"path":"."}`), call("write", `{"path":"a.txt","content":"a"}`), call("shell", `{"command":"echo hi > b.txt"}`)}},
		wiretest.Reply{Text: "done"},
	)
	cases := []struct {
		mode          Mode
		answer        Decision
		wantAsked     []string
		wantA, wantB  bool
		wantDeclined  int
		wantChatSkips int
	}{
		{ModeAuto, Deny, nil, true, true, 0, 0},
		{ModeApprove, Deny, []string{"tree", "write", "shell"}, false, false, 3, 0},
		{ModeApprove, Allow, []string{"tree", "write", "shell"}, true, true, 0, 0},
		{ModeSmartApprove, Deny, []string{"write", "shell"}, false, false, 2, 0},
		{ModeChat, Allow, nil, false, false, 0, 3},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%d", c.mode, c.answer), func(t *testing.T) {
			srv := wiretest.OpenAI(script)
			defer srv.Close()
			cfg, root, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
			cfg.Mode = c.mode
			var asked []string
			cfg.Approver = ApproverFunc(func(_ context.Context, req ApprovalRequest) (Decision, error) {
				asked = append(asked, req.Tool)
				return c.answer, nil
			})
			out := Run(context.Background(), cfg, nil, "go")
			if out.Status != StatusCompleted {
				t.Fatal(out.Status)
			}
			if strings.Join(asked, ",") != strings.Join(c.wantAsked, ",") {
				t.Errorf("asked %v, want %v", asked, c.wantAsked)
			}
			_, errA := os.Stat(filepath.Join(root, "a.txt"))
			_, errB := os.Stat(filepath.Join(root, "b.txt"))
			if (errA == nil) != c.wantA || (errB == nil) != c.wantB {
				t.Errorf("a.txt %v b.txt %v", errA, errB)
			}
			second := toolResultsText(srv.Requests()[1])
			if n := strings.Count(second, "The user has declined to run this tool"); n != c.wantDeclined {
				t.Errorf("%d declined", n)
			}
			if n := strings.Count(second, "skipped in goose chat mode"); n != c.wantChatSkips {
				t.Errorf("%d chat skips", n)
			}
			if c.mode == ModeChat {
				if _, ok := srv.Requests()[0]["tools"]; ok {
					t.Error("chat mode sent tools")
				}
			}
		})
	}
	// a user permission wins over the mode; classic names apply
	perms := &Permissions{}
	perms.Set("developer__text_editor", AlwaysAllowLevel)
	perms.Set("shell", NeverAllowLevel)
	if policy(ModeApprove, perms, "write", tools.Spec{}) != verdictRun || policy(ModeApprove, perms, "shell", tools.Spec{}) != verdictDeny {
		t.Error("permissions ignored")
	}
}

func TestCancellationStopsStreamAndTools(t *testing.T) {
	// a hanging stream
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "thinking very hard", Hang: true}))
	defer srv.Close()
	cfg, _, rec := devConfig(t, wiretest.Vendors[0].Provider(srv.URL))
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Events = func(e Event) {
		rec.add(e)
		if e.Kind == EventText {
			cancel()
		}
	}
	out := Run(ctx, cfg, nil, "x")
	if out.Status != StatusCancelled {
		t.Errorf("stream: %s", out.Status)
	}

	// a long shell command: the process group is killed
	srv2 := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Calls: []wiretest.Call{call("shell", `{"command":"sleep 30 & echo $! > pid; wait"}`)}}, wiretest.Reply{Text: "x"}))
	defer srv2.Close()
	cfg2, root, _ := devConfig(t, wiretest.Vendors[0].Provider(srv2.URL))
	ctx2, cancel2 := context.WithCancel(context.Background())
	cfg2.Events = func(e Event) {
		if e.Kind == EventToolStart {
			go func() {
				for i := 0; i < 200; i++ {
					if b, err := os.ReadFile(filepath.Join(root, "pid")); err == nil && len(b) > 0 {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				cancel2()
			}()
		}
	}
	start := time.Now()
	out = Run(ctx2, cfg2, nil, "x")
	if out.Status != StatusCancelled {
		t.Errorf("tool: %s", out.Status)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %v", el)
	}
	b, _ := os.ReadFile(filepath.Join(root, "pid"))
	var pid int
	fmt.Sscan(string(b), &pid)
	if pid > 0 {
		deadline := time.Now().Add(2 * time.Second)
		for processAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if processAlive(pid) {
			t.Errorf("background child %d survived cancellation", pid)
		}
	}
}

func processAlive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// a zombie (state Z) is dead
	fields := strings.Fields(string(data))
	return len(fields) > 2 && fields[2] != "Z"
}
