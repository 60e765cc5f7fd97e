//go:build linux

// The keyring is read once per process with a bounded wait: against a Secret Service that is started and
// never answers, the first lookup waits Wait and falls back, later lookups (other stores of the same
// process, as the language server's runs are) do not wait again, and the notice is given once. Each
// case runs in a child process of its own, as "once per process" needs.

package secretstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/internal/testkeyring"
)

const childVar = "SECRETSTORE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childVar) == "lookups" {
		os.Exit(childLookups())
	}
	os.Exit(m.Run())
}

// childResult is what a child process saw.
type childResult struct {
	Took    []time.Duration // each store's first lookup
	Values  []string
	Notices []string
}

// childLookups makes three stores over GOOSE_PATH_ROOT (as three runs do) and looks OPENAI_API_KEY up.
func childLookups() int {
	var r childResult
	for range 3 {
		cfg, err := config.Load(os.LookupEnv)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		s := New(cfg)
		s.Watch(func(msg string) { r.Notices = append(r.Notices, msg) }, nil)
		start := time.Now()
		v, _ := s.Lookup("OPENAI_API_KEY")
		r.Took = append(r.Took, time.Since(start))
		r.Values = append(r.Values, v)
	}
	json.NewEncoder(os.Stdout).Encode(r)
	return 0
}

func runChild(t *testing.T, env ...string) childResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append([]string{childVar + "=lookups", "PATH=" + os.Getenv("PATH")}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, errb.String())
	}
	var r childResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("child output %q: %v", out.String(), err)
	}
	return r
}

func TestKeyringWaitIsBoundedAndOncePerProcess(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.AddService(t, "org.freedesktop.secrets", "/bin/sleep 600")
	root := configDir(t, map[string]string{"secrets.yaml": "OPENAI_API_KEY: sk-yaml-fallback-1\n"})
	r := runChild(t, append(bus.Env(), "GOOSE_PATH_ROOT="+root)...)
	if len(r.Took) != 3 || r.Took[0] < Wait-time.Second || r.Took[0] > Wait+5*time.Second {
		t.Errorf("first lookup took %v, want about %v", r.Took, Wait)
	}
	for i, d := range r.Took[1:] {
		if d > time.Second {
			t.Errorf("lookup %d waited again: %v", i+2, d)
		}
	}
	for _, v := range r.Values {
		if v != "sk-yaml-fallback-1" {
			t.Errorf("values %q", r.Values)
		}
	}
	want := fmt.Sprintf("system keyring unavailable (no answer within %v): goose's secrets are in %s", Wait, filepath.Join(root, "config", "secrets.yaml"))
	if len(r.Notices) != 1 || r.Notices[0] != want {
		t.Errorf("notices %q, want one: %q", r.Notices, want)
	}
}

// A keyring that answers is read once too: three stores, one D-Bus exchange's time, goose's value, and
// secrets.yaml ignored (goose reads one storage).
func TestKeyringReadAsGooseStoresIt(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"sk-keyring-value-1"}`)
	root := configDir(t, map[string]string{"secrets.yaml": "OPENAI_API_KEY: sk-yaml-ignored-2\n"})
	r := runChild(t, append(bus.Env(), "GOOSE_PATH_ROOT="+root)...)
	for i, v := range r.Values {
		if v != "sk-keyring-value-1" {
			t.Errorf("lookup %d: %q", i+1, v)
		}
	}
	if len(r.Notices) != 0 {
		t.Errorf("notices %q", r.Notices)
	}
	// an entry goose has not written yet is no secrets, and secrets.yaml stays unread
	bus2 := testkeyring.NewBus(t)
	bus2.StartKeyring(t)
	r = runChild(t, append(bus2.Env(), "GOOSE_PATH_ROOT="+root)...)
	if r.Values[0] != "" || len(r.Notices) != 0 {
		t.Errorf("no entry: %q %q", r.Values, r.Notices)
	}
}
