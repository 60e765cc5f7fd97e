// Running a recipe: validate, resolve parameter values, render, then assemble the run — provider,
// extensions (started concurrently, failures reported and skipped), final output, retry, sub-recipes,
// system prompt — and hand it to the loop.

package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/render"
)

// Doc is a rendered recipe, decoded.
type Doc struct {
	Title        string         `yaml:"title"`
	Description  string         `yaml:"description"`
	Instructions string         `yaml:"instructions"`
	Prompt       string         `yaml:"prompt"`
	Extensions   []ExtensionDoc `yaml:"extensions"`
	Settings     *docSettings   `yaml:"settings"`
	Retry        *struct {
		MaxRetries int `yaml:"max_retries"`
		Checks     []struct {
			Type    string `yaml:"type"`
			Command string `yaml:"command"`
		} `yaml:"checks"`
		OnFailure               string `yaml:"on_failure"`
		TimeoutSeconds          int    `yaml:"timeout_seconds"`
		OnFailureTimeoutSeconds int    `yaml:"on_failure_timeout_seconds"`
	} `yaml:"retry"`
	Response *struct {
		JSONSchema any `yaml:"json_schema"`
	} `yaml:"response"`
	SubRecipes    []SubRecipeDoc `yaml:"sub_recipes"`
	hasExtensions bool           // an `extensions` key with a list (absent or null: the default profile)
	hasSubRecipes bool           // a `sub_recipes` key with a list, even an empty one
	// Rendered is the rendered recipe text, stored with the session as goose stores its recipe.
	Rendered string `yaml:"-"`
}

// docSettings is a recipe's settings.
type docSettings struct {
	Provider    string   `yaml:"goose_provider"`
	Model       string   `yaml:"goose_model"`
	Temperature *float64 `yaml:"temperature"`
	MaxTurns    *int     `yaml:"max_turns"`
}

// ExtensionDoc is one extensions entry.
type ExtensionDoc struct {
	Type           string            `yaml:"type"`
	Name           string            `yaml:"name"`
	Cmd            string            `yaml:"cmd"`
	Args           []string          `yaml:"args"`
	Envs           map[string]string `yaml:"envs"`
	EnvKeys        []string          `yaml:"env_keys"`
	URI            string            `yaml:"uri"`
	Headers        map[string]string `yaml:"headers"`
	Timeout        int               `yaml:"timeout"`
	AvailableTools []string          `yaml:"available_tools"`
	// Cwd is a stdio server's folder (goose 1.39+), with its envs substituted; "" is the workspace.
	Cwd string `yaml:"cwd"`
}

// SubRecipeDoc is one sub_recipes entry.
type SubRecipeDoc struct {
	Name                   string         `yaml:"name"`
	Path                   string         `yaml:"path"`
	Description            string         `yaml:"description"`
	Values                 map[string]any `yaml:"values"`
	SequentialWhenRepeated bool           `yaml:"sequential_when_repeated"`
}

// ProviderFactory builds the provider for a recipe's settings.
type ProviderFactory func(provider.Settings) (provider.Setup, error)

// RunOptions configure a headless or editor run.
type RunOptions struct {
	RecipePath string // "" for a plain prompt
	Params     map[string]string
	Prompt     string // replaces the recipe's prompt (required without a recipe)
	Workspace  tools.Workspace
	// Files supplies the recipe files of the run — sub-recipes, template parents, the files parameter
	// values name — from the front end (an editor's unsaved buffers: recipe.Buffers); they are still read
	// only inside the run's roots. nil: the disk.
	Files recipe.FS
	// Extensions are added to the top-level run's extensions (the recipe's, or the default profile): the
	// MCP servers a client names for its session (ACP's mcpServers).
	Extensions []ExtensionDoc
	// Shell, when set, runs the developer shell tool (the editor may route it).
	Shell     func(ctx context.Context, dir, command string, timeout time.Duration, env []string) tools.Result
	Providers ProviderFactory
	Lookup    func(key string) (string, bool) // configuration (goose's get_param): GOOSE_* knobs
	Secret    func(key string) (string, bool) // goose's secrets (get_secret, env first): env_keys; nil: Lookup
	Mode      Mode
	Approver  Approver
	Perms     *Permissions
	Ask       render.Asker
	MaxTurns  int // 0: settings → GOOSE_MAX_TURNS → 1000
	History   []provider.Message
	Events    func(Event)
	Recorder  Recorder // stores the main conversation; nil: nothing is stored
	Redactor  *Redactor
	// agent names a sub-agent; depth is 1 in a sub-agent; sub is set for a summon delegate.
	agent string
	depth int
	sub   *subagent
	// readRoots are the folders sub-recipes (and the files their `values` name) may be read from: the
	// working folder and the top-level recipe's folder, kept for every sub-agent.
	readRoots []string
}

