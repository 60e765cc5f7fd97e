// Agent runs from the editor: workspace/executeCommand starts a run on its own goroutine and replies at
// once with a runId; the run reports work-done progress, goose/runEvent notifications and log messages,
// asks for consent and approvals with window/showMessageRequest, and edits through editorWorkspace.

package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/configure"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// The commands goose-ls answers.
var agentCommands = []string{"goose.runRecipe", "goose.ask", "goose.cancel", "goose.recipeParameters", "goose.undoTurn", "goose.listSessions", "goose.resume", "goose.render", "goose.listRecipes", "goose.resolveRecipe"}

func init() {
	requests["workspace/executeCommand"] = executeCommand
	notifications["window/workDoneProgress/cancel"] = progressCancel
}

// agentRun is one run started from the editor.
type agentRun struct {
	id     string
	token  string
	cancel context.CancelFunc

	root string // the workspace folder the run works in (undo reads and removes files only inside it)

	mu    sync.Mutex
	title string
	turn  int
	edits map[int][]turnEdit // undo: what each turn wrote
}

// annotation groups the current turn's edits for the editor's review.
func (r *agentRun) annotation() annotation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return annotation{
		ID:          fmt.Sprintf("goose:%s:turn-%d", r.id, r.turn),
		Label:       fmt.Sprintf("goose: %s, turn %d", r.title, r.turn),
		Description: fmt.Sprintf("Edits the agent made in turn %d of %s (undo with goose.undoTurn)", r.turn, r.id),
	}
}

// turnEdit is one file change an agent turn made.
type turnEdit struct {
	path          string
	before, after []byte
	created       bool // the file did not exist before
	onDisk        bool // written straight to disk (the client cannot create files)
}

type commandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

