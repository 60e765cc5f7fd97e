//go:build linux

// Package testkeyring runs a real Secret Service for tests: a private D-Bus session bus (dbus-daemon with
// its own configuration, so nothing of the machine's session is used or activated) and
// gnome-keyring-daemon on it with a login keyring unlocked by a known password. secret-tool (libsecret)
// stores and inspects items as goose's keyring crate does; a Monitor sees every call a process sends
// the Secret Service. Without these tools a test skips, or fails under CI=1.
package testkeyring

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// Password unlocks the login keyring.
const Password = "test-keyring-password"

// GooseAttributes are the attributes goose's keyring crate (keyring 3.6) gives the item it creates for
// service "goose", user "secrets" in the default collection.
var GooseAttributes = []string{"service", "goose", "username", "secrets", "target", "default", "application", "rust-keyring"}

// Bus is a private session bus.
type Bus struct {
	Addr     string // DBUS_SESSION_BUS_ADDRESS
	dir      string
	services string
	keyring  *exec.Cmd
}

// Require fails the test under CI=1, else skips it, when a tool is missing.
func Require(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (.ci/run installs it: dbus-daemon, gnome-keyring, libsecret-tools)", tool)
			}
			t.Skipf("%s is missing", tool)
		}
	}
}

// NewBus starts a private session bus whose only activatable services are those AddService adds.
func NewBus(t testing.TB) *Bus {
	t.Helper()
	Require(t, "dbus-daemon")
	dir, err := os.MkdirTemp("", "gkr") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	b := &Bus{dir: dir, services: filepath.Join(dir, "services")}
	for _, d := range []string{b.services, filepath.Join(dir, "run"), filepath.Join(dir, "home")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	conf := fmt.Sprintf(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=%s</listen>
  <servicedir>%s</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`, filepath.Join(dir, "run"), b.services)
	confPath := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+confPath, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// its log (and the services it starts) write to a file: a test's stderr must not outlive the test
	logFile, err := os.Create(filepath.Join(dir, "bus.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // with the services it starts, ended as one
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(cmd) })
	line := make([]byte, 0, 256)
	buf := make([]byte, 1)
	for !bytes.HasSuffix(line, []byte("\n")) {
		if _, err := out.Read(buf); err != nil {
			t.Fatalf("dbus-daemon printed no address: %v", err)
		}
		line = append(line, buf[0])
	}
	b.Addr = strings.TrimSpace(string(line))
	return b
}

// stop ends a process started here and everything in its process group.
func stop(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// AddService makes name activatable on the bus by running exec (dbus-daemon rereads its service folder).
func (b *Bus) AddService(t testing.TB, name, exec string) {
	t.Helper()
	text := fmt.Sprintf("[D-BUS Service]\nName=%s\nExec=%s\n", name, exec)
	if err := os.WriteFile(filepath.Join(b.services, name+".service"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	b.call(t, "org.freedesktop.DBus.ReloadConfig")
}

// NeverAnsweringPrompter makes gnome-keyring's unlock prompts wait forever: its prompter service starts
// and never appears, as a dialog nobody answers.
func (b *Bus) NeverAnsweringPrompter(t testing.TB) {
	for _, name := range []string{"org.gnome.keyring.SystemPrompter", "org.gnome.keyring.PrivatePrompter"} {
		b.AddService(t, name, "/bin/sleep 600")
	}
}

// Env is the environment that reaches the bus (and, for the tools, the keyring's files).
func (b *Bus) Env() []string {
	return []string{"DBUS_SESSION_BUS_ADDRESS=" + b.Addr}
}

func (b *Bus) toolEnv() []string {
	return append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS="+b.Addr, "HOME="+filepath.Join(b.dir, "home"),
		"XDG_DATA_HOME="+filepath.Join(b.dir, "home", "data"), "XDG_RUNTIME_DIR="+filepath.Join(b.dir, "run"))
}

// StartKeyring starts gnome-keyring-daemon's Secret Service on the bus with the login keyring created
// and unlocked with Password, and waits until it answers.
func (b *Bus) StartKeyring(t testing.TB) {
	t.Helper()
	Require(t, "gnome-keyring-daemon", "secret-tool")
	cmd := exec.Command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
	cmd.Env = b.toolEnv()
	cmd.Stdin = strings.NewReader(Password)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b.keyring = cmd
	t.Cleanup(func() { stop(cmd) })
	deadline := time.Now().Add(20 * time.Second)
	for !b.hasOwner(t, "org.freedesktop.secrets") {
		if time.Now().After(deadline) {
			t.Fatalf("gnome-keyring-daemon did not come up: %s", errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// StopKeyring ends gnome-keyring-daemon (the bus stays).
func (b *Bus) StopKeyring() {
	if b.keyring != nil {
		stop(b.keyring)
	}
}

// SecretTool runs secret-tool against the bus with stdin and returns its stdout.
func (b *Bus) SecretTool(t testing.TB, stdin string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("secret-tool", args...)
	cmd.Env = b.toolEnv()
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("secret-tool %s: %v: %s", strings.Join(args, " "), err, errb.String())
	}
	return out.String(), nil
}

// StoreGooseEntry stores secrets (a JSON object) as goose does: one item with goose's attributes.
func (b *Bus) StoreGooseEntry(t testing.TB, secrets string) {
	t.Helper()
	args := append([]string{"store", "--label=secrets@goose:default (keyring v3.6.3)"}, GooseAttributes...)
	if _, err := b.SecretTool(t, secrets, args...); err != nil {
		t.Fatal(err)
	}
}

// GooseLookup reads goose's entry the way goose's keyring crate finds it: by service, username and
// target across collections, else by service and username alone in the default collection; it fails
// when that finds more than one item (goose's "ambiguous" error).
func (b *Bus) GooseLookup(t testing.TB) string {
	t.Helper()
	items := b.search(t, "service", "goose", "username", "secrets", "target", "default")
	if len(items) == 0 {
		items = b.search(t, "service", "goose", "username", "secrets")
	}
	if len(items) != 1 {
		t.Fatalf("goose's lookup finds %d items for service goose, user secrets", len(items))
	}
	return items[0]
}

// search returns the secrets of the unlocked items matching attrs.
func (b *Bus) search(t testing.TB, attrs ...string) []string {
	t.Helper()
	out, err := b.SecretTool(t, "", append([]string{"search", "--all", "--unlock"}, attrs...)...)
	if err != nil {
		if strings.Contains(err.Error(), "exit status 1") && out == "" {
			return nil // no match
		}
		t.Fatal(err)
	}
	var secrets []string
	for _, line := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(line, "secret = "); ok {
			secrets = append(secrets, v)
		}
	}
	return secrets
}

// Lock locks the login keyring.
func (b *Bus) Lock(t testing.TB) {
	t.Helper()
	conn := b.conn(t)
	defer conn.Close()
	var locked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	err := conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets").Call("org.freedesktop.Secret.Service.Lock", 0,
		[]dbus.ObjectPath{"/org/freedesktop/secrets/collection/login"}).Store(&locked, &prompt)
	if err != nil || len(locked) != 1 {
		t.Fatalf("locking the login keyring: %v %v", locked, err)
	}
}

// Unlock unlocks the login keyring with Password (gnome-keyring's own --unlock, which a running daemon
// on the same control folder honours).
func (b *Bus) Unlock(t testing.TB) {
	t.Helper()
	cmd := exec.Command("gnome-keyring-daemon", "--unlock", "--components=secrets")
	cmd.Env = b.toolEnv()
	cmd.Stdin = strings.NewReader(Password)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("unlocking: %v %s", err, out)
	}
}

func (b *Bus) conn(t testing.TB) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(b.Addr)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

func (b *Bus) call(t testing.TB, method string, args ...any) {
	t.Helper()
	conn := b.conn(t)
	defer conn.Close()
	if err := conn.BusObject().Call(method, 0, args...).Err; err != nil {
		t.Fatalf("%s: %v", method, err)
	}
}

func (b *Bus) hasOwner(t testing.TB, name string) bool {
	t.Helper()
	conn := b.conn(t)
	defer conn.Close()
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, name).Store(&has); err != nil {
		t.Fatal(err)
	}
	return has
}

// Monitor watches the bus as a D-Bus monitor (org.freedesktop.DBus.Monitoring.BecomeMonitor) and keeps
// every method call sent to the Secret Service: proof that a process did, or did not, ask the keyring
// anything — a locked keyring's unlock dialog starts with such a call.
type Monitor struct {
	b     *Bus
	mu    sync.Mutex
	calls []string        // "interface.member" of each call to org.freedesktop.secrets, in order
	seen  map[string]bool // senders of any method call, to sync on
	wake  chan struct{}   // closed and replaced on every message
}

// Monitor starts watching; calls sent before it returns are not seen.
func (b *Bus) Monitor(t testing.TB) *Monitor {
	t.Helper()
	conn := b.conn(t)
	t.Cleanup(func() { conn.Close() })
	if err := conn.BusObject().Call("org.freedesktop.DBus.Monitoring.BecomeMonitor", 0, []string{"type='method_call'"}, uint32(0)).Err; err != nil {
		t.Fatalf("becoming a monitor: %v", err)
	}
	m := &Monitor{b: b, seen: map[string]bool{}, wake: make(chan struct{})}
	ch := make(chan *dbus.Message, 4096)
	conn.Eavesdrop(ch)
	go func() {
		for msg := range ch {
			if msg.Type != dbus.TypeMethodCall {
				continue
			}
			field := func(f dbus.HeaderField) string { s, _ := msg.Headers[f].Value().(string); return s }
			m.mu.Lock()
			if field(dbus.FieldDestination) == "org.freedesktop.secrets" {
				m.calls = append(m.calls, field(dbus.FieldInterface)+"."+field(dbus.FieldMember))
			}
			m.seen[field(dbus.FieldSender)] = true
			close(m.wake)
			m.wake = make(chan struct{})
			m.mu.Unlock()
		}
	}()
	return m
}

// SecretServiceCalls returns the calls to the Secret Service seen so far. It first waits until a call it
// sends itself reaches the monitor: the bus forwards messages in order, so every call sent before has
// been seen by then.
func (m *Monitor) SecretServiceCalls(t testing.TB) []string {
	t.Helper()
	conn := m.b.conn(t)
	defer conn.Close()
	me := conn.Names()[0]
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetId", 0).Err; err != nil {
		t.Fatal(err)
	}
	timeout := time.After(10 * time.Second)
	for {
		m.mu.Lock()
		done, wake, calls := m.seen[me], m.wake, slices.Clone(m.calls)
		m.mu.Unlock()
		if done {
			return calls
		}
		select {
		case <-wake:
		case <-timeout:
			t.Fatal("the bus monitor did not see its own call")
		}
	}
}
