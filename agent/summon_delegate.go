// summon's `delegate`: validate, build the sub-agent's recipe (a sub-recipe rendered with its `values`
// over the model's `parameters`, a recipe or an agent file), resolve provider, model, extensions,
// max_turns and working folder in goose's order, and run the sub-agent through RunDoc.

package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// delegateParams are delegate's arguments; a pointer tells absent from empty.
type delegateParams struct {
	Instructions *string                    `json:"instructions"`
	Source       *string                    `json:"source"`
	Parameters   map[string]json.RawMessage `json:"parameters"`
	Extensions   *[]string                  `json:"extensions"`
	Provider     *string                    `json:"provider"`
	Model        *string                    `json:"model"`
	Temperature  *float64                   `json:"temperature"`
	MaxTurns     *uint32                    `json:"max_turns"`
	Context      *string                    `json:"context"`
	WorkingDir   *string                    `json:"working_dir"`
	Async        bool                       `json:"async"`
}

func (p *delegateParams) validate() error {
	switch {
	case p.Instructions == nil && p.Source == nil:
		return errors.New("Must provide 'instructions' or 'source' (or both)")
	case p.Parameters != nil && p.Source == nil:
		return errors.New("'parameters' can only be used with 'source'")
	case p.MaxTurns != nil && *p.MaxTurns < 1:
		return errors.New("'max_turns' must be at least 1")
	}
	return nil
}

// task is a prepared delegate: the sub-agent's recipe and run options.
type task struct {
	doc   *Doc
	opts  RunOptions
	label string
}

func (s *summonExt) delegate(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var p delegateParams
	if len(bytes.TrimSpace(args)) > 0 && string(bytes.TrimSpace(args)) != "null" {
		if err := json.Unmarshal(args, &p); err != nil {
			return tools.Result{}, fmt.Errorf("Invalid parameters: %v", err)
		}
	}
	if err := p.validate(); err != nil {
		return tools.Result{}, err
	}
	if s.subagent {
		return tools.Result{}, errors.New("Delegated tasks cannot spawn further delegations")
	}
	if p.Async {
		if err := s.tasks.admit(s.opts.lookup); err != nil {
			return tools.Result{}, err
		}
	}
	t, err := s.prepare(&p)
	if err != nil {
		return tools.Result{}, err
	}
	if p.Async {
		return tools.Result{Text: s.tasks.start(ctx, t)}, nil
	}
	return runTask(ctx, t), nil
}

// runTask runs the sub-agent for a tool result.
func runTask(ctx context.Context, t *task) tools.Result {
	text, err := runTaskText(ctx, t)
	if err != nil {
		return tools.Result{Text: "Delegation failed: " + err.Error(), IsError: true}
	}
	return tools.Result{Text: text}
}

// runTaskText runs the sub-agent; the result is its final output, else the text of its last message.
func runTaskText(ctx context.Context, t *task) (string, error) {
	out, err := RunDoc(ctx, t.doc, t.opts)
	if err != nil {
		return "", fmt.Errorf("Failed to execute task: %w", err)
	}
	return taskText(t.doc, out), nil
}

func taskText(doc *Doc, out Outcome) string {
	if doc.Response != nil && doc.Response.JSONSchema != nil && out.FinalOutput != "" {
		return out.FinalOutput
	}
	if n := len(out.Messages); n > 0 && out.Messages[n-1].Text != "" {
		return out.Messages[n-1].Text
	}
	return "No text content in last message"
}

// prepare is goose's build_delegate_recipe then build_task_config.
func (s *summonExt) prepare(p *delegateParams) (*task, error) {
	doc, err := s.delegateRecipe(p)
	if err != nil {
		return nil, err
	}
	if p.Context != nil {
		instr := "# Reference Context\n\n" + *p.Context
		if doc.Instructions != "" {
			instr += "\n\n# Task Instructions\n\n" + doc.Instructions
		}
		doc.Instructions = instr
	}
	opts, err := s.taskOptions(p, doc)
	if err != nil {
		return nil, fmt.Errorf("Failed to build task config: %w", err)
	}
	label := taskLabel(p)
	opts.agent = label
	if p.Source != nil {
		opts.agent = *p.Source
	}
	return &task{doc: doc, opts: opts, label: label}, nil
}

// taskLabel is goose's task description: `SOURCE: INSTRUCTIONS`, either alone, at most 60 characters.
func taskLabel(p *delegateParams) string {
	var l string
	switch {
	case p.Source != nil && p.Instructions != nil:
		l = *p.Source + ": " + *p.Instructions
	case p.Source != nil:
		l = *p.Source
	default:
		l = *p.Instructions
	}
	return safeTruncate(l, 60)
}

