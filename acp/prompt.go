// session/prompt: the content blocks become the user message (or a recipe run for `/name k=v`), the run
// reports through promptUpdates, and its end becomes the stop reason (cancel → "cancelled").

package acp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// baseCtx is for messages that must go out even after a prompt was cancelled (its last updates).
func (a *Agent) baseCtx() context.Context { return context.Background() }

// begin marks the session busy with a prompt; false when one is running.
func (s *acpSession) begin(cancel context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return false
	}
	s.cancel, s.idle = cancel, make(chan struct{})
	return true
}

// end marks the session idle.
func (s *acpSession) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancel()
	close(s.idle)
	s.cancel, s.idle = nil, nil
}

// Prompt runs one turn of the conversation.
func (a *Agent) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	s, err := a.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	s.mu.Lock()
	sessionProvider := s.provider
	s.mu.Unlock()
	if err := a.providerReady(sessionProvider); err != nil {
		return sdk.PromptResponse{}, err // the configuration changed since the session opened
	}
	runCtx, cancel := context.WithCancel(ctx)
	if !s.begin(cancel) {
		cancel()
		return sdk.PromptResponse{}, sdk.NewInvalidRequest(map[string]any{"error": "a prompt is already running in this session"})
	}
	defer s.end()

	text := promptText(p.Prompt)
	caps := a.clientCaps()
	conn := a.peer()
	var fsClient clientFS
	if caps.Fs.ReadTextFile || caps.Fs.WriteTextFile {
		fsClient = conn
	}
	ws := newSessionWorkspace(s.cwd, s.id, fsClient, caps.Fs)
	upd := newPromptUpdates(a.baseCtx(), a, s, ws)
	pf := &promptFrontend{ctx: runCtx, conn: conn, session: s, approver: &approver{client: conn, session: s, updates: upd}, ws: ws, updates: upd}
	var fe host.Frontend = pf
	if caps.Terminal {
		fe = &terminalFrontend{promptFrontend: pf, shell: &terminalShell{client: conn, sessionID: s.id, started: upd.terminalStarted}}
	}
	s.mu.Lock()
	req := host.Request{Prompt: text, Root: s.cwd, Mode: s.mode, Perms: s.perms, Provider: s.provider, Model: s.model, Extensions: s.mcp, NoSession: !s.stored}
	if s.stored {
		req.ResumeID = s.id // a recipe session's recipe is stored with it
	} else {
		req.History, req.Recipe = s.history, s.recipeRun
	}
	s.mu.Unlock()

	if command, _, ok := parseGooseSlash(text); ok && runsBuiltin(command) { // goose's built-ins come first
		return a.clearConversation(runCtx, s, text)
	}
	name, values, isCommand, perr := parseSlash(text)
	cmd, known := s.findCommand(name)
	if isCommand && known {
		if cmd.goose != nil {
			_, rest, _ := strings.Cut(strings.TrimSpace(text), " ")
			if values, perr = cmd.goose.args(rest); perr != nil {
				perr = fmt.Errorf("Recipe /%s: %v", name, perr)
			}
		}
		if perr != nil {
			return a.reply(s, perr.Error())
		}
		req.RecipePath, req.Params, req.Prompt = cmd.path, values, ""
		if el := caps.Elicitation; el != nil && el.Form != nil {
			pf.ask = a.elicitAsker(runCtx)
		}
	} else if loaded, found, err := a.skillPrompt(s.cwd, text); found {
		if err != nil {
			return a.reply(s, err.Error())
		}
		req.Prompt = loaded // goose sends the skill's text in place of the command
	}
	var out agent.Outcome
	run, err := a.host.Start(runCtx, req, fe)
	if err == nil {
		out, err = run.Wait()
	}
	if runCtx.Err() != nil {
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	if err != nil {
		err = a.host.Redactor().RedactError(err)
		var missing *render.MissingError
		var declined *elicitationError
		if errors.As(err, &missing) || errors.As(err, &declined) || isRecipeProblem(err) {
			return a.reply(s, err.Error()) // goose's message, as the CLI prints it
		}
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	if out.Status == host.StatusDeclined {
		return a.reply(s, "goose-ls: the recipe was not run (its commands were not allowed)")
	}
	if !s.stored {
		s.mu.Lock()
		s.history = out.Messages
		s.mu.Unlock()
	}
	switch out.Status {
	case agent.StatusCompleted:
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	case agent.StatusCancelled:
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	case agent.StatusMaxTurns:
		return sdk.PromptResponse{StopReason: sdk.StopReasonMaxTurnRequests}, nil
	case agent.StatusRetriesExhausted:
		return a.reply(s, "goose-ls: the recipe's retry checks still fail after its last retry")
	}
	msg := string(out.Status)
	if out.Err != nil {
		msg = out.Err.Error()
	}
	return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": msg})
}

// clearConversation is goose's /clear: the conversation is emptied (the stored session's messages
// replaced by none and its token counts zeroed, with the command and its answer kept for the user only),
// and the answer is "Conversation cleared".
func (a *Agent) clearConversation(ctx context.Context, s *acpSession, command string) (sdk.PromptResponse, error) {
	const answer = "Conversation cleared"
	if s.stored {
		store, err := a.host.Store(s.dataDir)
		if err == nil {
			err = store.ClearConversation(ctx, s.id, command, answer)
		}
		if err != nil {
			return a.reply(s, a.host.Redactor().RedactError(err).Error())
		}
	} else {
		s.mu.Lock()
		s.history = nil
		s.mu.Unlock()
	}
	return a.reply(s, answer)
}

// reply ends the turn with one message (a problem the user can fix, such as a missing value).
func (a *Agent) reply(s *acpSession, text string) (sdk.PromptResponse, error) {
	a.update(a.baseCtx(), s.id, sdk.UpdateAgentMessageText(text))
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}

// isRecipeProblem is an error about the recipe itself (invalid, unreadable), not the run.
func isRecipeProblem(err error) bool {
	return strings.Contains(err.Error(), "is not a valid recipe") || errors.Is(err, agent.ErrNoPrompt)
}

// elicitAsker asks the client for a missing user_prompt value with a one-field form.
func (a *Agent) elicitAsker(ctx context.Context) render.Asker {
	return func(key, description string) (string, error) {
		schema := sdk.UnstableElicitationSchema{Type: sdk.UnstableElicitationSchemaTypeObject, Required: []string{key},
			Properties: map[string]any{key: map[string]any{"type": "string", "title": key, "description": description}}}
		req := sdk.NewUnstableCreateElicitationRequestForm(schema)
		req.Form.Message = fmt.Sprintf("The recipe needs a value for %s: %s", key, description)
		resp, err := a.peer().UnstableCreateElicitation(ctx, req)
		if err != nil {
			return "", &elicitationError{fmt.Sprintf("asking for %s: %v", key, err)}
		}
		if resp.Accept == nil {
			return "", &elicitationError{fmt.Sprintf("the recipe was not run: no value for %s", key)}
		}
		v, ok := resp.Accept.Content[key].(string)
		if !ok {
			return "", &elicitationError{fmt.Sprintf("the recipe was not run: the answer has no text value for %s", key)}
		}
		return v, nil
	}
}

// elicitationError is a value the user did not give: the turn ends with it as the reply.
type elicitationError struct{ text string }

func (e *elicitationError) Error() string { return e.text }

// promptText is the user message: text as it is, a resource link as a reference to its file, an
// embedded resource (a selection) quoted with its origin.
func promptText(blocks []sdk.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.ResourceLink != nil:
			parts = append(parts, fmt.Sprintf("The user refers to %s (%s).", uriPath(b.ResourceLink.Uri), b.ResourceLink.Name))
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			parts = append(parts, fmt.Sprintf("Context from %s:\n```\n%s\n```", uriPath(r.Uri), strings.TrimRight(r.Text, "\n")))
		case b.Resource != nil && b.Resource.Resource.BlobResourceContents != nil:
			parts = append(parts, fmt.Sprintf("(binary content from %s not included)", uriPath(b.Resource.Resource.BlobResourceContents.Uri)))
		}
	}
	return strings.Join(parts, "\n\n")
}

// uriPath is a file: URI's path, other URIs as they are.
func uriPath(u string) string {
	if parsed, err := url.Parse(u); err == nil && parsed.Scheme == "file" {
		return parsed.Path
	}
	return u
}
