// Start: a request becomes a run — settings, resume (history, stored recipe, values, folder), the recipe
// read through the front end's files and rendered, then, on the run's goroutine, consent, the session
// recorder and the loop.

package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/session"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// ContinuePrompt is the user message of a resumed run that gives none.
const ContinuePrompt = "Continue where you left off."

// Request is what a front end asks to run.
type Request struct {
	// RecipePath is the recipe file ("" for a prompt alone; a resumed run takes its session's).
	RecipePath string
	// Prompt replaces the recipe's prompt (required without a recipe, unless resuming).
	Prompt string
	// Params are parameter values (a resumed run's stored values fill the others).
	Params map[string]string
	// Root is the workspace folder; "" → the resumed session's folder, else DefaultRoot, else the
	// recipe's folder, else the current folder.
	Root        string
	DefaultRoot string
	// ResumeID continues a stored session: its conversation, recipe, values and folder.
	ResumeID string
	// Provider and Model override the top-level run's provider and model (sub-agents pick theirs in
	// goose's order).
	Provider, Model string
	// Mode overrides GOOSE_MODE for this run ("": goose's configuration).
	Mode agent.Mode
	// Extensions are added to the run's extensions (a client's MCP servers for its session).
	Extensions []agent.ExtensionDoc
	// MaxTurns bounds the run (0: the recipe's settings, GOOSE_MAX_TURNS, 1000).
	MaxTurns int
	// NoSession stores nothing (a resumed run is stored anyway: it continues its session).
	NoSession bool
	// History is the conversation so far of a conversation that is not stored (ResumeID empty): a
	// client's session kept in memory.
	History []provider.Message
	// Perms replaces permission.yaml's permissions for this run (a client session's own, so its
	// "always" answers last as long as the session).
	Perms *agent.Permissions
	// Recipe is an already rendered recipe (JSON or YAML) to run when there is no RecipePath and the
	// resumed session stores none: a client session's recipe kept in memory.
	Recipe []byte
}

// SettingsError is goose's configuration that cannot be used; Loaded says config.yaml itself was read
// (the mode is wrong).
type SettingsError struct {
	Err    error
	Loaded bool
}

func (e *SettingsError) Error() string { return e.Err.Error() }
func (e *SettingsError) Unwrap() error { return e.Err }

// ResumeError is a session that cannot be resumed (session.ErrNotFound, or the store failed reading it).
type ResumeError struct {
	ID  string
	Err error
}

func (e *ResumeError) Error() string { return e.Err.Error() }
func (e *ResumeError) Unwrap() error { return e.Err }

// prepared is a request made ready to run.
type prepared struct {
	settings   agent.Settings
	doc        *agent.Doc
	recipePath string // absolute; "" for a prompt or a stored recipe
	params     map[string]string
	prompt     string
	root       string
	history    []provider.Message
	resumeID   string
	providers  agent.ProviderFactory
}

