//go:build !windows

// A shell command that prints one 250,000-character line, over both vendors' wire formats: the model
// gets goose's last-lines preview cut to its last 10,000 bytes and the notice naming the saved output,
// never the line itself; the result is then short enough that nothing is offloaded.
package agent

import (
	"context"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

var shellSaved = regexp.MustCompile(`Full output saved to (\S+)\. Read it with shell commands`)

func TestOneHugeShellLineDoesNotReachTheModel(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			var mu sync.Mutex
			var sent string
			var savedDuringRun []byte
			srv := v.Serve(func(n int, body map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Calls: []wiretest.Call{call("shell", `{"command":"printf START; head -c 249991 /dev/zero | tr '\\0' y; printf STOP"}`)}}
				}
				mu.Lock()
				defer mu.Unlock()
				sent = toolResultsText(body)
				if m := shellSaved.FindStringSubmatch(sent); m != nil {
					savedDuringRun, _ = os.ReadFile(m[1])
				}
				return wiretest.Reply{Text: "Seen."}
			})
			defer srv.Close()
			cfg, _, _ := devConfig(t, v.Provider(srv.URL))
			if out := Run(context.Background(), cfg, nil, "print it"); out.Status != StatusCompleted {
				t.Fatalf("%s %v", out.Status, out.Err)
			}
			mu.Lock()
			defer mu.Unlock()
			if strings.Contains(sent, "STARTy") || strings.Count(sent, "y") > 10100 || !strings.Contains(sent, strings.Repeat("y", 9996)+"STOP") {
				t.Errorf("the model got %d characters of results, want the line's last 10,000 bytes", len(sent))
			}
			if !strings.Contains(sent, "[Output exceeded 50000 byte limit (250000 bytes total). Full output saved to ") {
				t.Errorf("no notice in %.300s", sent[max(0, len(sent)-400):])
			}
			if len(savedDuringRun) != 250000 || !strings.HasPrefix(string(savedDuringRun), "STARTyyy") {
				t.Errorf("the saved output held %d bytes", len(savedDuringRun))
			}
			if offloadSentence.MatchString(sent) {
				t.Errorf("a result under GOOSE_MAX_TOOL_RESPONSE_SIZE was offloaded")
			}
			entries, _ := os.ReadDir(tmp)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "goose_mcp_response_") {
					t.Errorf("offloaded to %s", e.Name())
				}
			}
		})
	}
}
