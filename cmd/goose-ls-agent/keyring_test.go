//go:build linux

// goose's keyring in a real `goose-ls run` and `goose-ls secret set`: a private D-Bus session with
// gnome-keyring-daemon's Secret Service (internal/testkeyring), the key stored as goose stores it, the
// scripted provider reading the Authorization header; a locked keyring, one that never answers and no
// Secret Service at all fall back to secrets.yaml within the bounded wait, with one notice.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/internal/testkeyring"
)

const (
	keyringKey = "sk-from-goose-keyring-7c1d"
	otherToken = "ghp-other-goose-secret-93ab"
	yamlKey    = "sk-from-secrets-yaml-5e0f"
	// slack is what a run takes besides the keyring's wait (building no binary: they are built already)
	slack = 20 * time.Second
)

// gooseHome is a goose config folder holding secrets.yaml with yamlKey, for the fallback.
func gooseHome(t *testing.T) (root string) {
	t.Helper()
	root = t.TempDir()
	cfg := filepath.Join(root, "goose", "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "secrets.yaml"), []byte("OPENAI_API_KEY: "+yamlKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

type keyringRun struct {
	stdout, stderr string
	took           time.Duration
	auth           []string // the Authorization headers the provider got
}

// runWithKeyring runs `goose-ls run` with no key in the environment: the provider's key comes from
// goose's secret storage. The scripted model answers with reply.
func runWithKeyring(t *testing.T, root string, env []string, reply string) keyringRun {
	t.Helper()
	bin, _ := binaries(t)
	srv := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: reply}))
	defer srv.Close()
	cmd := exec.Command(bin, "run", "--prompt", "say something", "--output", "json")
	cmd.Dir = filepath.Join(root, "work")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GOOSE_PATH_ROOT=" + filepath.Join(root, "goose"),
		"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_HOST=" + srv.URL}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("goose-ls run: %v\n%s", err, errb.String())
	}
	r := keyringRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	for _, h := range srv.Headers() {
		r.auth = append(r.auth, h.Get("Authorization"))
	}
	return r
}

func wantAuth(t *testing.T, r keyringRun, key string) {
	t.Helper()
	if len(r.auth) == 0 || r.auth[0] != "Bearer "+key {
		t.Errorf("Authorization %q, want the key %q\nstderr:\n%s", r.auth, key, r.stderr)
	}
}

// noticeCount is how many keyring notices the run printed.
func noticeCount(stderr string) int { return strings.Count(stderr, "system keyring unavailable") }

// assertNoLeak: the secrets appear in no log line, no event and no file of goose's data folder.
func assertNoLeak(t *testing.T, root string, r keyringRun, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(r.stderr, s) {
			t.Errorf("secret %q in the log:\n%s", s, r.stderr)
		}
		if strings.Contains(r.stdout, s) {
			t.Errorf("secret %q in the events:\n%s", s, r.stdout)
		}
	}
	filepath.WalkDir(filepath.Join(root, "goose", "data"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, s := range secrets {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s holds secret %q", path, s)
			}
		}
		return nil
	})
}

// The key goose stored in the keyring reaches the provider; secrets.yaml is not read while the keyring
// answers (goose reads one storage, never both); every secret of the entry is redacted, the one the
// provider used and one it did not (the scripted model echoes both).
func TestRunReadsTheKeyFromGoosesKeyring(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`","GITHUB_TOKEN":"`+otherToken+`"}`)
	root := gooseHome(t)
	r := runWithKeyring(t, root, bus.Env(), "keys: "+keyringKey+" and "+otherToken)
	wantAuth(t, r, keyringKey)
	if n := noticeCount(r.stderr); n != 0 {
		t.Errorf("%d keyring notices with a keyring that answers:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stdout, "keys: [REDACTED] and [REDACTED]") {
		t.Errorf("the reply is not in the events, redacted:\n%s", r.stdout)
	}
	assertNoLeak(t, root, r, keyringKey, otherToken)
	if _, err := os.Stat(filepath.Join(root, "goose", "data", "sessions", "sessions.db")); err != nil {
		t.Errorf("no session store to look into: %v", err)
	}
}

// The environment wins over the keyring, as goose reads secrets.
func TestRunEnvironmentKeyWinsOverTheKeyring(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`"}`)
	root := gooseHome(t)
	r := runWithKeyring(t, root, append(bus.Env(), "OPENAI_API_KEY=sk-from-the-environment"), "ok")
	wantAuth(t, r, "sk-from-the-environment")
}

// GOOSE_DISABLE_KEYRING makes secrets.yaml goose's storage whatever its value ("false" too: goose only
// asks whether it is set).
func TestRunDisabledKeyringReadsSecretsYAML(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`"}`)
	for _, v := range []string{"1", "false", ""} {
		root := gooseHome(t)
		r := runWithKeyring(t, root, append(bus.Env(), "GOOSE_DISABLE_KEYRING="+v), "ok")
		wantAuth(t, r, yamlKey)
		if n := noticeCount(r.stderr); n != 0 {
			t.Errorf("GOOSE_DISABLE_KEYRING=%q: %d notices:\n%s", v, n, r.stderr)
		}
		assertNoLeak(t, root, r, yamlKey)
	}
}