// Start validates the request, renders its recipe and starts the run on its own goroutine; ctx bounds
// the run (the CLI's interrupt; a server passes a context of its own lifetime). Errors returned here (bad
// settings, an unknown session, a recipe that is invalid or misses values) mean nothing ran; later
// failures end the run with an error and a failed done event.
func (h *Host) Start(ctx context.Context, req Request, fe Frontend) (*Run, error) {
	p, err := h.prepare(ctx, req, fe)
	if err != nil {
		return nil, h.redactor.RedactError(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	r := newRun(runCtx, cancel, h.opts.MaxUndoBytes)
	r.Root, r.ResumedID, r.session, r.Mode = p.root, p.resumeID, p.resumeID, p.settings.Mode
	r.Title = p.doc.Title
	if r.Title == "" {
		r.Title = "ask"
	}
	h.register(r)
	p.providers = h.providers(p.settings.Config, req)
	go h.execute(runCtx, r, req, p, fe)
	return r, nil
}

func (h *Host) prepare(ctx context.Context, req Request, fe Frontend) (*prepared, error) {
	st, err := h.Settings()
	if err != nil {
		return nil, &SettingsError{Err: err, Loaded: st.Config != nil}
	}
	if st.PermsErr != nil {
		h.warn(st.PermsErr.Error())
	}
	if req.Mode != "" {
		st.Mode = req.Mode
	}
	if req.Perms != nil {
		st.Perms = req.Perms
	}
	p := &prepared{settings: st, prompt: req.Prompt, params: map[string]string{}, recipePath: absPath(req.RecipePath), root: req.Root, history: req.History}
	for k, v := range req.Params {
		p.params[k] = v
	}
	var stored []byte // a resumed session's rendered recipe, when it has no recipe file (goose's sessions)
	if req.ResumeID != "" {
		store, err := h.Store(st.Config.DataDir)
		if err != nil {
			return nil, err
		}
		sess, history, err := store.Get(ctx, req.ResumeID)
		if err != nil {
			return nil, &ResumeError{ID: req.ResumeID, Err: err}
		}
		p.history, p.resumeID = history, sess.ID
		if p.recipePath == "" {
			p.recipePath = sess.RecipePath
			if p.recipePath == "" {
				stored = sess.ResumeRecipe()
			}
		}
		if p.root == "" {
			p.root = sess.WorkingDir
		}
		for k, v := range sess.RecipeValues {
			if _, set := p.params[k]; !set {
				p.params[k] = v
			}
		}
		if p.prompt == "" && req.RecipePath == "" { // a recipe the request names runs with its own prompt
			p.prompt = ContinuePrompt
		}
	}
	if p.recipePath == "" && stored == nil && req.Recipe != nil {
		stored = req.Recipe
	}
	p.root = h.rootFor(p.root, req.DefaultRoot, p.recipePath)
	switch {
	case p.recipePath != "":
		if p.doc, err = h.loadRecipe(p, fe); err != nil {
			return nil, err
		}
	case stored != nil:
		p.doc, _, err = agent.LoadRecipeText(filepath.Join(p.root, p.resumeID+".recipe.json"), stored, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("the recipe stored with session %s: %w", p.resumeID, err)
		}
	default:
		p.doc = &agent.Doc{}
	}
	return p, nil
}

// rootFor picks the workspace folder: the request's (or the resumed session's), the front end's
// default, the recipe's folder, the current folder.
func (h *Host) rootFor(root, fallback, recipePath string) string {
	switch {
	case root != "":
	case fallback != "":
		root = fallback
	case recipePath != "":
		root = filepath.Dir(recipePath)
	default:
		root, _ = os.Getwd()
	}
	return absPath(root)
}

// loadRecipe reads the recipe through the front end's files (buffers first) and validates and renders
// it with its sub-recipes read the same way inside the run's roots (the workspace and the recipe's folder).
func (h *Host) loadRecipe(p *prepared, fe Frontend) (*agent.Doc, error) {
	fsys := fe.Files()
	var text []byte
	var err error
	if fsys != nil {
		text, err = fsys.ReadFile(p.recipePath)
	} else {
		text, err = recipe.ReadRegularFile(p.recipePath, recipe.DefaultMaxSize)
	}
	if err != nil {
		if p.resumeID != "" {
			return nil, fmt.Errorf("session %s was a run of %s, which cannot be read: %w", p.resumeID, p.recipePath, err)
		}
		return nil, err
	}
	roots := []string{p.root, filepath.Dir(p.recipePath)}
	doc, _, err := agent.LoadRecipeFS(p.recipePath, text, p.params, fe.Asker(), fsys, roots)
	return doc, err
}

// execute runs on the run's own goroutine: start event, consent, recorder, the loop, the end.
func (h *Host) execute(ctx context.Context, r *Run, req Request, p *prepared, fe Frontend) {
	defer close(r.done) // last: a waiter sees the run finished in the table
	defer h.finish(r)
	defer r.cancel()
	emit := func(e Event) {
		e.RunID = r.ID
		fe.Event(r, e)
	}
	emit(Event{Kind: KindStart, Title: r.Title})
	if !h.consent(ctx, r, fe, p.recipePath, p.doc) {
		r.outcome = agent.Outcome{Status: StatusDeclined}
		emit(Event{Kind: KindDone, Status: string(StatusDeclined)})
		return
	}
	ws, err := fe.Workspace(r, p.root)
	if err != nil {
		h.failed(r, emit, fmt.Errorf("workspace %s: %w", p.root, err))
		return
	}
	cfg := p.settings.Config
	rec := h.recorder(r, req, p, emit)
	opts := agent.RunOptions{
		RecipePath: p.recipePath, Params: p.params, Prompt: p.prompt, History: p.history, MaxTurns: req.MaxTurns,
		Workspace: recordingWorkspace{Workspace: ws, onEdit: func(e Edit) {
			e = r.record(e)
			emit(Event{Kind: KindEdit, Path: h.redactor.Redact(e.Path), Turn: e.Turn, Created: e.Created})
		}},
		Files: fe.Files(), Ask: fe.Asker(), Extensions: req.Extensions, Lookup: cfg.Get, Secret: cfg.GetSecret, Mode: p.settings.Mode, Perms: p.settings.Perms,
		Redactor: h.redactor, Providers: p.providers,
		Approver: agent.ApproverFunc(func(ctx context.Context, ar agent.ApprovalRequest) (agent.Decision, error) {
			return fe.Approve(ctx, r, ar)
		}),
		Events: func(le agent.Event) {
			if le.Kind == agent.EventTurnStart && le.Agent == "" {
				r.setTurn(le.Turn)
			}
			emit(fromLoop(r.ID, le))
		},
	}
	if term, ok := fe.(Terminal); ok {
		opts.Shell = func(ctx context.Context, dir, command string, timeout time.Duration, env []string) tools.Result {
			return term.Shell(ctx, r, dir, command, timeout, env)
		}
	}
	if rec != nil { // (a nil *runRecorder in the interface would not be nil)
		opts.Recorder = rec
	}
	out, err := agent.RunDoc(ctx, p.doc, opts)
	if rec != nil {
		if err := rec.Err(); err != nil { // every write was done (or failed) before the run ended
			h.warn("storing the session failed: " + err.Error())
		}
	}
	if err != nil {
		h.failed(r, emit, err)
		return
	}
	r.outcome = out
}

// failed ends a run that could not start: its (redacted) error, then done with status failed.
func (h *Host) failed(r *Run, emit func(Event), err error) {
	err = h.redactor.RedactError(err)
	r.outcome, r.err = agent.Outcome{Status: agent.StatusFailed, Err: err}, err
	emit(Event{Kind: KindError, Text: err.Error()})
	emit(Event{Kind: KindDone, Status: string(agent.StatusFailed)})
}

// recorder stores the run as a session, or returns nil (sessions off, or a store that cannot be opened:
// a warning, and the run goes on unstored). The store opens now, as the run starts, so that each message
// is committed as the loop records it.
func (h *Host) recorder(r *Run, req Request, p *prepared, emit func(Event)) *runRecorder {
	if req.NoSession && p.resumeID == "" {
		return nil
	}
	store, err := h.Store(p.settings.Config.DataDir)
	if err != nil {
		h.warn("sessions are not stored: " + err.Error())
		return nil
	}
	return &runRecorder{&session.Recorder{Store: store, ID: p.resumeID,
		Meta: session.Session{Name: session.NameFor(p.recipePath, p.prompt), WorkingDir: p.root, RecipePath: p.recipePath,
			RecipeValues: req.Params, GooseMode: string(p.settings.Mode)},
		OnCreate: func(id string) {
			r.setSession(id)
			emit(Event{Kind: KindSession, SessionID: id})
		},
	}}
}

// providers is the run's provider factory: the host's (or goose's configuration), with the request's
// provider and model applied to the first resolution only — the top-level run's.
func (h *Host) providers(cfg configure.Source, req Request) agent.ProviderFactory {
	var resolvedTopLevel atomic.Bool
	return func(s provider.Settings) (provider.Setup, error) {
		if !resolvedTopLevel.Swap(true) {
			if req.Provider != "" {
				s.Provider = req.Provider
			}
			if req.Model != "" {
				s.Model = req.Model
			}
		}
		return h.Provider(cfg, s)
	}
}
