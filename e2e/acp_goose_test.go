// goose's own ACP dialect through the official TypeScript SDK's client (acp_goose.test.mjs): the recipe
// library listed with goose's ids, a recipe session by recipeId with its parameters cancelled once and
// answered once, and the rendered recipe reaching the scripted provider.
package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func TestACPGooseRecipeSessionsTypeScriptSDK(t *testing.T) {
	nm := acpNodeModules(t, filepath.Join("@agentclientprotocol", "sdk"))
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Hello, Ada!"}))
	t.Cleanup(srv.Close)
	home := t.TempDir()
	lib := filepath.Join(home, "goose", "config", "recipes") // goose's recipe library under GOOSE_PATH_ROOT
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	greet := filepath.Join(lib, "greet.yaml")
	os.WriteFile(greet, []byte(`version: 1.0.0
title: Greeter
description: Greets someone
instructions: You greet {{ name }} in a {{ tone }} tone.
prompt: Say hello to {{ name }}
parameters:
  - key: name
    input_type: string
    requirement: required
    description: who
  - key: tone
    input_type: select
    requirement: optional
    default: warm
    options: [warm, dry]
    description: how
`), 0o644)
	env := append(agentEnv(srv, home), "HOME="+home, "GOOSE_LS_BIN="+buildServer(t), "ACP_SDK_DIR="+filepath.Join(nm, "@agentclientprotocol", "sdk"),
		"GREET_PATH="+greet, "GREET_ID="+library.ManifestID(greet))
	test, _ := filepath.Abs("acp_goose.test.mjs")
	out := runScript(t, 2*time.Minute, t.TempDir(), env, "# pass 1", "node", "--test", "--test-reporter=tap", test)
	if !strings.Contains(out, "# fail 0") {
		t.Fatalf("node --test:\n%s", out)
	}
	// the run took the rendered recipe: its instructions are in the system prompt the provider got
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d provider requests, want 1", len(reqs))
	}
	msgs, _ := reqs[0]["messages"].([]any)
	first, _ := msgs[0].(map[string]any)
	if content, _ := first["content"].(string); first["role"] != "system" || !strings.Contains(content, "You greet Ada in a warm tone.") {
		t.Fatalf("the provider's first message: %+v", first)
	}
}
