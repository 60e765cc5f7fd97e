// Editor runs are stored as goose sessions (SQLite, the same store as `goose-ls run`); goose.listSessions
// lists them and goose.resume continues one with a new prompt.

package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/session"
)

// sessionStore opens the sessions database once; later calls share it. It redacts with the server's
// redactor, which every run adds its secrets to. The store's notice (goose's store left alone, or an old
// goose-ls store migrated) is logged once, as the store opens.
func (s *Server) sessionStore(dataDir string) (*session.Store, error) {
	s.storeMu.Lock()
	if s.store != nil {
		defer s.storeMu.Unlock()
		return s.store, nil
	}
	st, err := session.Open(session.DefaultPath(dataDir), s.redactor.Redact)
	if err == nil {
		s.store = st
	}
	s.storeMu.Unlock()
	if err != nil {
		return nil, err
	}
	if notice := st.Notice(); notice != nil {
		s.logMessage(2, "goose: "+notice.Error())
	}
	return st, nil
}

// closeStore closes the sessions database when the server ends.
func (s *Server) closeStore() {
	s.storeMu.Lock()
	defer s.storeMu.Unlock()
	if s.store != nil {
		_ = s.store.Close()
		s.store = nil
	}
}

// recorder stores the run as a session, or returns nil (sessions off, or the store cannot open).
func (s *Server) recorder(r *agentRun, spec runSpec, dataDir string) *session.Recorder {
	s.mu.Lock()
	off := s.settings.NoSessions
	s.mu.Unlock()
	if off {
		return nil
	}
	store, err := s.sessionStore(dataDir)
	if err != nil {
		s.logMessage(2, "goose: sessions are not stored: "+err.Error())
		return nil
	}
	rec := &session.Recorder{Store: store, ID: spec.sessionID,
		Meta:     session.Session{Name: session.NameFor(spec.recipePath, spec.prompt), WorkingDir: spec.root, RecipePath: spec.recipePath, RecipeValues: spec.params},
		OnCreate: func(id string) { s.runEvent(r, map[string]any{"kind": "session", "sessionId": id}) },
	}
	return rec
}

// storeForRequest opens the store for a listing or a resume.
func (s *Server) storeForRequest() (*session.Store, error) {
	cfg, err := config.Load(os.LookupEnv)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: err.Error()}
	}
	store, err := s.sessionStore(cfg.DataDir)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "sessions: " + err.Error()}
	}
	return store, nil
}

// listSessions answers goose.listSessions: the stored sessions, most recent first.
func (s *Server) listSessions(ctx context.Context) (any, error) {
	store, err := s.storeForRequest()
	if err != nil {
		return nil, err
	}
	list, err := store.List(ctx)
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "sessions: " + err.Error()}
	}
	out := []map[string]any{}
	for _, se := range list {
		out = append(out, map[string]any{
			"id": se.ID, "name": se.Name, "type": se.Type, "workingDir": se.WorkingDir, "recipePath": se.RecipePath,
			"provider": se.Provider, "model": se.Model, "mode": se.GooseMode, "messages": se.Messages,
			"inputTokens": se.InputTokens, "outputTokens": se.OutputTokens,
			"createdAt": se.CreatedAt.Format(time.RFC3339), "updatedAt": se.UpdatedAt.Format(time.RFC3339),
		})
	}
	return out, nil
}

// resume answers goose.resume: the session's conversation goes on with a new prompt, in its folder and
// with its recipe (read again, through open buffers) and parameter values.
func (s *Server) resume(ctx context.Context, id, prompt string) (any, error) {
	if id == "" {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.resume needs a sessionId"}
	}
	store, err := s.storeForRequest()
	if err != nil {
		return nil, err
	}
	sess, history, err := store.Get(ctx, id)
	if errors.Is(err, session.ErrNotFound) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InternalError, Message: "sessions: " + err.Error()}
	}
	if prompt == "" {
		prompt = "Continue where you left off."
	}
	spec := runSpec{prompt: prompt, root: sess.WorkingDir, history: history, sessionID: sess.ID, params: sess.RecipeValues}
	if sess.RecipePath != "" {
		text, err := overlayFS{s}.ReadFile(sess.RecipePath)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("session %s was a run of %s, which cannot be read: %v", id, sess.RecipePath, err)}
		}
		doc, _, err := agent.LoadRecipeText(sess.RecipePath, text, sess.RecipeValues, nil)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
		}
		spec.doc, spec.recipePath = doc, sess.RecipePath
	} else if text := sess.ResumeRecipe(); text != nil {
		// a session goose made from a recipe keeps the rendered recipe (recipe_json), not its file
		doc, _, err := agent.LoadRecipeText(filepath.Join(sess.WorkingDir, sess.ID+".recipe.json"), text, nil, nil)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: fmt.Sprintf("the recipe stored with session %s: %v", id, err)}
		}
		spec.doc = doc
	}
	slog.Debug("lsp: resuming a session", "session", id, "messages", len(history))
	return s.startRun(spec)
}