// A keyring that cannot be used falls back to secrets.yaml with one notice, within the bounded wait:
// locked (its unlock prompt fails at once without a prompter, or is never answered), no Secret Service
// on the bus, one that is started and never answers, no bus at all.
func TestRunFallsBackToSecretsYAML(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T) []string
		slow  bool // waits out the bound
	}{
		{"locked, no prompter", func(t *testing.T) []string {
			bus := testkeyring.NewBus(t)
			bus.StartKeyring(t)
			bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`"}`)
			bus.Lock(t)
			return bus.Env()
		}, false},
		{"locked, unlock prompt never answered", func(t *testing.T) []string {
			bus := testkeyring.NewBus(t)
			bus.StartKeyring(t)
			bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`"}`)
			bus.NeverAnsweringPrompter(t)
			bus.Lock(t)
			return bus.Env()
		}, true},
		{"no Secret Service", func(t *testing.T) []string {
			return testkeyring.NewBus(t).Env()
		}, false},
		{"Secret Service never answers", func(t *testing.T) []string {
			bus := testkeyring.NewBus(t)
			bus.AddService(t, "org.freedesktop.secrets", "/bin/sleep 600")
			return bus.Env()
		}, true},
		{"no D-Bus", func(t *testing.T) []string {
			return []string{"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(t.TempDir(), "no-bus")}
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := c.setup(t)
			root := gooseHome(t)
			r := runWithKeyring(t, root, env, "ok")
			wantAuth(t, r, yamlKey)
			if n := noticeCount(r.stderr); n != 1 {
				t.Errorf("%d keyring notices, want 1:\n%s", n, r.stderr)
			}
			if !strings.Contains(r.stderr, filepath.Join(root, "goose", "config", "secrets.yaml")) {
				t.Errorf("the notice does not name secrets.yaml:\n%s", r.stderr)
			}
			limit := slack
			if c.slow {
				limit += secretstore.Wait
			}
			if r.took > limit {
				t.Errorf("the run took %v (bound %v)", r.took, limit)
			}
			assertNoLeak(t, root, r, yamlKey, keyringKey)
		})
	}
}

// secretSet runs `goose-ls secret set name` with value on stdin.
func secretSet(t *testing.T, root string, env []string, name, value string) (stdout, stderr string) {
	t.Helper()
	bin, _ := binaries(t)
	cmd := exec.Command(bin, "secret", "set", name)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GOOSE_PATH_ROOT=" + filepath.Join(root, "goose")}, env...)
	cmd.Stdin = strings.NewReader(value + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("goose-ls secret set: %v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

// `goose-ls secret set` (the VS Code extension's Set API Key) merges the key into goose's entry: every
// other secret kept, still one item goose finds, and the next run uses it.
func TestSecretSetWritesIntoGoosesEntry(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"GITHUB_TOKEN":"`+otherToken+`","OPENAI_API_KEY":"sk-old-key-000","N":42}`)
	root := gooseHome(t)
	out, errOut := secretSet(t, root, bus.Env(), "OPENAI_API_KEY", keyringKey)
	if !strings.Contains(out, "OPENAI_API_KEY stored in the system keyring") || strings.Contains(out+errOut, keyringKey) {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(bus.GooseLookup(t)), &entry); err != nil {
		t.Fatal(err)
	}
	if entry["OPENAI_API_KEY"] != keyringKey || entry["GITHUB_TOKEN"] != otherToken || entry["N"] != 42.0 || len(entry) != 3 {
		t.Errorf("goose's entry after the write: %v", entry)
	}
	yaml, _ := os.ReadFile(filepath.Join(root, "goose", "config", "secrets.yaml"))
	if strings.Contains(string(yaml), keyringKey) {
		t.Error("the key went to secrets.yaml as well")
	}
	wantAuth(t, runWithKeyring(t, root, bus.Env(), "ok"), keyringKey)

	// no entry yet: one is created, which goose finds
	bus2 := testkeyring.NewBus(t)
	bus2.StartKeyring(t)
	secretSet(t, root, bus2.Env(), "ANTHROPIC_API_KEY", "sk-ant-new-key-1")
	if got := bus2.GooseLookup(t); got != `{"ANTHROPIC_API_KEY":"sk-ant-new-key-1"}` {
		t.Errorf("new entry %s", got)
	}
}

// With GOOSE_DISABLE_KEYRING, or no keyring to reach, the key is merged into secrets.yaml (owner-only),
// the keyring left alone.
func TestSecretSetWritesSecretsYAML(t *testing.T) {
	bus := testkeyring.NewBus(t)
	bus.StartKeyring(t)
	bus.StoreGooseEntry(t, `{"OPENAI_API_KEY":"`+keyringKey+`"}`)
	for name, env := range map[string][]string{
		"disabled":   append(bus.Env(), "GOOSE_DISABLE_KEYRING=1"),
		"no keyring": {"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(t.TempDir(), "no-bus")},
	} {
		root := gooseHome(t)
		path := filepath.Join(root, "goose", "config", "secrets.yaml")
		out, errOut := secretSet(t, root, env, "GROQ_API_KEY", "gsk-new-groq-key")
		if !strings.Contains(out, "GROQ_API_KEY stored in "+path) {
			t.Errorf("%s: stdout %q", name, out)
		}
		if want := map[bool]int{true: 0, false: 1}[name == "disabled"]; noticeCount(errOut) != want {
			t.Errorf("%s: notices in %q", name, errOut)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "OPENAI_API_KEY: "+yamlKey) || !strings.Contains(string(data), "GROQ_API_KEY: gsk-new-groq-key") {
			t.Errorf("%s: secrets.yaml:\n%s", name, data)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("%s: secrets.yaml mode %v", name, st.Mode().Perm())
		}
	}
	if got := bus.GooseLookup(t); got != `{"OPENAI_API_KEY":"`+keyringKey+`"}` {
		t.Errorf("the keyring entry changed: %s", got)
	}
}
