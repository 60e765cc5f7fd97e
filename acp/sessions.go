// Sessions: session/new, session/load (the stored conversation replayed), session/list, session/close,
// and the state one conversation keeps between prompts.

package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/agent/session"
)

// acpSession is one conversation: its folder, mode, model and the MCP servers the client gave; its id is
// the stored goose session's, so the CLI and the editor can resume it.
type acpSession struct {
	id     string
	cwd    string
	stored bool // id names a session in the store
	mcp    []agent.ExtensionDoc
	perms  *agent.Permissions // "always" answers of this session

	mu           sync.Mutex
	mode         agent.Mode
	provider     string // the provider option's value ("": goose's configuration)
	model        string // the model option's value
	recipe       []byte // the rendered recipe of a goose recipe session (session/new _meta), as JSON
	recipeRun    []byte // that recipe as its runs take it (without its parameters)
	contextLimit int
	history      []provider.Message // the conversation when it is not stored
	cancel       context.CancelFunc // the running prompt's (nil when idle)
	idle         chan struct{}      // closed when the running prompt ends
	rejected     map[string]bool    // tools answered "reject always" in this session
	commands     []slashCommand
	configured   string // the provider goose's configuration names

	dataDir  string           // goose's data folder (the session store's)
	settings configure.Source // goose's configuration (settings and secrets)
}

// cancelPrompt cancels the running prompt, if any.
func (s *acpSession) cancelPrompt() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// waitIdle waits for the running prompt (if any) to end.
func (s *acpSession) waitIdle() {
	s.mu.Lock()
	idle := s.idle
	s.mu.Unlock()
	if idle != nil {
		<-idle
	}
}

// NewSession opens a conversation in cwd (absolute), stored at once so its id is goose's session id; with
// goose's _meta.recipeDeeplink or _meta.recipeId it is a recipe session (gooserecipe.go).
func (a *Agent) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	src, err := a.sessionRecipe(p.Meta)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	s, err := a.newSessionState(p.Cwd, p.McpServers, "")
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	var rendered *renderedRecipe
	if src != nil {
		if rendered, err = a.newRecipeSession(ctx, s, src, p.Meta); err != nil {
			return sdk.NewSessionResponse{}, err
		}
	} else {
		if err := a.providerReady(s.provider); err != nil {
			return sdk.NewSessionResponse{}, err
		}
		if err := a.registerSession(ctx, s, "", ""); err != nil {
			return sdk.NewSessionResponse{}, err
		}
	}
	go a.advertiseCommands(s)
	resp := sdk.NewSessionResponse{SessionId: sdk.SessionId(s.id), Modes: s.modeState(), ConfigOptions: s.configOptions()}
	if rendered != nil {
		resp.Meta = rendered.responseMeta(s.cwd)
	}
	return resp, nil
}

// newRecipeSession sets a recipe session up in goose's order: the session is created first (named
// after the recipe's title), so the parameter request names the id session/new answers with; then the
// recipe is rendered, its provider checked and it is stored with the session. A set-up that fails
// after the creation (cancelled, values still missing, no usable provider) deletes the session, as
// goose's cleanup_failed_new_session does.
func (a *Agent) newRecipeSession(ctx context.Context, s *acpSession, src *sessionRecipe, meta map[string]any) (*renderedRecipe, error) {
	if err := a.registerSession(ctx, s, "", strings.TrimSpace(src.recipe.Title)); err != nil {
		return nil, err
	}
	rendered, err := a.renderSessionRecipe(ctx, src, s.id, s.cwd, meta)
	if err == nil {
		s.useRecipe(rendered, a.host.Provider, s.settings)
		err = a.providerReady(s.provider)
	}
	if err == nil && s.stored {
		err = a.storeRecipe(ctx, s, rendered)
	}
	if err != nil {
		a.dropSession(context.WithoutCancel(ctx), s)
		return nil, err
	}
	return rendered, nil
}

