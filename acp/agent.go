// Package acp is goose-ls's Agent Client Protocol agent (`goose-ls acp`): protocol glue over
// github.com/coder/acp-go-sdk, one session per conversation, each prompt a run of goose's agent loop.
package acp

import (
	"context"
	"io"
	"log/slog"
	"os"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
)

// Options configure the agent.
type Options struct {
	Version string
	// Lookup reads the environment (nil: the process's).
	Lookup func(string) (string, bool)
	// Providers replaces provider resolution (benchmarks and tests).
	Providers agent.ProviderFactory
	// NoSessions keeps sessions in memory only.
	NoSessions bool
	// Redactor hides the run's secrets in updates, the store and the log (nil: a new one).
	Redactor *agent.Redactor
}

// Agent answers one client.
type Agent struct {
	conn      *sdk.AgentSideConnection // set once, before connReady closes
	connReady chan struct{}
	host      *host.Host
	opts      Options

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[string]*acpSession
	seq      int // ids of sessions when no store is open
}

// Serve runs the agent on in/out until the client disconnects or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	a := newAgent(opts)
	a.conn = sdk.NewAgentSideConnection(a, out, in) // its reader may hand requests over before this returns
	close(a.connReady)
	a.conn.SetLogger(slog.Default())
	defer a.shutdown()
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	return nil
}

func newAgent(opts Options) *Agent {
	if opts.Lookup == nil {
		opts.Lookup = os.LookupEnv
	}
	if opts.Redactor == nil {
		opts.Redactor = &agent.Redactor{}
	}
	h := host.New(host.Options{Env: opts.Lookup, Providers: opts.Providers, Redactor: opts.Redactor,
		Warn: func(msg string) { slog.Warn("acp: " + msg) }})
	return &Agent{opts: opts, sessions: map[string]*acpSession{}, connReady: make(chan struct{}), host: h}
}

// shutdown cancels every running prompt and closes the store.
func (a *Agent) shutdown() {
	a.mu.Lock()
	list := make([]*acpSession, 0, len(a.sessions))
	for _, s := range a.sessions {
		list = append(list, s)
	}
	a.mu.Unlock()
	for _, s := range list {
		s.cancelPrompt()
		s.waitIdle()
	}
	_ = a.host.Close()
}

// Initialize answers with what goose-ls really does: load, list and close sessions, embedded context,
// MCP over HTTP; no images or audio; one auth method, the terminal set-up (auth.go).
func (a *Agent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.mu.Lock()
	a.client = p.ClientCapabilities
	a.mu.Unlock()
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List:  &sdk.SessionListCapabilities{},
				Close: &sdk.SessionCloseCapabilities{},
			},
		},
		AgentInfo:   &sdk.Implementation{Name: "goose-ls", Version: a.opts.Version},
		AuthMethods: []sdk.AuthMethod{configureMethod()},
	}, nil
}

// clientCaps is what the client advertised.
func (a *Agent) clientCaps() sdk.ClientCapabilities {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.client
}

// Logout has nothing to forget.
func (a *Agent) Logout(context.Context, sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	return sdk.LogoutResponse{}, nil
}

// ResumeSession is not advertised (session/load replays instead).
func (a *Agent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// session finds an open session.
func (a *Agent) session(id sdk.SessionId) (*acpSession, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sessions[string(id)]
	if s == nil {
		return nil, sdk.NewInvalidParams(map[string]any{"sessionId": id, "error": "no open session " + string(id)})
	}
	return s, nil
}

// peer is the connection to the client (requests can arrive before Serve has stored it).
func (a *Agent) peer() *sdk.AgentSideConnection {
	<-a.connReady
	return a.conn
}

// update sends one session/update; a client that went away only loses it.
func (a *Agent) update(ctx context.Context, id string, u sdk.SessionUpdate) {
	if err := a.peer().SessionUpdate(ctx, sdk.SessionNotification{SessionId: sdk.SessionId(id), Update: u}); err != nil {
		slog.Debug("acp: session/update not sent", "session", id, "err", err)
	}
}
