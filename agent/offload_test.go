// Tool-output offload: a result text over the limit (in Unicode scalars) is saved, redacted, where goose
// saves it (a new 0600 goose_mcp_response_<random>.txt of the temporary folder, kept after the run), and
// the model gets goose's sentence instead.

package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// printer is an extension whose tool returns the text it was built with.
type printer struct{ text string }

func (p *printer) Name() string         { return "printer" }
func (p *printer) Unprefixed() bool     { return false }
func (p *printer) Instructions() string { return "" }
func (p *printer) Close() error         { return nil }
func (p *printer) Tools() []tools.Spec {
	return []tools.Spec{{Name: "print", InputSchema: json.RawMessage(`{"type":"object"}`)}}
}
func (p *printer) Call(context.Context, string, json.RawMessage) tools.Result {
	return tools.Result{Text: p.text}
}

var offloadSentence = regexp.MustCompile(`The response returned from the tool call was larger \((\d+) characters\) and is stored in the file which you can use other tools to examine or search in: ([^"\s]+)`)

func TestLargeToolOutputIsOffloaded(t *testing.T) {
	const secret = "sk-offload-<&>-0123456789"
	text := strings.Repeat("x", 125000) + secret + strings.Repeat("y", 125000-len(secret))
	var mu sync.Mutex
	var sent string
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		if n == 0 {
			return wiretest.Reply{Calls: []wiretest.Call{call("printer__print", `{}`)}}
		}
		mu.Lock()
		defer mu.Unlock()
		sent = toolResultsText(body)
		return wiretest.Reply{Text: "looked"}
	})
	defer srv.Close()
	red := &Redactor{}
	red.Add(secret)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // goose's folder: the system's temporary one
	cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL), Mount{Ext: &printer{text: text}})
	cfg.Redactor = red
	out := Run(context.Background(), cfg, nil, "print it")
	if out.Status != StatusCompleted {
		t.Fatalf("%s %v", out.Status, out.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	m := offloadSentence.FindStringSubmatch(sent)
	if m == nil || m[1] != "250000" {
		t.Fatalf("the model did not get goose's sentence: %.300s", sent)
	}
	if strings.Contains(sent, "xxxxxxxxxx") || strings.Contains(sent, "sk-offload") {
		t.Errorf("the model got the text itself")
	}
	path := m[2]
	if filepath.Dir(path) != tmp || !regexp.MustCompile(`^goose_mcp_response_\d+\.txt$`).MatchString(filepath.Base(path)) {
		t.Errorf("saved to %s, want goose_mcp_response_<random>.txt in %s", path, tmp)
	}
	st, err := os.Stat(path) // kept after the run, as goose keeps it
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("after the run: %v, mode %v", err, st)
	}
	data, _ := os.ReadFile(path)
	saved := string(data)
	if strings.Contains(saved, "sk-offload") || !strings.Contains(saved, "[REDACTED]") || !strings.HasPrefix(saved, "xxxx") || !strings.HasSuffix(saved, "yyyy") {
		t.Errorf("the saved text is not the redacted output: %d bytes, %.80q…", len(saved), saved)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Errorf("the temporary folder holds %d entries, want the one file", len(entries))
	}
}

func TestOffloadCountsCharactersAndHonoursTheLimit(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		limit    int
		env      string
		offload  bool
		numChars string
	}{
		{"bytes over, characters under", strings.Repeat("é", 150000), 0, "", false, ""},
		{"characters over", strings.Repeat("é", 200001), 0, "", true, "200001"},
		{"configured limit", strings.Repeat("z", 1001), 1000, "", true, "1001"},
		{"at the limit", strings.Repeat("z", 1000), 1000, "", false, ""},
		{"environment", strings.Repeat("z", 51), 0, "50", true, "51"},
		{"never", strings.Repeat("z", 300000), -1, "", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOOSE_MAX_TOOL_RESPONSE_SIZE", c.env)
			var mu sync.Mutex
			var sent string
			srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Calls: []wiretest.Call{call("printer__print", `{}`)}}
				}
				mu.Lock()
				sent = toolResultsText(body)
				mu.Unlock()
				return wiretest.Reply{Text: "ok"}
			})
			defer srv.Close()
			cfg, _, _ := devConfig(t, wiretest.Vendors[0].Provider(srv.URL), Mount{Ext: &printer{text: c.text}})
			cfg.MaxToolResponseSize = c.limit
			cfg.OffloadDir = t.TempDir()
			if out := Run(context.Background(), cfg, nil, "print"); out.Status != StatusCompleted {
				t.Fatalf("%s %v", out.Status, out.Err)
			}
			mu.Lock()
			defer mu.Unlock()
			m := offloadSentence.FindStringSubmatch(sent)
			if (m != nil) != c.offload || (m != nil && m[1] != c.numChars) {
				t.Errorf("offloaded %v (%v), want %v with %s characters", m != nil, m, c.offload, c.numChars)
			}
		})
	}
}

// GOOSE_MAX_TOOL_RESPONSE_SIZE set in goose's config.yaml (the run's lookup, not the environment) is honoured.
func TestOffloadLimitFromTheRunsConfiguration(t *testing.T) {
	t.Setenv("GOOSE_MAX_TOOL_RESPONSE_SIZE", "")
	t.Setenv("TMPDIR", t.TempDir())
	root := t.TempDir()
	model := &capture{calls: []provider.ToolCall{toolCall("shell", map[string]any{"command": "printf 'z%.0s' $(seq 1 150)"})}}
	out, err := RunDoc(context.Background(), &Doc{Prompt: "go"}, RunOptions{
		Workspace: tools.Disk{Dir: root},
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
		},
		Lookup: func(k string) (string, bool) {
			if k == "GOOSE_MAX_TOOL_RESPONSE_SIZE" {
				return "100", true
			}
			return "", false
		},
	})
	if err != nil || out.Status != StatusCompleted {
		t.Fatalf("%v %s %v", err, out.Status, out.Err)
	}
	if m := offloadSentence.FindStringSubmatch(model.sent()); m == nil || m[1] != "150" {
		t.Errorf("a 150-character shell output was not offloaded with a limit of 100 from the configuration: %v", m)
	}
}
