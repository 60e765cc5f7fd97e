//go:build unix

// A custom provider's `auth` command in a real `goose-ls run`: the scripted provider refuses the first
// credential (the command runs again), echoes both credentials in its reply and in a shell command it
// calls, then fails with an error quoting the refreshed one; neither credential reaches the events, the
// log or goose's data folder except as [REDACTED].
package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/leaktest"
)

func TestRunRedactsTheAuthCommandsCredentials(t *testing.T) {
	// the refreshed credential has the characters JSON and URLs escape
	first, refreshed := "tok-corp-first-7f3a9c", leaktest.Keys[0]
	scripts := t.TempDir() // outside goose's folders, which are searched for the credentials
	script := filepath.Join(scripts, "get-token.sh")
	text := "#!/bin/sh\nn=$(( $(cat runs 2>/dev/null || echo 0) + 1 ))\necho $n > runs\n" +
		"if [ $n = 1 ]; then printf '%s\\n' '" + first + "'; else printf '%s\\n' '" + refreshed + "'; fi\n"
	if err := os.WriteFile(script, []byte(text), 0o700); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal("credential " + refreshed + " may not use corp-model")
	printFirst, _ := json.Marshal(map[string]string{"command": "printf 'shell saw %s\\n' '" + first + "'"})
	srv := wiretest.OpenAI(func(n int, _ map[string]any) wiretest.Reply {
		switch n {
		case 0:
			return wiretest.Reply{Status: http.StatusUnauthorized}
		case 1:
			return wiretest.Reply{Text: "I was given " + first + " and then " + refreshed + ".", Calls: []wiretest.Call{c("shell", string(printFirst))}}
		}
		return wiretest.Reply{Status: http.StatusBadRequest, Body: `{"error":{"message":` + string(quoted) + `,"type":"invalid_request_error"}}`}
	})
	defer srv.Close()

	bin, _ := binaries(t)
	root := t.TempDir()
	work := filepath.Join(root, "work")
	custom := filepath.Join(root, "goose", "config", "custom_providers")
	for _, d := range []string{work, custom} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	provider := `{"name":"custom_corp","engine":"openai","display_name":"Corp","base_url":"` + srv.URL + `/v1",
	  "models":[{"name":"corp-model","context_limit":64000}],"auth":{"command":"` + script + `","cwd":"` + scripts + `"}}`
	if err := os.WriteFile(filepath.Join(custom, "corp.json"), []byte(provider), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, bin, nil, root, work, []string{"GOOSE_PROVIDER=custom_corp", "OPENAI_API_KEY=", "GOOSE_DISABLE_KEYRING=1"},
		"--prompt", "which credentials?", "--debug", "--output", "json")
	if r.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var auth []string
	for _, h := range srv.Headers() {
		auth = append(auth, h.Get("Authorization"))
	}
	if len(auth) != 3 || auth[0] != "Bearer "+first || auth[1] != "Bearer "+refreshed || auth[2] != auth[1] {
		t.Fatalf("Authorization headers %q: the credential was not refreshed", auth)
	}
	if results := toolMessages(srv.Requests()[2]); len(results) != 1 || !strings.Contains(results[0], "shell saw "+first) {
		t.Fatalf("the shell command's output sent to the model: %q", results)
	}
	for _, want := range []string{"I was given [REDACTED] and then [REDACTED].", "shell saw [REDACTED]"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the events lack %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stdout+r.stderr, "credential [REDACTED] may not use corp-model") {
		t.Errorf("the provider's error is not shown redacted:\n%s\n%s", r.stdout, r.stderr)
	}
	for _, tok := range []string{first, refreshed} {
		leaktest.AssertNone(t, "stdout", []byte(r.stdout), tok)
		leaktest.AssertNone(t, "stderr", []byte(r.stderr), tok)
		if files := leaktest.AssertNoneInFiles(t, filepath.Join(root, "goose"), tok); !contains(files, "sessions.db") {
			t.Errorf("no session store among %v", files)
		}
	}
}
