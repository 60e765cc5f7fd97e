// Package secretstore keeps goose's secrets where goose keeps them: one entry of the system keyring
// (service "goose", user "secrets") holding every secret as a JSON object, or <config_dir>/secrets.yaml
// when GOOSE_DISABLE_KEYRING is set or the keyring cannot be reached (goose's config/base.rs).
package secretstore

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/goose-ls/goose-ls/agent/config"
)

// Service and User name goose's keyring entry.
const (
	Service = "goose"
	User    = "secrets"
)

// source is where a store's secrets come from.
type source int

const (
	undecided  source = iota
	keyringSrc        // the keyring's entry (or no entry: no secrets)
	fileSrc           // secrets.yaml: GOOSE_DISABLE_KEYRING, or the keyring cannot be reached
	unreadable        // the keyring answered with an entry goose cannot read either: no secrets
)

// Store is goose's secret storage for one configuration. Lookups read the keyring once per process
// (keyring.go); secrets.yaml is read when it is the storage. Safe for concurrent use.
type Store struct {
	path     string // secrets.yaml
	disabled bool   // GOOSE_DISABLE_KEYRING: secrets.yaml is the storage

	mu       sync.Mutex
	src      source
	values   map[string]any // the secrets of the storage in use
	notice   string         // why the keyring was not used, until reported
	onNotice func(string)
	onValues func(...string)
}

// noticeSent makes the keyring notice one per process, however many stores report it.
var noticeSent atomic.Bool

// New is the storage goose uses for cfg: secrets.yaml in its folder when GOOSE_DISABLE_KEYRING is in the
// environment or config.yaml (with any value, as goose tests it), the system keyring otherwise.
func New(cfg *config.Config) *Store {
	return &Store{path: filepath.Join(cfg.Dir, "secrets.yaml"), disabled: cfg.IsSet("GOOSE_DISABLE_KEYRING")}
}

// Load reads goose's configuration (config.Load) with its secret storage behind it.
func Load(env func(string) (string, bool)) (*config.Config, *Store, error) {
	cfg, err := config.Load(env)
	if cfg == nil {
		return nil, nil, err
	}
	s := New(cfg)
	cfg.UseSecrets(s)
	return cfg, s, err
}

// Watch registers where the store reports: notice gets the one sentence saying why the keyring was
// not used, values gets every secret value once they are read (for redaction). What already happened
// is reported at once.
func (s *Store) Watch(notice func(string), values func(...string)) {
	s.mu.Lock()
	s.onNotice, s.onValues = notice, values
	s.mu.Unlock()
	s.report()
}

// Lookup returns a secret: from the keyring's JSON object, or from secrets.yaml when it is the storage.
func (s *Store) Lookup(key string) (string, bool) {
	s.decide()
	s.mu.Lock()
	v, ok := s.values[key]
	s.mu.Unlock()
	if !ok || v == nil {
		return "", false
	}
	return text(v), true
}

const keyringName = "the system keyring (service " + Service + ", user " + User + ")"

// decide reads the storage once: the keyring (once per process), else secrets.yaml.
func (s *Store) decide() {
	s.mu.Lock()
	done := s.src != undecided
	s.mu.Unlock()
	if done {
		return
	}
	src, values, notice := fileSrc, map[string]any(nil), ""
	if !s.disabled {
		r := readKeyring()
		switch {
		case r.err == nil:
			src, values = keyringSrc, r.values
		case r.unreachable:
			notice = s.unavailable(r.err)
		default:
			src, values, notice = unreadable, map[string]any{}, r.err.Error()
		}
	}
	if src == fileSrc {
		var err error
		if values, err = readFile(s.path); err != nil {
			values, notice = map[string]any{}, joinNotice(notice, err.Error())
		}
	}
	s.mu.Lock()
	if s.src == undecided {
		s.src, s.values, s.notice = src, values, notice
	}
	s.mu.Unlock()
	s.report()
}

func (s *Store) unavailable(err error) string {
	return fmt.Sprintf("system keyring unavailable (%v): goose's secrets are in %s", err, s.path)
}

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// report hands the notice and the values to the watchers.
func (s *Store) report() {
	s.mu.Lock()
	if s.src == undecided {
		s.mu.Unlock()
		return
	}
	onNotice, onValues, notice := s.onNotice, s.onValues, s.notice
	vals := make([]string, 0, len(s.values))
	for _, v := range s.values {
		if v != nil {
			vals = append(vals, text(v))
		}
	}
	if onNotice != nil {
		s.notice = ""
	}
	s.mu.Unlock()
	if onValues != nil {
		onValues(vals...)
	}
	if onNotice != nil && notice != "" && noticeSent.CompareAndSwap(false, true) {
		onNotice(notice)
	}
}

// Set stores a secret where goose would: merged into the keyring's JSON object (every other secret
// kept), or into secrets.yaml when GOOSE_DISABLE_KEYRING is set or the keyring cannot be reached (then
// the notice says so, and the rest of the process reads secrets.yaml, as goose does). It returns where
// the secret went.
func (s *Store) Set(key, value string) (string, error) {
	where := keyringName
	err := errDisabled
	if !s.disabled {
		err = writeKeyring(key, value)
	}
	if err != nil {
		if err != errDisabled && !isUnreachable(err) {
			return "", err
		}
		if err := writeFileKey(s.path, key, value); err != nil {
			return "", err
		}
		where = s.path
	}
	s.mu.Lock()
	s.src = undecided // read again: the process's keyring copy, or the file, now holds the secret
	s.mu.Unlock()
	s.decide()
	return where, nil
}

// text is a secret's value as a string: strings as they are, other JSON or YAML values as written.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case fmt.Stringer:
		return v.String()
	}
	return strings.TrimSpace(fmt.Sprint(v))
}