// delegateRecipe builds the sub-agent's recipe: ad hoc from instructions, or from a source with the
// instructions appended to its prompt.
func (s *summonExt) delegateRecipe(p *delegateParams) (*Doc, error) {
	if p.Source == nil {
		return &Doc{Title: "Delegated Task", Description: "Ad-hoc delegated task", Prompt: *p.Instructions}, nil
	}
	src, ok := s.resolve(*p.Source)
	if !ok {
		return nil, fmt.Errorf("Source '%s' not found", *p.Source)
	}
	var doc *Doc
	var err error
	switch src.kind {
	case kindSubrecipe:
		doc, err = s.renderChild(src.sub.Path, mergeValues(src.sub.Values, p.Parameters))
		if err != nil {
			return nil, fmt.Errorf("Failed to build subrecipe: %s", buildError(err))
		}
	case kindRecipe:
		doc, err = s.renderChild(src.path, mergeValues(nil, p.Parameters))
		if err != nil {
			return nil, fmt.Errorf("Failed to build recipe: %s", buildError(err))
		}
	default:
		doc = agentRecipe(src, p)
	}
	if p.Instructions != nil {
		if doc.Prompt != "" {
			doc.Prompt += "\n\n" + *p.Instructions
		} else {
			doc.Prompt = *p.Instructions
		}
	}
	return doc, nil
}

// mergeValues is goose's precedence (merge_subrecipe_parameters): the entry's fixed `values` first, then
// each of the model's `parameters` whose key they do not set (a JSON value that is not a string passes
// as its JSON text). goose 1.38 let the model's parameters win.
func mergeValues(values map[string]any, params map[string]json.RawMessage) map[string]string {
	merged := map[string]string{}
	for k, v := range values {
		merged[k] = stringify(v)
	}
	for k, raw := range params {
		if _, fixed := merged[k]; fixed {
			continue
		}
		var str string
		if json.Unmarshal(raw, &str) == nil {
			merged[k] = str
			continue
		}
		var compact bytes.Buffer
		if json.Compact(&compact, raw) == nil {
			merged[k] = compact.String()
		}
	}
	return merged
}

// stringify turns a YAML value into a parameter string (strings as they are, others as JSON).
func stringify(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(jsonCompatible(v))
	return string(b)
}

// buildError words a build failure as goose does for a missing parameter.
func buildError(err error) string {
	var missing *render.MissingError
	if errors.As(err, &missing) {
		quoted := make([]string, len(missing.Keys))
		for i, k := range missing.Keys {
			quoted[i] = strconv.Quote(k)
		}
		return "Missing required parameters: [" + strings.Join(quoted, ", ") + "]"
	}
	return err.Error()
}

// renderChild reads a recipe inside the run's roots and renders it through the recipe pipeline; the
// files its parameter values name are read inside the roots too, and nobody is asked for a value.
func (s *summonExt) renderChild(path string, values map[string]string) (*Doc, error) {
	text, err := s.readConfined(path)
	if err != nil {
		return nil, err
	}
	files := recipe.ConfinedOverlay(s.opts.Files, s.opts.readRoots)
	doc, _, err := loadRecipeText(path, text, values, nil, s.opts.readRoots, files, s.opts.Files)
	return doc, err
}

// agentRecipe is goose's recipe for an agent file: `Agent: NAME`, its body as instructions, its model.
func agentRecipe(src source, p *delegateParams) *Doc {
	doc := &Doc{Title: "Agent: " + src.name, Description: src.description, Instructions: src.content}
	if src.model != "" {
		doc.Settings = &docSettings{Model: src.model, Temperature: p.Temperature}
		if p.Provider != nil {
			doc.Settings.Provider = *p.Provider
		}
	}
	if p.Instructions == nil {
		doc.Prompt = "Proceed with your expertise to produce a useful result."
	}
	return doc
}

// taskOptions is goose's build_task_config: provider and model, inherited extensions, max_turns and the
// working folder. The sub-agent runs in auto mode with goose's sub-agent prompt, stored as a session of its
// own when the run's recorder can do that.
func (s *summonExt) taskOptions(p *delegateParams, doc *Doc) (RunOptions, error) {
	settings := s.subagentSettings(p, doc)
	setup, err := s.opts.Providers(settings)
	if err != nil {
		return RunOptions{}, err
	}
	maxTurns := s.subagentMaxTurns(p, doc)
	ws := s.opts.Workspace
	if p.WorkingDir != nil {
		dir, err := resolveWorkingDir(ws.Root(), *p.WorkingDir)
		if err != nil {
			return RunOptions{}, err
		}
		ws = rootedWorkspace{Workspace: ws, root: dir}
	}
	child := s.opts
	child.RecipePath, child.Params, child.Prompt, child.History = "", nil, "", nil
	child.Recorder, child.Ask, child.Approver, child.Mode = nil, nil, nil, ModeAuto
	if rec, ok := s.opts.Recorder.(SubAgentRecorder); ok { // stored as a session of its own, as goose does
		child.Recorder = rec.SubAgent(ws.Root())
	}
	child.Workspace = ws
	child.MaxTurns = maxTurns
	child.Providers = func(provider.Settings) (provider.Setup, error) { return setup, nil }
	child.depth = s.opts.depth + 1
	child.sub = &subagent{id: nextSubagentID(), extensions: filterExtensions(s.enabled, p.Extensions)}
	doc.Settings = &docSettings{Provider: setup.Name, Model: setup.Model, Temperature: setup.Temperature}
	doc.SubRecipes, doc.hasSubRecipes = nil, false // a sub-agent's own sub_recipes do not apply
	return child, nil
}