// Recorder stores a run's main conversation (session.Recorder is one): the provider and model that
// answer, each message and each provider request's token usage.
type Recorder interface {
	SetProvider(name, model string)
	Record(provider.Message)
	Usage(provider.Usage)
}

// SubAgentRecorder is a Recorder that also stores each sub-agent's run (in workDir) with a recorder of its
// own; with a plain Recorder sub-agents are not stored.
type SubAgentRecorder interface {
	Recorder
	SubAgent(workDir string) Recorder
}

// ErrNoPrompt is returned when neither the recipe nor the caller gives a first message.
var ErrNoPrompt = errors.New("no text provided for prompt in headless mode: the recipe has no prompt; pass --prompt TEXT")

// LoadRecipe validates the recipe at path, resolves its parameter values and renders it.
func LoadRecipe(path string, params map[string]string, ask render.Asker) (*Doc, map[string]string, error) {
	text, err := recipe.ReadRegularFile(path, recipe.DefaultMaxSize)
	if err != nil {
		return nil, nil, err
	}
	return LoadRecipeText(path, text, params, ask)
}

// LoadRecipeText is LoadRecipe on text the caller holds (an editor buffer).
func LoadRecipeText(path string, text []byte, params map[string]string, ask render.Asker) (*Doc, map[string]string, error) {
	return loadRecipeText(path, text, params, ask, nil, nil, nil)
}

// LoadRecipeFS is LoadRecipeText with the files the recipe names (sub-recipes, template parents) read
// through fsys inside roots (nil fsys: the disk; nil roots: the recipe's folder).
func LoadRecipeFS(path string, text []byte, params map[string]string, ask render.Asker, fsys recipe.FS, roots []string) (*Doc, map[string]string, error) {
	return loadRecipeText(path, text, params, ask, roots, nil, fsys)
}

// loadRecipeText validates with sub-recipes read through fsys (nil: the disk) inside roots (nil: the
// recipe's folder) and reads parameter files through paramFS (nil: the disk, for values the user gave).
func loadRecipeText(path string, text []byte, params map[string]string, ask render.Asker, roots []string, paramFS, fsys recipe.FS) (*Doc, map[string]string, error) {
	abs, _ := filepath.Abs(path)
	f := recipe.Check(abs, text, &recipe.Options{Roots: roots, FS: fsys})
	if f.HasErrors() {
		var b strings.Builder
		fmt.Fprintf(&b, "%s is not a valid recipe:", path)
		for _, d := range f.Diags {
			if d.Severity == recipe.SeverityError {
				p := f.Lines.RunePos(d.R.Start)
				fmt.Fprintf(&b, "\n  %d:%d: %s [%s]", p.Line+1, p.Col+1, d.Message, d.Code)
			}
		}
		return nil, nil, errors.New(b.String())
	}
	values, err := render.Values(f, params, paramFS, ask)
	if err != nil {
		return nil, nil, err
	}
	rendered, err := render.Render(f, values, nil)
	if err != nil {
		return nil, nil, err
	}
	doc, err := decodeDoc(rendered)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return doc, values, nil
}

func decodeDoc(text string) (*Doc, error) {
	var top map[string]any
	if err := yaml.Unmarshal([]byte(text), &top); err != nil {
		return nil, err
	}
	if inner, ok := top["recipe"].(map[string]any); ok && top["title"] == nil {
		b, _ := yaml.Marshal(inner)
		text, top = string(b), inner
	}
	var doc Doc
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	doc.hasExtensions = top["extensions"] != nil
	doc.hasSubRecipes = top["sub_recipes"] != nil
	rewriteRecipe(&doc)
	doc.Rendered = text
	return &doc, nil
}

// RunRecipe runs a recipe (or opts.Prompt alone) to the end.
func RunRecipe(ctx context.Context, opts RunOptions) (Outcome, error) {
	doc := &Doc{}
	if opts.RecipePath != "" {
		if opts.readRoots == nil {
			opts.readRoots = topLevelRoots(opts)
		}
		text, err := recipe.ReadRegularFile(opts.RecipePath, recipe.DefaultMaxSize)
		if err != nil {
			return Outcome{}, err
		}
		doc, _, err = loadRecipeText(opts.RecipePath, text, opts.Params, opts.Ask, opts.readRoots, nil, opts.Files)
		if err != nil {
			return Outcome{}, err
		}
	}
	return RunDoc(ctx, doc, opts)
}

