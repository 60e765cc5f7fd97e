//go:build linux

// The keyring is asked only for a secret the environment lacks, as goose asks it: a real `goose-ls run`
// against gnome-keyring on a private bus watched by a D-Bus monitor (internal/testkeyring), with the
// keyring locked behind an unlock dialog nobody answers — the desktop case where one call would pop the
// dialog goose itself never shows.

package main

import (
	"slices"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testkeyring"
)

// With OPENAI_API_KEY in the environment and goose's settings knobs unset (GOOSE_TEMPERATURE,
// GOOSE_MAX_TOKENS, GOOSE_MODE, timeouts: before, every one of them fell through to the keyring), the
// run sends the Secret Service nothing. The same run without the key first shows that the monitor sees
// what it is meant to see: it reads goose's item and finds the key goose stored there.
func TestRunWithTheKeyInTheEnvironmentNeverAsksTheKeyring(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`","GOOSE_TEMPERATURE":0.9,"GOOSE_MODE":"chat"}`)
	monitor := bus.Monitor(t)
	root := gooseHome(t)

	r := runWithKeyring(t, root, bus.Env(), "ok")
	wantAuth(t, r, keyringKey)
	if calls := monitor.SecretServiceCalls(t); !slices.Contains(calls, "org.freedesktop.Secret.Item.GetSecret") {
		t.Fatalf("the run without the key in the environment did not read the keyring: %q", calls)
	}
	assertNoLeak(t, root, r, keyringKey)

	bus.NeverAnsweringPrompter(t)
	bus.Lock(t)
	before := len(monitor.SecretServiceCalls(t))
	r = runWithKeyring(t, root, append(bus.Env(), "OPENAI_API_KEY=sk-from-the-environment-1"), "ok")
	wantAuth(t, r, "sk-from-the-environment-1")
	if calls := monitor.SecretServiceCalls(t)[before:]; len(calls) != 0 {
		t.Errorf("the run asked the keyring: %q\nstderr:\n%s", calls, r.stderr)
	}
	if n := noticeCount(r.stderr); n != 0 {
		t.Errorf("%d keyring notices:\n%s", n, r.stderr)
	}
}
