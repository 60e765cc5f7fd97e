// The seam between the language server and the editor's agent runs (lsp/editoragent): Agent is what the
// server asks of them, Editor is what they may use of the server — its open documents and the client.

package lsp

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/source"
)

// Agent answers the agent commands (runs, cancel, undo, sessions) of one server.
type Agent interface {
	// Execute answers workspace/executeCommand for one of AgentCommands.
	Execute(ctx context.Context, command string, arg json.RawMessage) (any, error)
	// CancelProgress cancels the run that reports work-done progress under token (window/workDoneProgress/cancel).
	CancelProgress(token string)
	// Close ends the agent when the server ends.
	Close() error
}

// AgentCommands are the commands the server passes to its Agent.
var AgentCommands = []string{"goose.runRecipe", "goose.ask", "goose.cancel", "goose.undoTurn", "goose.listSessions", "goose.resume"}

// Editor is the server as its agent sees it (in this process: the server itself; in an agent process:
// lsp/agentrelay's remote editor). Every method is safe for concurrent use.
type Editor interface {
	// Root is the workspace folder agent runs work in.
	Root() string
	// Settings are the client's agent settings now.
	Settings() AgentSettings
	// Caps are the client's abilities.
	Caps() Caps
	// Doc returns the open document u (nil when it is not open).
	Doc(u protocol.DocumentURI) *Doc
	// AwaitText waits, at most timeout, until the open document u holds want (or is closed); otherwise
	// it returns the document's text and false.
	AwaitText(u protocol.DocumentURI, want []byte, timeout time.Duration) (string, bool)
	// Call sends a request to the client and decodes its result into result.
	Call(ctx context.Context, method string, params, result any) error
	// Notify sends a notification to the client.
	Notify(ctx context.Context, method string, params any)
	// LogMessage sends window/logMessage (typ: 1 error … 4 log).
	LogMessage(typ int, msg string)
	// BeginProgress starts work-done progress under token when the client supports it.
	BeginProgress(ctx context.Context, token, title string) Progress
	// Files reads open buffers first (unsaved text), the disk otherwise (a recipe.Buffers).
	Files() recipe.FS
}

// Progress is one run's work-done progress.
type Progress interface {
	// Report sends a step (repeated steps are sent once).
	Report(step string)
	// End ends the progress with status.
	End(status string)
}

// serverEditor is the Editor of a server in this process.
type serverEditor struct{ s *Server }

// Doc is an open document's text as the server holds it.
type Doc struct {
	Text    []byte
	Version int32
	Lines   *source.LineIndex
}

// Caps are the client's abilities that shape the agent's edits.
type Caps struct {
	UTF8              bool // positions count UTF-8 bytes (else UTF-16 units)
	CreateFiles       bool
	DeleteFiles       bool
	ChangeAnnotations bool
	Progress          bool
}

// AgentSettings are the client's settings that concern agent runs.
type AgentSettings struct {
	NoSessions  bool
	ReviewEdits bool
}

func (e serverEditor) Root() string {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.s.root
}

// Settings are the agent's settings now.
func (e serverEditor) Settings() AgentSettings {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return AgentSettings{NoSessions: e.s.settings.NoSessions, ReviewEdits: e.s.settings.ReviewEdits}
}

// Caps are the client's abilities.
func (e serverEditor) Caps() Caps {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return Caps{UTF8: e.s.utf8, CreateFiles: e.s.createFiles, DeleteFiles: e.s.deleteFiles, ChangeAnnotations: e.s.changeAnnotations, Progress: e.s.progress}
}

// Doc returns the open document u (nil when it is not open).
func (e serverEditor) Doc(u protocol.DocumentURI) *Doc {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	d := e.s.docs[u]
	if d == nil {
		return nil
	}
	return &Doc{Text: d.text, Version: d.version, Lines: d.lines}
}

// AwaitText waits, at most timeout, until the open document u holds want (or is closed); otherwise it
// returns the document's text and false.
func (e serverEditor) AwaitText(u protocol.DocumentURI, want []byte, timeout time.Duration) (string, bool) {
	return e.s.awaitText(u, want, timeout)
}

// Call sends a request to the client and decodes its result into result.
func (e serverEditor) Call(ctx context.Context, method string, params, result any) error {
	_, err := e.s.conn.Call(ctx, method, params, result)
	return err
}

// Notify sends a notification to the client.
func (e serverEditor) Notify(ctx context.Context, method string, params any) {
	e.s.notify(ctx, method, params)
}

// LogMessage sends window/logMessage (typ: 1 error … 4 log).
func (e serverEditor) LogMessage(typ int, msg string) { e.s.logMessage(typ, msg) }

// BeginProgress starts work-done progress under token when the client supports it.
func (e serverEditor) BeginProgress(ctx context.Context, token, title string) Progress {
	return e.s.beginProgress(ctx, token, title)
}

// Files reads open buffers first (unsaved text), the disk otherwise.
func (e serverEditor) Files() recipe.FS { return overlayFS(e) }

// Range converts a byte range of text indexed by lines to the client's positions (caps.UTF8: UTF-8 bytes).
func Range(lines *source.LineIndex, r source.Range, utf8 bool) protocol.Range {
	return toRange(lines, r, utf8)
}

// Offset converts a client position to a byte offset of text indexed by lines.
func Offset(lines *source.LineIndex, p protocol.Position, utf8 bool) int {
	return toOffset(lines, p, utf8)
}

// FileURI is the file: URI of an absolute path.
func FileURI(abs string) protocol.DocumentURI { return protocol.DocumentURI(uri.File(abs)) }

// URIPath is the file path of a file: URI.
func URIPath(u protocol.DocumentURI) string { return uriPath(u) }

// logMessage sends window/logMessage.
func (s *Server) logMessage(typ int, msg string) {
	s.notify(context.Background(), "window/logMessage", map[string]any{"type": typ, "message": msg})
}

// awaitText waits, at most timeout, until the open document u holds want (or is closed); otherwise it
// returns the document's text and false.
func (s *Server) awaitText(u protocol.DocumentURI, want []byte, timeout time.Duration) (string, bool) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		d := s.docs[u]
		if d == nil || string(d.text) == string(want) {
			s.mu.Unlock()
			return "", true
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-timer.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			if d := s.docs[u]; d != nil && string(d.text) != string(want) {
				slog.Debug("lsp: the editor answered an edit as applied, but the buffer does not hold it", "uri", u)
				return string(d.text), false
			}
			return "", true
		}
	}
}