// topLevelRoots are the folders a run may read recipe-named files from: the working folder and the folder
// of the recipe the user named.
func topLevelRoots(opts RunOptions) []string {
	var roots []string
	if opts.Workspace != nil && opts.Workspace.Root() != "" {
		roots = append(roots, opts.Workspace.Root())
	} else if wd, err := os.Getwd(); err == nil {
		roots = append(roots, wd)
	}
	if opts.RecipePath == "" {
		return roots
	}
	if abs, err := filepath.Abs(opts.RecipePath); err == nil {
		roots = append(roots, filepath.Dir(abs))
	}
	return roots
}

// sessionID is the stored session's id ("" when the run is not stored or its session does not exist yet).
func (o *RunOptions) sessionID() string {
	if rec, ok := o.Recorder.(interface{ SessionID() string }); ok {
		return rec.SessionID()
	}
	return ""
}

func (o *RunOptions) lookup(key string) (string, bool) {
	if o.Lookup == nil {
		return os.LookupEnv(key)
	}
	return o.Lookup(key)
}

func (o *RunOptions) secret(key string) (string, bool) {
	if o.Secret == nil {
		return o.lookup(key)
	}
	return o.Secret(key)
}

func (o *RunOptions) emit(e Event) {
	if o.Events != nil {
		e = o.Redactor.RedactEvent(e)
		e.Agent = o.agent
		o.Events(e)
	}
}