// storeRecipe keeps the rendered recipe and the client's values with the stored session.
func (a *Agent) storeRecipe(ctx context.Context, s *acpSession, r *renderedRecipe) error {
	store, err := a.host.Store(s.dataDir)
	if err == nil {
		err = store.SetRecipe(ctx, s.id, s.recipe, r.values)
	}
	if err != nil {
		return sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return nil
}

// dropSession forgets a session whose set-up failed and deletes it from the store (a failure to
// delete is logged, as goose logs it).
func (a *Agent) dropSession(ctx context.Context, s *acpSession) {
	a.mu.Lock()
	if a.sessions[s.id] == s {
		delete(a.sessions, s.id)
	}
	a.mu.Unlock()
	if !s.stored {
		return
	}
	store, err := a.host.Store(s.dataDir)
	if err == nil {
		err = store.Delete(ctx, s.id)
	}
	if err != nil {
		slog.Warn("acp: deleting the session of a failed set-up", "session", s.id, "err", err)
	}
}

// LoadSession replays a stored session (this one's or one the CLI or the editor made) as updates, then
// continues it.
func (a *Agent) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	stored, msgs, err := a.storedSession(ctx, string(p.SessionId))
	if err != nil {
		return sdk.LoadSessionResponse{}, sdk.NewInvalidParams(map[string]any{"sessionId": p.SessionId, "error": err.Error()})
	}
	s, err := a.openSession(ctx, stored.ID, p.Cwd, p.McpServers, agent.Mode(stored.GooseMode))
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	for _, u := range replay(msgs, s.cwd) {
		a.update(ctx, s.id, u)
	}
	go a.advertiseCommands(s)
	return sdk.LoadSessionResponse{Modes: s.modeState(), ConfigOptions: s.configOptions()}, nil
}

// openSession registers a session: a new stored one when id is "", else the stored session id.
func (a *Agent) openSession(ctx context.Context, id, cwd string, servers []sdk.McpServer, mode agent.Mode) (*acpSession, error) {
	s, err := a.newSessionState(cwd, servers, mode)
	if err != nil {
		return nil, err
	}
	if err := a.registerSession(ctx, s, id, ""); err != nil {
		return nil, err
	}
	return s, nil
}

