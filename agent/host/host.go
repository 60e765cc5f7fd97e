// Package host runs agent runs for every front end (`goose-ls run`, the language server, ACP): settings,
// the provider, the session store (opened once), redaction at the source, consent, resume, a bounded
// run table and edit recording per turn. A front end supplies only its UI (Frontend).
package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/session"
)

// Defaults of the run table.
const (
	DefaultMaxFinishedRuns = 32
	DefaultMaxUndoBytes    = 8 << 20
)

// Options configure a Host.
type Options struct {
	// Env looks configuration up, environment first (nil: os.LookupEnv).
	Env func(string) (string, bool)
	// Providers replaces goose's provider resolution (tests, benchmarks); a Request's Provider/Model
	// still apply to the top-level run.
	Providers agent.ProviderFactory
	// Redactor is shared by every run, the session store and the caller's log (nil: a new one).
	Redactor *agent.Redactor
	// Warn receives host-wide warnings: the session store's notice (once), an unreadable permission.yaml,
	// a session that could not be stored (nil: dropped).
	Warn func(msg string)
	// MaxFinishedRuns is how many finished runs stay in the table (0: DefaultMaxFinishedRuns).
	MaxFinishedRuns int
	// MaxUndoBytes caps the texts a run keeps for undo; the oldest turns are dropped past it (0:
	// DefaultMaxUndoBytes).
	MaxUndoBytes int
}

// Host owns what every run shares; safe for concurrent use.
type Host struct {
	opts     Options
	redactor *agent.Redactor

	storeMu sync.Mutex // guards store; held while it opens (disk work), never while a run goes on
	store   *session.Store

	mu        sync.Mutex // guards the run table and the consents
	seq       int
	runs      map[string]*Run
	finished  []string // ids of finished runs still in the table, oldest first
	consented map[string]bool
}

// New makes a host; nothing is opened until a run or a session listing needs it.
func New(opts Options) *Host {
	if opts.Env == nil {
		opts.Env = os.LookupEnv
	}
	if opts.Redactor == nil {
		opts.Redactor = &agent.Redactor{}
	}
	if opts.MaxFinishedRuns <= 0 {
		opts.MaxFinishedRuns = DefaultMaxFinishedRuns
	}
	if opts.MaxUndoBytes <= 0 {
		opts.MaxUndoBytes = DefaultMaxUndoBytes
	}
	return &Host{opts: opts, redactor: opts.Redactor, runs: map[string]*Run{}, consented: map[string]bool{}}
}

// Settings reads goose's configuration, mode and permissions as a run does.
func (h *Host) Settings() (agent.Settings, error) {
	st, err := agent.LoadSettings(h.opts.Env)
	if st.Secrets != nil {
		// goose's secrets reach the redactor as soon as they are read, the keyring's notice the front end
		st.Secrets.Watch(h.warn, h.redactor.Add)
	}
	return st, err
}

// Provider resolves a provider as the host's runs do (Options.Providers, else goose's configuration
// cfg: a *config.Config) without running anything: a client's model picker.
func (h *Host) Provider(cfg configure.Source, s provider.Settings) (provider.Setup, error) {
	if h.opts.Providers != nil {
		return h.opts.Providers(s)
	}
	return configure.Resolve(cfg, s)
}

// Redactor is the redactor every run adds its secrets to.
func (h *Host) Redactor() *agent.Redactor { return h.redactor }

func (h *Host) warn(msg string) {
	if h.opts.Warn != nil {
		h.opts.Warn(h.redactor.Redact(msg))
	}
}

// Store opens goose's session store on first use (its notice is reported once, through Warn) and
// returns the same store afterwards. dataDir "" reads it from goose's configuration.
func (h *Host) Store(dataDir string) (*session.Store, error) {
	h.storeMu.Lock()
	defer h.storeMu.Unlock()
	if h.store != nil {
		return h.store, nil
	}
	if dataDir == "" {
		cfg, err := config.Load(h.opts.Env)
		if err != nil {
			return nil, &StoreError{Err: err}
		}
		dataDir = cfg.DataDir
	}
	st, err := session.Open(session.DefaultPath(dataDir), h.redactor.Redact)
	if err != nil {
		return nil, &StoreError{Err: err}
	}
	h.store = st
	if notice := st.Notice(); notice != nil {
		h.warn(notice.Error())
	}
	return st, nil
}

// StoreError is a session store that cannot be opened (or read).
type StoreError struct{ Err error }

func (e *StoreError) Error() string {
	if msg := e.Err.Error(); strings.HasPrefix(msg, "sessions: ") {
		return msg
	}
	return "sessions: " + e.Err.Error()
}
func (e *StoreError) Unwrap() error { return e.Err }

// Sessions lists the stored sessions, most recent first.
func (h *Host) Sessions(ctx context.Context) ([]session.Session, error) {
	st, err := h.Store("")
	if err != nil {
		return nil, err
	}
	list, err := st.List(ctx)
	if err != nil {
		return nil, &StoreError{Err: err}
	}
	return list, nil
}

// Session loads one stored session and the conversation a resumed run continues.
func (h *Host) Session(ctx context.Context, id string) (session.Session, []provider.Message, error) {
	st, err := h.Store("")
	if err != nil {
		return session.Session{}, nil, err
	}
	return st.Get(ctx, id)
}

// Close closes the session store (runs still going on keep writing nothing more).
func (h *Host) Close() error {
	h.storeMu.Lock()
	defer h.storeMu.Unlock()
	if h.store == nil {
		return nil
	}
	err := h.store.Close()
	h.store = nil
	return err
}

// Run is the run with this id, nil when unknown or pruned.
func (h *Host) Run(id string) *Run {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.runs[id]
}

// Runs are the runs in the table (running, and the latest finished), in no particular order.
func (h *Host) Runs() []*Run {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Run, 0, len(h.runs))
	for _, r := range h.runs {
		out = append(out, r)
	}
	return out
}

// register adds a new run to the table.
func (h *Host) register(r *Run) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	r.ID = fmt.Sprintf("run-%d", h.seq)
	h.runs[r.ID] = r
}

// finish moves a run to the finished list and prunes the oldest finished runs past the cap.
func (h *Host) finish(r *Run) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runs[r.ID] != r {
		return
	}
	h.finished = append(h.finished, r.ID)
	for len(h.finished) > h.opts.MaxFinishedRuns {
		delete(h.runs, h.finished[0])
		h.finished = h.finished[1:]
	}
}

// consentKey identifies a recipe and the commands it runs; a yes is remembered for both.
func consentKey(path string, cmds []string) string {
	sum := sha256.Sum256([]byte(path + "\x00" + strings.Join(cmds, "\x00")))
	return hex.EncodeToString(sum[:])
}

// consent asks the front end once per recipe and command list; no commands need no consent.
func (h *Host) consent(ctx context.Context, r *Run, fe Frontend, path string, doc *agent.Doc) bool {
	cmds := recipeCommands(doc)
	if path == "" || len(cmds) == 0 {
		return true
	}
	key := consentKey(path, cmds)
	h.mu.Lock()
	ok := h.consented[key]
	h.mu.Unlock()
	if ok {
		return true
	}
	if !fe.Consent(ctx, r, ConsentRequest{RecipePath: path, Commands: cmds}) {
		return false
	}
	h.mu.Lock()
	h.consented[key] = true
	h.mu.Unlock()
	return true
}

func joinCommand(cmd string, args []string) string {
	return strings.TrimSpace(cmd + " " + strings.Join(args, " "))
}

// absPath is path made absolute ("" stays "").
func absPath(path string) string {
	if path == "" {
		return ""
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