// RunDoc runs a decoded recipe.
func RunDoc(ctx context.Context, doc *Doc, opts RunOptions) (Outcome, error) {
	if opts.Redactor == nil {
		opts.Redactor = &Redactor{}
	}
	if opts.readRoots == nil {
		opts.readRoots = topLevelRoots(opts)
	}
	prompt := doc.Prompt
	if opts.Prompt != "" {
		prompt = opts.Prompt
	}
	if strings.TrimSpace(prompt) == "" && opts.sub != nil {
		prompt = "Begin." // goose's first message for a sub-agent whose recipe has no prompt
	}
	if strings.TrimSpace(prompt) == "" && len(opts.History) == 0 {
		return Outcome{}, ErrNoPrompt
	}
	var settings provider.Settings
	maxTurns := opts.MaxTurns
	if s := doc.Settings; s != nil {
		settings = provider.Settings{Provider: s.Provider, Model: s.Model, Temperature: s.Temperature}
		if maxTurns == 0 && s.MaxTurns != nil {
			maxTurns = *s.MaxTurns
		}
	}
	if maxTurns == 0 && opts.depth > 0 {
		maxTurns = DefaultSubagentMaxTurns
	}
	if maxTurns == 0 {
		if v, ok := opts.lookup("GOOSE_MAX_TURNS"); ok {
			fmt.Sscan(v, &maxTurns)
		}
	}
	if opts.Providers == nil {
		return Outcome{}, errors.New("no provider factory")
	}
	model, err := opts.Providers(settings)
	if err != nil {
		return Outcome{}, err
	}
	opts.Redactor.Add(model.Secrets...)
	if model.WatchSecrets != nil {
		model.WatchSecrets(opts.Redactor.Add)
	}
	events := opts.Events
	var record func(provider.Message)
	if rec := opts.Recorder; rec != nil {
		rec.SetProvider(model.Name, model.Model)
		if r, ok := rec.(interface{ SetRecipe(rendered string) }); ok && doc.Rendered != "" {
			r.SetRecipe(storedRecipe(doc.Rendered)) // session.Recorder keeps it as recipe_json
		}
		record = rec.Record
		events = func(e Event) {
			if e.Kind == EventUsage && e.Agent == opts.agent { // this run's own requests, not a sub-agent's
				rec.Usage(e.Usage)
			}
			if opts.Events != nil {
				opts.Events(e)
			}
		}
	}

	if rec, ok := opts.Recorder.(interface{ Begin() }); ok {
		rec.Begin() // goose's session exists before the extensions start: they are told its id
	}
	mounts := startExtensions(sessionctx.WithSession(ctx, opts.sessionID()), doc, &opts, &runEnv{doc: doc, model: model}).mounts
	var fo *FinalOutput
	if doc.Response != nil && doc.Response.JSONSchema != nil {
		raw, _ := json.Marshal(jsonCompatible(doc.Response.JSONSchema))
		fo, err = NewFinalOutput(raw)
		if err != nil {
			closeMounts(mounts)
			return Outcome{}, err
		}
		mounts = append(mounts, Mount{Ext: fo})
	}
	box := NewToolbox(mounts...)
	defer box.Close()

	cfg := Config{
		Provider: model.Provider, Model: model.Model, Temperature: model.Temperature, MaxTokens: model.MaxTokens,
		Tools: box, Mode: opts.Mode, Approver: opts.Approver, Permissions: opts.Perms, MaxTurns: maxTurns,
		FinalOutput: fo, ContextLimit: model.ContextLimit, WorkDir: opts.Workspace.Root(), Agent: opts.agent,
		Events: events, Redactor: opts.Redactor, Record: record,
	}
	cfg.SessionID = opts.sessionID
	cfg.ThinkingEffort = provider.ThinkingEffortSetting(opts.lookup)
	if v, ok := opts.lookup("GOOSE_MAX_TOOL_RESPONSE_SIZE"); ok { // environment first, then config.yaml
		if n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 31); err == nil && n > 0 {
			cfg.MaxToolResponseSize = int(n)
		}
	}
	if v, ok := opts.lookup("GOOSE_AUTO_COMPACT_THRESHOLD"); ok {
		fmt.Sscan(v, &cfg.CompactThreshold)
		if cfg.CompactThreshold == 0 {
			cfg.CompactThreshold = -1
		}
	}
	if r := doc.Retry; r != nil && r.MaxRetries > 0 {
		rt := &Retry{MaxRetries: r.MaxRetries, OnFailure: r.OnFailure,
			Timeout: time.Duration(r.TimeoutSeconds) * time.Second, OnFailureTimeout: time.Duration(r.OnFailureTimeoutSeconds) * time.Second}
		if rt.Timeout == 0 {
			rt.Timeout = secondsFrom(opts.lookup, "GOOSE_RECIPE_RETRY_TIMEOUT_SECONDS")
		}
		if rt.OnFailureTimeout == 0 {
			rt.OnFailureTimeout = secondsFrom(opts.lookup, "GOOSE_RECIPE_ON_FAILURE_TIMEOUT_SECONDS")
		}
		for _, c := range r.Checks {
			rt.Checks = append(rt.Checks, c.Command)
		}
		cfg.Retry = rt
	}
	if opts.sub != nil {
		cfg.Mode, cfg.Approver = ModeAuto, nil // goose runs every sub-agent in auto mode
		cfg.System = subagentSystemPrompt(box, opts.sub.id, maxTurns, doc.Instructions, fo, opts.Workspace.Root())
	} else {
		cfg.System = SystemPrompt(box, doc.Instructions, fo, opts.Workspace.Root())
	}
	return Run(ctx, cfg, opts.History, prompt), nil
}

func secondsFrom(lookup func(string) (string, bool), key string) time.Duration {
	var n int
	if v, ok := lookup(key); ok {
		fmt.Sscan(v, &n)
	}
	return time.Duration(n) * time.Second
}

// jsonCompatible turns YAML-decoded maps into JSON-encodable ones.
func jsonCompatible(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = jsonCompatible(x)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = jsonCompatible(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = jsonCompatible(x)
		}
	}
	return v
}

// deniedEnv is goose's deny-list for extension envs: variables that change how any program runs.
func deniedEnv(k string) bool {
	switch strings.ToUpper(k) {
	case "PATH", "PATHEXT", "LD_PRELOAD", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONHOME", "NODE_OPTIONS", "RUBYOPT", "PERL5OPT", "JAVA_TOOL_OPTIONS", "BASH_ENV", "ENV", "SYSTEMROOT", "COMSPEC", "APPINIT_DLLS":
		return true
	}
	return strings.HasPrefix(strings.ToUpper(k), "DYLD_")
}

func closeMounts(ms []Mount) {
	for _, m := range ms {
		_ = m.Ext.Close()
	}
}

// storedRecipe is the recipe as goose stores it with a session: parsed, with the load-time additions
// (summon, analyze), as goose's JSON; the rendered text itself when goose's model cannot parse it.
func storedRecipe(rendered string) string {
	r, err := library.Parse([]byte(rendered))
	if err != nil {
		return rendered
	}
	library.LoadTimeAdditions(r)
	return r.JSON()
}