func executeCommand(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	var p commandParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	arg := json.RawMessage("{}")
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	switch p.Command {
	case "goose.runRecipe":
		var a struct {
			URI    protocol.DocumentURI `json:"uri"`
			Params map[string]string    `json:"params"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.startRecipeRun(a.URI, a.Params, "")
	case "goose.ask":
		var a struct {
			Prompt string               `json:"prompt"`
			URI    protocol.DocumentURI `json:"uri"`
			Range  *protocol.Range      `json:"range"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		if strings.TrimSpace(a.Prompt) == "" {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "goose.ask needs a prompt"}
		}
		return s.startRun(runSpec{prompt: s.askPrompt(a.Prompt, a.URI, a.Range)})
	case "goose.cancel":
		var a struct {
			RunID string `json:"runId"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		s.mu.Lock()
		r := s.runs[a.RunID]
		s.mu.Unlock()
		if r == nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "no run " + a.RunID}
		}
		r.cancel()
		return map[string]any{"cancelled": true}, nil
	case "goose.recipeParameters":
		var a struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.recipeParameters(a.URI)
	case "goose.undoTurn":
		var a struct {
			RunID string `json:"runId"`
			Turn  int    `json:"turn"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.undoTurn(ctx, a.RunID, a.Turn)
	case "goose.listSessions":
		return s.listSessions(ctx)
	case "goose.render": // render.go
		return renderCommand(ctx, s, arg)
	case "goose.listRecipes": // library.go
		return s.listRecipes(), nil
	case "goose.resolveRecipe": // library.go
		return resolveRecipeCommand(s, arg)
	case "goose.resume":
		var a struct {
			SessionID string `json:"sessionId"`
			Prompt    string `json:"prompt"`
		}
		if err := decode(arg, &a); err != nil {
			return nil, err
		}
		return s.resume(ctx, a.SessionID, a.Prompt)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: "unknown command: " + p.Command}
}

func (s *Server) startRecipeRun(u protocol.DocumentURI, params map[string]string, prompt string) (any, error) {
	path := uriPath(u)
	text, err := overlayFS{s}.ReadFile(uriPath(u))
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	doc, _, err := agent.LoadRecipeText(path, text, params, nil)
	if err != nil {
		var missing *render.MissingError
		if errors.As(err, &missing) {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error(), Data: rawJSON(map[string]any{"missing": missing.Keys})}
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	return s.startRun(runSpec{doc: doc, recipePath: path, prompt: prompt, params: params})
}

func rawJSON(v any) *json.RawMessage {
	b, _ := json.Marshal(v)
	m := json.RawMessage(b)
	return &m
}

// askPrompt adds the file and selection as context.
func (s *Server) askPrompt(prompt string, u protocol.DocumentURI, rng *protocol.Range) string {
	if u == "" {
		return prompt
	}
	var b strings.Builder
	b.WriteString(prompt)
	fmt.Fprintf(&b, "\n\nThe user is looking at %s.", uriPath(u))
	s.mu.Lock()
	d := s.docs[u]
	if d != nil && rng != nil {
		start, end := toOffset(d.lines, rng.Start, s.utf8), toOffset(d.lines, rng.End, s.utf8)
		if start <= end && end <= len(d.text) {
			fmt.Fprintf(&b, " Selected (lines %d-%d):\n```\n%s\n```", rng.Start.Line+1, rng.End.Line+1, d.text[start:end])
		}
	}
	s.mu.Unlock()
	return b.String()
}

// runSpec is what a run starts from.
type runSpec struct {
	doc        *agent.Doc // nil for a plain prompt
	recipePath string
	params     map[string]string
	prompt     string
	root       string             // the workspace folder ("" → the editor's root)
	history    []provider.Message // a resumed session's conversation
	sessionID  string             // the session to continue
}

// startRun registers a run and starts it; the reply carries its id.
func (s *Server) startRun(spec runSpec) (any, error) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.runSeq++
	r := &agentRun{id: fmt.Sprintf("run-%d", s.runSeq), cancel: cancel, edits: map[int][]turnEdit{}}
	r.token = "goose-" + r.id
	if s.runs == nil {
		s.runs = map[string]*agentRun{}
	}
	s.runs[r.id] = r
	if spec.root == "" {
		spec.root = s.root
	}
	s.mu.Unlock()
	if spec.root == "" && spec.recipePath != "" {
		spec.root = filepath.Dir(spec.recipePath)
	}
	if spec.root == "" {
		spec.root, _ = os.Getwd()
	}
	r.root = spec.root
	if spec.doc == nil {
		spec.doc = &agent.Doc{}
	}
	go s.execute(ctx, r, spec)
	reply := map[string]any{"runId": r.id}
	if spec.sessionID != "" {
		reply["sessionId"] = spec.sessionID
	}
	return reply, nil
}

func (s *Server) execute(ctx context.Context, r *agentRun, spec runSpec) {
	defer r.cancel()
	doc := spec.doc
	title := doc.Title
	if title == "" {
		title = "ask"
	}
	r.mu.Lock()
	r.title = title
	r.mu.Unlock()
	prog := s.beginProgress(ctx, r, "goose: "+title)
	status := "completed"
	defer func() { prog.end(status) }()

	if spec.recipePath != "" && !s.consent(ctx, doc, spec.recipePath) {
		status = "declined"
		s.runEvent(r, map[string]any{"kind": "done", "status": status})
		return
	}
	st, err := agent.LoadSettings(os.LookupEnv)
	if err != nil {
		status = s.runFailed(r, err)
		return
	}
	if st.PermsErr != nil {
		s.logMessage(2, "goose: "+st.PermsErr.Error())
	}
	cfg := st.Config
	redactor := s.redactor
	ws := &editorWorkspace{s: s, root: spec.root, annotate: r.annotation, onEdit: func(e turnEdit) {
		r.mu.Lock()
		r.edits[r.turn] = append(r.edits[r.turn], e)
		turn := r.turn
		r.mu.Unlock()
		s.runEvent(r, map[string]any{"kind": "edit", "path": e.path, "turn": turn, "created": e.created})
	}}
	rec := s.recorder(r, spec, cfg.DataDir)
	opts := agent.RunOptions{
		RecipePath: spec.recipePath, Prompt: spec.prompt, Workspace: ws, Lookup: cfg.Get, Mode: st.Mode, Perms: st.Perms, Redactor: redactor,
		History: spec.history,
		Approver: agent.ApproverFunc(func(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
			return s.approve(ctx, req)
		}),
		Providers: s.opts.Providers,
		Events:    func(e agent.Event) { s.forward(r, prog, e) },
	}
	if opts.Providers == nil {
		opts.Providers = func(settings provider.Settings) (provider.Setup, error) { return configure.Resolve(cfg.Get, settings) }
	}
	if rec != nil { // (a nil *Recorder in the interface would not be nil)
		rec.Meta.GooseMode = string(st.Mode) // goose keeps the mode a session was made in
		opts.Recorder = rec
	}
	out, err := agent.RunDoc(ctx, doc, opts)
	if rec != nil && rec.Err() != nil {
		s.logMessage(2, "goose: storing the session failed: "+rec.Err().Error())
	}
	if err != nil {
		status = s.runFailed(r, err)
		return
	}
	status = string(out.Status)
}

// runFailed reports a run that could not start (no event was made yet, so its error is redacted here)
// and returns its status.
func (s *Server) runFailed(r *agentRun, err error) string {
	err = s.redactor.RedactError(err)
	s.runEvent(r, map[string]any{"kind": "error", "text": err.Error()})
	s.runEvent(r, map[string]any{"kind": "done", "status": "failed"})
	s.logMessage(1, fmt.Sprintf("goose %s failed: %v", r.id, err))
	return "failed"
}

// runEvent sends one goose/runEvent notification.
func (s *Server) runEvent(r *agentRun, ev map[string]any) {
	ev["runId"] = r.id
	s.notify(context.Background(), "goose/runEvent", ev)
}

func (s *Server) logMessage(typ int, msg string) {
	s.notify(context.Background(), "window/logMessage", map[string]any{"type": typ, "message": msg})
}

// forward turns loop events into notifications, progress and log lines; the run redacted them at their
// source, so the transcript, logMessage and $/progress carry no secret.
func (s *Server) forward(r *agentRun, prog *progress, e agent.Event) {
	ev := map[string]any{"agent": e.Agent}
	switch e.Kind {
	case agent.EventText:
		ev["kind"], ev["text"] = "text", e.Text
		prog.report("thinking")
	case agent.EventMessage:
		ev["kind"], ev["text"] = "message", e.Text
		s.logMessage(3, "goose: "+e.Text)
	case agent.EventToolStart:
		ev["kind"], ev["tool"], ev["callId"], ev["arguments"] = "toolStart", e.Call.Name, e.Call.ID, e.Call.Arguments
		prog.report(e.Call.Name + " " + target(e.Call.Arguments))
	case agent.EventToolEnd:
		ev["kind"], ev["tool"], ev["callId"], ev["result"], ev["isError"] = "toolEnd", e.Call.Name, e.Call.ID, e.Result.Text, e.Result.IsError
		mark := "✓"
		if e.Result.IsError {
			mark = "✗"
		}
		s.logMessage(4, fmt.Sprintf("goose %s %s %s: %s", mark, e.Call.Name, target(e.Call.Arguments), firstLine(e.Result.Text)))
	case agent.EventUsage:
		ev["kind"], ev["usage"] = "usage", e.Usage
		if e.Agent == "" {
			r.mu.Lock()
			r.turn++
			r.mu.Unlock()
		}
	case agent.EventNotice:
		ev["kind"], ev["text"] = "notice", e.Text
		s.logMessage(3, "goose: "+e.Text)
	case agent.EventError:
		ev["kind"], ev["text"] = "error", e.Err.Error()
	case agent.EventFinalOutput:
		ev["kind"], ev["text"] = "finalOutput", e.Text
	case agent.EventDone:
		ev["kind"], ev["status"] = "done", e.Text
	default:
		return
	}
	if e.Kind == agent.EventDone && e.Agent != "" {
		ev["kind"] = "subagentDone"
	}
	s.runEvent(r, ev)
}

// target names what a tool call works on: its path, command or url.
func target(args json.RawMessage) string {
	var a map[string]any
	_ = json.Unmarshal(args, &a)
	for _, k := range []string{"path", "command", "url", "query"} {
		if v, ok := a[k].(string); ok {
			return firstLine(v)
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// recipeParameters lists a recipe's parameters for a client to ask for values.
func (s *Server) recipeParameters(u protocol.DocumentURI) (any, error) {
	text, err := overlayFS{s}.ReadFile(uriPath(u))
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.InvalidParams, Message: err.Error()}
	}
	f := recipe.Check(uriPath(u), text, &recipe.Options{NoSubRecipes: true})
	out := []map[string]any{}
	if f.Recipe == nil {
		return out, nil
	}
	for _, p := range f.Recipe.Parameters {
		item := map[string]any{"key": p.Key, "input_type": p.InputType, "requirement": p.Requirement, "description": p.Description}
		if p.Default != nil {
			item["default"] = p.Default.Value
		}
		if p.Options != nil {
			var opts []string
			for _, o := range p.Options.Items {
				opts = append(opts, o.Value)
			}
			item["options"] = opts
		}
		out = append(out, item)
	}
	return out, nil
}

func progressCancel(_ context.Context, s *Server, raw json.RawMessage) error {
	var p struct {
		Token any `json:"token"`
	}
	if err := decode(raw, &p); err != nil {
		return err
	}
	tok := fmt.Sprint(p.Token)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		if r.token == tok {
			r.cancel()
		}
	}
	return nil
}
