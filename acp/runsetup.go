// The one place an ACP prompt's run is set up (settings, session store, recorder, provider, agent.RunDoc);
// it becomes agent/host's Start(ctx, Request, frontend) when the host lands.

package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// runRequest is what one prompt's run starts from (the host's Request).
type runRequest struct {
	RecipePath string // "" for a plain prompt
	RecipeText []byte // the recipe as the workspace holds it (the editor's unsaved text)
	Params     map[string]string
	Prompt     string
	Root       string
	ResumeID   string             // the stored session the run continues ("" when no store is open)
	History    []provider.Message // the conversation so far when no store is open
	Mode       agent.Mode
	Perms      *agent.Permissions // the session's: "always" answers last as long as the session
	Model      string             // "" : the configured model
	Extensions []agent.ExtensionDoc
}

// runFrontend is the UI a run reports to and asks (the host's frontend).
type runFrontend struct {
	Approver  agent.Approver
	Workspace tools.Workspace
	Shell     func(ctx context.Context, dir, command string, timeout time.Duration, env []string) tools.Result
	Ask       render.Asker
	Events    func(agent.Event)
}

// runEnv is what every run of the process shares: configuration, the provider factory, the redactor and
// the session store (opened once).
type runEnv struct {
	lookup     func(string) (string, bool)
	providers  agent.ProviderFactory // nil: goose's configuration (configure.Resolve)
	redactor   *agent.Redactor
	noSessions bool

	storeOnce sync.Once
	store     *session.Store
	storeErr  error
}

// settings reads config.yaml, GOOSE_MODE and permission.yaml as every front end does.
func (e *runEnv) settings() (agent.Settings, error) {
	st, err := agent.LoadSettings(e.lookup)
	if err != nil {
		return st, fmt.Errorf("goose settings: %w", err)
	}
	if st.PermsErr != nil {
		slog.Warn("acp: permission.yaml", "err", st.PermsErr)
	}
	return st, nil
}

// factory builds providers; model, when set, replaces the top-level run's model only (sub-agents pick
// theirs in goose's order).
func (e *runEnv) factory(cfgGet func(string) (string, bool), model string) agent.ProviderFactory {
	var topLevel atomic.Bool
	return func(s provider.Settings) (provider.Setup, error) {
		if !topLevel.Swap(true) && model != "" {
			s.Model = model
		}
		if e.providers != nil {
			return e.providers(s)
		}
		return configure.Resolve(cfgGet, s)
	}
}

// describeModel resolves the configured provider without running anything: its name, model and context
// limit (the config option's current value and usage_update's size).
func (e *runEnv) describeModel() (provider.Setup, error) {
	st, err := e.settings()
	if err != nil {
		return provider.Setup{}, err
	}
	return e.factory(st.Config.Get, "")(provider.Settings{})
}

// sessions opens the store once; nil when sessions are off or the store cannot open (logged once).
func (e *runEnv) sessions() *session.Store {
	if e.noSessions {
		return nil
	}
	e.storeOnce.Do(func() {
		st, err := e.settings()
		if err != nil {
			e.storeErr = err
		} else {
			e.store, e.storeErr = session.Open(session.DefaultPath(st.Config.DataDir), e.redactor.Redact)
		}
		if e.storeErr != nil {
			slog.Warn("acp: sessions are not stored", "err", e.storeErr)
			return
		}
		if notice := e.store.Notice(); notice != nil {
			slog.Warn("acp: " + notice.Error())
		}
	})
	return e.store
}

// close closes the store.
func (e *runEnv) close() {
	if e.store != nil {
		_ = e.store.Close()
	}
}

// createSession stores a new, empty session and returns its id ("" when no store is open).
func (e *runEnv) createSession(ctx context.Context, cwd string, mode agent.Mode) (string, error) {
	store := e.sessions()
	if store == nil {
		return "", nil
	}
	id, err := store.Create(ctx, session.Session{Name: "ACP: " + filepath.Base(cwd), WorkingDir: cwd, GooseMode: string(mode)})
	if err != nil {
		return "", fmt.Errorf("creating the session: %w", err)
	}
	return id, nil
}

// storedSession reads a stored session and its conversation.
func (e *runEnv) storedSession(ctx context.Context, id string) (session.Session, []provider.Message, error) {
	store := e.sessions()
	if store == nil {
		return session.Session{}, nil, errors.New("sessions are not stored (see the log)")
	}
	return store.Get(ctx, id)
}

// listSessions lists the stored sessions, most recent first.
func (e *runEnv) listSessions(ctx context.Context) ([]session.Session, error) {
	store := e.sessions()
	if store == nil {
		return nil, nil
	}
	return store.List(ctx)
}

// run runs one prompt to its end: the stored conversation (or req.History) goes on with req.Prompt, or
// the recipe runs; every message is stored in the session req.ResumeID names.
func (e *runEnv) run(ctx context.Context, req runRequest, fe runFrontend) (agent.Outcome, error) {
	st, err := e.settings()
	if err != nil {
		return agent.Outcome{}, err
	}
	cfg := st.Config
	history := req.History
	var rec *session.Recorder
	if store := e.sessions(); store != nil && req.ResumeID != "" {
		_, msgs, err := store.Get(ctx, req.ResumeID)
		if err != nil {
			return agent.Outcome{}, fmt.Errorf("session %s: %w", req.ResumeID, err)
		}
		history = msgs
		rec = &session.Recorder{Store: store, ID: req.ResumeID}
	}
	doc := &agent.Doc{}
	if req.RecipePath != "" {
		doc, _, err = agent.LoadRecipeText(req.RecipePath, req.RecipeText, req.Params, fe.Ask)
		if err != nil {
			return agent.Outcome{}, err
		}
	}
	opts := agent.RunOptions{
		RecipePath: req.RecipePath, Params: req.Params, Prompt: req.Prompt, Workspace: fe.Workspace, Shell: fe.Shell,
		Providers: e.factory(cfg.Get, req.Model), Lookup: cfg.Get, Mode: req.Mode, Approver: fe.Approver, Perms: req.Perms,
		Ask: fe.Ask, History: history, Events: fe.Events, Redactor: e.redactor, Extensions: req.Extensions,
	}
	if opts.Perms == nil {
		opts.Perms = st.Perms
	}
	if rec != nil { // (a nil *Recorder in the interface would not be nil)
		opts.Recorder = rec
	}
	out, err := agent.RunDoc(ctx, doc, opts)
	if rec != nil && rec.Err() != nil {
		slog.Warn("acp: storing the session failed", "session", req.ResumeID, "err", rec.Err())
	}
	return out, err
}
