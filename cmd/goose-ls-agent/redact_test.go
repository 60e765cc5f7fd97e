// Secrets never leave `goose-ls run`: the built binary against a scripted server whose 401 body quotes
// the key, a tool call whose arguments and result hold it, a shell command echoing it and an extension's
// env_keys value; stdout, stderr (with --debug) and the session store's files are searched for every
// form of each key.
package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/leaktest"
)

func TestRunNeverPrintsOrStoresTheKey(t *testing.T) {
	for i, key := range leaktest.Keys {
		for _, output := range []string{"text", "json"} {
			// (no '#' in the name: the session store cannot open a path holding one)
			t.Run(fmt.Sprintf("key%d-%s", i, output), func(t *testing.T) {
				printArgs, _ := json.Marshal(map[string]string{"command": `printf '%s\n' '` + key + `'`})
				srv := wiretest.OpenAI(wiretest.Replies(
					wiretest.Reply{Text: "Your key is " + key + ", right?", Calls: []wiretest.Call{
						c("shell", `{"command":"printf 'env: %s\\n' \"$OPENAI_API_KEY\""}`),
						c("shell", string(printArgs)),
					}},
					wiretest.Reply{Status: 401, Body: openAIAuthError(key)},
				))
				defer srv.Close()
				r := runGoose(t, srv, []string{"OPENAI_API_KEY=" + key}, "--prompt", "show me the key", "--debug", "--output", output)
				if r.code != 1 {
					t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
				}
				// the key really went through the tools to the model
				if sent, _ := json.Marshal(toolMessages(srv.Requests()[1])); strings.Count(string(sent), strings.Trim(string(must(json.Marshal(key))), `"`)) != 2 {
					t.Fatalf("tool results sent to the model: %s", sent)
				}
				leaktest.AssertNone(t, "stdout", []byte(r.stdout), key)
				leaktest.AssertNone(t, "stderr", []byte(r.stderr), key)
				if !strings.Contains(r.stdout+r.stderr, "Incorrect API key provided: [REDACTED]") {
					t.Errorf("the provider's error is not shown redacted:\n%s\n%s", r.stdout, r.stderr)
				}
				if !strings.Contains(r.stderr, "level=DEBUG") {
					t.Errorf("no debug log:\n%s", r.stderr)
				}
				files := leaktest.AssertNoneInFiles(t, filepath.Join(r.root, "goose"), key)
				if !contains(files, "sessions.db") {
					t.Errorf("no session store among %v\n%s", files, r.stderr)
				}
			})
		}
	}
}

func TestRunNeverPrintsAnExtensionsEnvKeysValue(t *testing.T) {
	_, server := binaries(t)
	for _, secret := range leaktest.Keys {
		srv := wiretest.OpenAI(wiretest.Replies(
			wiretest.Reply{Calls: []wiretest.Call{c("calc__env", `{"name":"CALC_TOKEN"}`)}},
			wiretest.Reply{Text: "It is " + secret},
		))
		r := runGoose(t, srv, []string{"CALC_TOKEN=" + secret}, example("mcp-tool.yaml"), "--params", "server="+server, "--debug")
		srv.Close()
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if results := toolMessages(srv.Requests()[1]); len(results) != 1 || results[0] != secret {
			t.Fatalf("tool results %q", results)
		}
		leaktest.AssertNone(t, "stdout", []byte(r.stdout), secret)
		leaktest.AssertNone(t, "stderr", []byte(r.stderr), secret)
		leaktest.AssertNoneInFiles(t, filepath.Join(r.root, "goose"), secret)
		if !strings.Contains(r.stdout, "It is [REDACTED]") {
			t.Errorf("stdout: %s", r.stdout)
		}
	}
}

func openAIAuthError(key string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": "Incorrect API key provided: " + key + ". You can find your API key at https://platform.openai.com/account/api-keys.",
		"type":    "invalid_request_error", "code": "invalid_api_key", "param": nil}})
	return string(b)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
