//go:build linux

// `goose-ls configure` with goose's keyring (a private D-Bus session with gnome-keyring's Secret Service,
// internal/testkeyring): a key the provider needs is asked again when left empty; it is merged into
// goose's one JSON entry, the other secrets kept, and goose's own lookup finds it; `goose-ls acp`, which
// read the keyring before the set-up, sees it after authenticate; `goose-ls run` sends it with no key
// in its environment.

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/testbin"
	"github.com/goose-ls/goose-ls/internal/testkeyring"
)

func TestConfigureInATerminalWithGoosesKeyring(t *testing.T) {
	b := testbin.Build(t)
	const key, other = "sk-routstr-in-keyring-77d0", "ghp-kept-by-configure-31aa"
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"GITHUB_TOKEN":"`+other+`"}`)
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "routed"}))
	defer srv.Close()
	h := newHome(t, "")
	env := h.env(append(bus.Env(), "ROUTSTR_HOST="+srv.URL)...)

	// the agent reads goose's keyring (GOOSE_PROVIDER falls through to it) before the key is there
	agent, init := startACPIn(t, b.GooseLS, h.work, env)
	wantTerminalMethod(t, init)
	_, err := agent.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: h.work, McpServers: []sdk.McpServer{}})
	wantAuthRequired(t, "session/new before configure", err)

	p := startPane(t, env, b.GooseLS, "configure")
	p.waitPrompt("Provider, by number or name:")
	p.typeLine("ROUTSTR") // a name, in any case
	p.waitPrompt("Model, by number or any model name [claude-opus-4.7]:")
	p.typeLine("")
	p.waitPrompt("ROUTSTR_API_KEY for Routstr (typing is hidden):")
	p.typeLine("")
	p.waitText("Routstr needs an API key to run; paste one, or press Ctrl-C to stop.")
	p.waitPrompt("ROUTSTR_API_KEY for Routstr (typing is hidden):")
	p.typeLine(key)
	p.waitExit(0)
	screen := p.screen()
	for _, want := range []string{"Stored ROUTSTR_API_KEY in the system keyring (service goose, user secrets).",
		"goose and goose-ls now use Routstr (routstr) with claude-opus-4.7."} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, key) {
		t.Errorf("the key was echoed:\n%s", screen)
	}

	var entry map[string]string
	if err := json.Unmarshal([]byte(bus.GooseLookup(t)), &entry); err != nil || entry["ROUTSTR_API_KEY"] != key || entry["GITHUB_TOKEN"] != other || len(entry) != 2 {
		t.Errorf("goose's keyring entry: %v %v", entry, err)
	}
	if _, err := os.Stat(filepath.Join(h.configDir, "secrets.yaml")); !os.IsNotExist(err) {
		t.Errorf("secrets.yaml written beside a working keyring: %v", err)
	}
	if p, m := h.active(t); p != "routstr" || m != "claude-opus-4.7" {
		t.Errorf("config.yaml names %s/%s", p, m)
	}

	acpWorks(t, agent, h.work, "routed")
	runNoKey(t, b.GooseLS, h, env)
	wantBearer(t, srv, 2, key)
}