// newSessionState checks the folder and MCP servers and sets the session up from goose's settings.
func (a *Agent) newSessionState(cwd string, servers []sdk.McpServer, mode agent.Mode) (*acpSession, error) {
	if !filepath.IsAbs(cwd) {
		return nil, sdk.NewInvalidParams(map[string]any{"cwd": cwd, "error": "cwd must be an absolute path"})
	}
	mcp, err := extensionsFor(servers)
	if err != nil {
		return nil, sdk.NewInvalidParams(map[string]any{"mcpServers": err.Error()})
	}
	st, err := a.host.Settings()
	if err != nil {
		return nil, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	if mode == "" {
		mode = st.Mode
	}
	s := &acpSession{cwd: filepath.Clean(cwd), mcp: mcp, perms: st.Perms, mode: mode, rejected: map[string]bool{},
		dataDir: st.Config.DataDir, settings: st.Config}
	if setup, err := a.host.Provider(st.Config, provider.Settings{}); err == nil {
		s.model, s.contextLimit, s.configured = setup.Model, setup.ContextLimit, setup.Name
	}
	return s, nil
}

// registerSession stores a new session when id is "" (named name, or after its folder when name is "")
// and makes it one of the open sessions.
func (a *Agent) registerSession(ctx context.Context, s *acpSession, id, name string) error {
	if id == "" {
		if name == "" {
			name = "ACP: " + filepath.Base(s.cwd)
		}
		meta := session.Session{Name: name, WorkingDir: s.cwd, GooseMode: string(s.mode)}
		var err error
		if id, err = a.createSession(ctx, s.dataDir, meta); err != nil {
			return sdk.NewInternalError(map[string]any{"error": err.Error()})
		}
	}
	s.stored = id != ""
	a.mu.Lock()
	defer a.mu.Unlock()
	if id == "" {
		a.seq++
		id = "acp-" + strconv.Itoa(a.seq)
	}
	if old := a.sessions[id]; old != nil {
		old.cancelPrompt()
	}
	s.id = id
	a.sessions[id] = s
	return nil
}

// extensionsFor turns the client's MCP servers into extensions (stdio and streamable HTTP).
func extensionsFor(servers []sdk.McpServer) ([]agent.ExtensionDoc, error) {
	var out []agent.ExtensionDoc
	for _, m := range servers {
		switch {
		case m.Stdio != nil:
			env := map[string]string{}
			for _, e := range m.Stdio.Env {
				env[e.Name] = e.Value
			}
			out = append(out, agent.ExtensionDoc{Type: "stdio", Name: m.Stdio.Name, Cmd: m.Stdio.Command, Args: m.Stdio.Args, Envs: env})
		case m.Http != nil:
			headers := map[string]string{}
			for _, h := range m.Http.Headers {
				headers[h.Name] = h.Value
			}
			out = append(out, agent.ExtensionDoc{Type: "streamable_http", Name: m.Http.Name, URI: m.Http.Url, Headers: headers})
		case m.Sse != nil:
			return nil, fmt.Errorf("MCP server %s: sse is not supported (mcpCapabilities.sse is false); use http", m.Sse.Name)
		default:
			return nil, fmt.Errorf("an MCP server of an unknown type")
		}
	}
	return out, nil
}

// ListSessions lists the stored sessions (of cwd when given), most recent first.
func (a *Agent) ListSessions(ctx context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	list, err := a.listSessions(ctx)
	if err != nil {
		return sdk.ListSessionsResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for _, se := range list {
		if se.WorkingDir == "" || !filepath.IsAbs(se.WorkingDir) || (p.Cwd != nil && filepath.Clean(*p.Cwd) != filepath.Clean(se.WorkingDir)) {
			continue
		}
		info := sdk.SessionInfo{SessionId: sdk.SessionId(se.ID), Cwd: se.WorkingDir, Title: sdk.Ptr(se.Name)}
		if !se.UpdatedAt.IsZero() {
			info.UpdatedAt = sdk.Ptr(se.UpdatedAt.UTC().Format(time.RFC3339))
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}

// CloseSession cancels the session's prompt and forgets it (the stored session stays).
func (a *Agent) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.CloseSessionResponse{}, err
	}
	s.cancelPrompt()
	s.waitIdle()
	a.mu.Lock()
	if a.sessions[s.id] == s {
		delete(a.sessions, s.id)
	}
	a.mu.Unlock()
	return sdk.CloseSessionResponse{}, nil
}

// Cancel ends the session's running prompt; it answers "cancelled".
func (a *Agent) Cancel(_ context.Context, p sdk.CancelNotification) error {
	if s, err := a.session(p.SessionId); err == nil {
		s.cancelPrompt()
	}
	return nil
}

// createSession stores a new session and returns its id ("" when sessions are off or the store cannot
// open: the conversation is kept in memory).
func (a *Agent) createSession(ctx context.Context, dataDir string, meta session.Session) (string, error) {
	if a.opts.NoSessions {
		return "", nil
	}
	store, err := a.host.Store(dataDir)
	if err != nil {
		slog.Warn("acp: sessions are not stored", "err", err)
		return "", nil
	}
	id, err := store.Create(ctx, meta)
	if err != nil {
		return "", fmt.Errorf("creating the session: %w", err)
	}
	return id, nil
}

// storedSession reads a stored session and its conversation.
func (a *Agent) storedSession(ctx context.Context, id string) (session.Session, []provider.Message, error) {
	if a.opts.NoSessions {
		return session.Session{}, nil, errors.New("sessions are not stored (goose-ls acp --no-session)")
	}
	return a.host.Session(ctx, id)
}

// listSessions lists the stored sessions, most recent first (none when sessions are off).
func (a *Agent) listSessions(ctx context.Context) ([]session.Session, error) {
	if a.opts.NoSessions {
		return nil, nil
	}
	return a.host.Sessions(ctx)
}