// subagentSettings: provider = param → recipe settings → GOOSE_SUBAGENT_PROVIDER → the parent's; model =
// the parent's unless param → recipe settings → GOOSE_SUBAGENT_MODEL names one; temperature = param →
// recipe settings → the parent's.
func (s *summonExt) subagentSettings(p *delegateParams, doc *Doc) provider.Settings {
	parent := s.env.model
	out := provider.Settings{Provider: parent.Name, Model: parent.Model, Temperature: parent.Temperature}
	first := func(param *string, fromRecipe string, key string) (string, bool) {
		if param != nil {
			return *param, true
		}
		if fromRecipe != "" {
			return fromRecipe, true
		}
		if v, ok := s.opts.lookup(key); ok && v != "" {
			return v, true
		}
		return "", false
	}
	var rs docSettings
	if doc.Settings != nil {
		rs = *doc.Settings
	}
	if v, ok := first(p.Provider, rs.Provider, "GOOSE_SUBAGENT_PROVIDER"); ok {
		out.Provider = v
	}
	if v, ok := first(p.Model, rs.Model, "GOOSE_SUBAGENT_MODEL"); ok {
		out.Model = v
	}
	switch {
	case p.Temperature != nil:
		out.Temperature = p.Temperature
	case rs.Temperature != nil:
		out.Temperature = rs.Temperature
	}
	return out
}

// subagentMaxTurns: param → the sub-recipe's settings → the parent recipe's settings →
// GOOSE_SUBAGENT_MAX_TURNS (environment, then config) → 25.
func (s *summonExt) subagentMaxTurns(p *delegateParams, doc *Doc) int {
	if p.MaxTurns != nil {
		return int(*p.MaxTurns)
	}
	if doc.Settings != nil && doc.Settings.MaxTurns != nil && *doc.Settings.MaxTurns > 0 {
		return *doc.Settings.MaxTurns
	}
	if ps := s.env.doc.Settings; ps != nil && ps.MaxTurns != nil && *ps.MaxTurns > 0 {
		return *ps.MaxTurns
	}
	if v, ok := s.opts.lookup("GOOSE_SUBAGENT_MAX_TURNS"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			return n
		}
	}
	return DefaultSubagentMaxTurns
}

// filterExtensions: nil inherits all, an empty list none, names keep the entries so named.
func filterExtensions(enabled []ExtensionDoc, filter *[]string) []ExtensionDoc {
	if filter == nil {
		return enabled
	}
	var out []ExtensionDoc
	for _, e := range enabled {
		for _, name := range *filter {
			if e.Name == name {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// resolveWorkingDir is goose's: relative to the parent's folder, existing, inside it, a folder.
func resolveWorkingDir(parent, requested string) (string, error) {
	return resolveDirInside(parent, requested, "working_dir", "the parent session directory")
}

// resolveDirInside resolves requested (relative: against parent) to a canonical folder inside parent;
// what names the setting and where the folder it must stay in, in the error.
func resolveDirInside(parent, requested, what, where string) (string, error) {
	p := requested
	if !filepath.IsAbs(p) {
		p = filepath.Join(parent, p)
	}
	canonical, err := filepath.EvalSymlinks(p)
	if err == nil {
		canonical, err = filepath.Abs(canonical)
	}
	if err != nil {
		return "", fmt.Errorf("%s '%s' could not be resolved: %v", what, requested, err)
	}
	parentCanonical, err := filepath.EvalSymlinks(parent)
	if err != nil {
		parentCanonical = parent
	}
	if rel, err := filepath.Rel(parentCanonical, canonical); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s '%s' is outside %s", what, requested, where)
	}
	if fi, err := os.Stat(canonical); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s '%s' is not a directory", what, requested)
	}
	return canonical, nil
}

// rootedWorkspace is the parent's workspace with a sub-folder as root (a delegate's working_dir).
type rootedWorkspace struct {
	tools.Workspace
	root string
}

func (w rootedWorkspace) Root() string { return w.root }
