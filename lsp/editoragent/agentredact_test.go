// Secrets never leave an editor run: window/logMessage, $/progress, goose/runEvent (the transcript),
// approval prompts and the session store's files (database and WAL, while the server holds them open)
// carry no form of the API key, though the key went through the tools to the model.
package editoragent_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/leaktest"
)

func TestEditorRunsNeverShowOrStoreTheKey(t *testing.T) {
	for i, key := range leaktest.Keys {
		t.Run(fmt.Sprintf("key%d", i), func(t *testing.T) {
			root := t.TempDir()
			literal, _ := json.Marshal(map[string]string{"command": `printf '%s\n' '` + key + `'`})
			authError, _ := json.Marshal(map[string]any{"error": map[string]any{
				"message": "Incorrect API key provided: " + key + ".", "type": "invalid_request_error", "code": "invalid_api_key", "param": nil}})
			srv := wiretest.OpenAI(wiretest.Replies(
				wiretest.Reply{Text: "The key: " + key + ".", Calls: []wiretest.Call{
					{Name: "shell", Args: `{"command":"printf 'env: %s\\n' \"$OPENAI_API_KEY\""}`},
					{Name: "shell", Args: string(literal)},
				}},
				wiretest.Reply{Status: 401, Body: string(authError)},
			))
			defer srv.Close()
			c := newEditor(t, root, srv, "OPENAI_API_KEY", key, "GOOSE_MODE", "approve")
			var mu sync.Mutex
			var prompts []string
			c.Handle("window/showMessageRequest", func(raw json.RawMessage) (any, error) {
				mu.Lock()
				prompts = append(prompts, string(raw))
				mu.Unlock()
				return map[string]any{"title": "Allow once"}, nil
			})
			id := c.run("goose.ask", map[string]any{"prompt": "show me the key"})
			if done := c.waitDone(id); done["status"] != "provider_error" {
				t.Fatalf("done %v", done)
			}
			// the key really went through the tools to the model
			sent, _ := json.Marshal(srv.Requests()[1]["messages"])
			if strings.Count(string(sent), strings.Trim(string(mustJSON(key)), `"`)) < 2 {
				t.Fatalf("the tool results did not carry the key: %s", sent)
			}

			var transcript strings.Builder
			for _, raw := range c.Received("goose/runEvent") {
				var ev map[string]any
				_ = json.Unmarshal(raw, &ev)
				if ev["kind"] == "text" {
					transcript.WriteString(ev["text"].(string))
				}
			}
			if transcript.String() != "The key: [REDACTED]." {
				t.Errorf("transcript text %q", transcript.String())
			}
			for _, method := range []string{"goose/runEvent", "window/logMessage", "$/progress"} {
				got := c.Received(method)
				if len(got) == 0 {
					t.Errorf("no %s", method)
				}
				for _, raw := range got {
					leaktest.AssertNone(t, method, raw, key)
				}
			}
			mu.Lock()
			leaktest.AssertNone(t, "approval prompts", []byte(strings.Join(prompts, "\n")), key)
			if len(prompts) != 2 {
				t.Errorf("prompts %q", prompts)
			}
			mu.Unlock()
			if logs, _ := json.Marshal(c.Received("window/logMessage")); !strings.Contains(string(logs), "Incorrect API key provided: [REDACTED]") {
				t.Errorf("the provider error is not logged redacted: %s", logs)
			}

			// the store is open in the server: its WAL holds the latest writes
			scanned := leaktest.AssertNoneInFiles(t, filepath.Join(root, ".goose-home"), key)
			if joined := strings.Join(scanned, " "); !strings.Contains(joined, "sessions.db") || !strings.Contains(joined, "-wal") {
				t.Errorf("the session store's database and WAL were not both scanned: %v", scanned)
			}
		})
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
