// Sub-recipes as tools: one tool per sub_recipes entry (`subrecipe__NAME`) that runs a sub-agent on the
// child recipe with the recipe's preset values, several tasks in parallel unless sequential_when_repeated.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// DefaultSubagentMaxTurns is goose's DEFAULT_SUBAGENT_MAX_TURNS.
const DefaultSubagentMaxTurns = 25

const maxSubRecipeDepth = 4

type subRecipes struct {
	entries []SubRecipeDoc
	specs   []tools.Spec
	paths   map[string]string
	opts    RunOptions
}

func newSubRecipes(entries []SubRecipeDoc, opts RunOptions) *subRecipes {
	s := &subRecipes{entries: entries, paths: map[string]string{}, opts: opts}
	base := "."
	if opts.RecipePath != "" {
		base = filepath.Dir(opts.RecipePath)
	}
	for _, e := range entries {
		path := e.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(base, path)
		}
		s.paths[e.Name] = path
		s.specs = append(s.specs, subRecipeSpec(e, path, opts.readRoots))
	}
	return s
}

// subRecipeSpec builds the tool: task_parameters items hold the child's parameters not fixed by values.
// The child is read only inside roots (a regular file, size-capped); otherwise the tool has no parameters.
func subRecipeSpec(e SubRecipeDoc, path string, roots []string) tools.Spec {
	props := map[string]any{}
	required := []string{}
	childDesc := ""
	if text, err := recipe.ConfinedFS(roots).ReadFile(path); err == nil {
		f := recipe.Check(path, text, &recipe.Options{NoSubRecipes: true, Roots: roots})
		if f.Recipe != nil {
			if f.Recipe.Description != nil {
				childDesc = f.Recipe.Description.Value
			}
			for _, p := range f.Recipe.Parameters {
				if _, fixed := e.Values[p.Key]; fixed || p.Key == "" {
					continue
				}
				typ := "string"
				switch p.InputType {
				case "number":
					typ = "number"
				case "boolean":
					typ = "boolean"
				}
				props[p.Key] = map[string]any{"type": typ, "description": p.Description}
				if p.Requirement != "optional" && p.Default == nil {
					required = append(required, p.Key)
				}
			}
		}
	}
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{"task_parameters": map[string]any{
			"type":        "array",
			"description": "One parameter set per task to run",
			"items":       map[string]any{"type": "object", "properties": props, "required": required},
		}},
	})
	desc := e.Description
	if desc == "" {
		desc = childDesc
	}
	return tools.Spec{
		Name:        e.Name,
		Description: fmt.Sprintf("Run the '%s' sub recipe as a sub-agent and return its result. %s Provide one parameter set per task in 'task_parameters'.", e.Name, strings.TrimSpace(desc)),
		InputSchema: schema,
	}
}

func (s *subRecipes) Name() string         { return "subrecipe" }
func (s *subRecipes) Unprefixed() bool     { return false }
func (s *subRecipes) Instructions() string { return "" }
func (s *subRecipes) Tools() []tools.Spec  { return s.specs }
func (s *subRecipes) Close() error         { return nil }

func (s *subRecipes) Call(ctx context.Context, name string, args json.RawMessage) tools.Result {
	var entry *SubRecipeDoc
	for i := range s.entries {
		if s.entries[i].Name == name {
			entry = &s.entries[i]
		}
	}
	if entry == nil {
		return tools.Result{Text: "Error: Unknown tool: " + name, IsError: true}
	}
	var in struct {
		TaskParameters []map[string]any `json:"task_parameters"`
	}
	if len(args) > 0 {
		if err := json.Unmarshal(args, &in); err != nil {
			return tools.Result{Text: "Error: Failed to parse arguments: " + err.Error(), IsError: true}
		}
	}
	if len(in.TaskParameters) == 0 {
		in.TaskParameters = []map[string]any{{}}
	}
	results := make([]tools.Result, len(in.TaskParameters))
	runTask := func(i int) {
		params := map[string]string{}
		for k, v := range in.TaskParameters[i] {
			params[k] = stringify(v)
		}
		for k, v := range entry.Values { // the recipe's values win
			params[k] = stringify(v)
		}
		child := s.opts
		child.RecipePath = s.paths[name]
		child.Params = params
		child.Prompt = ""
		child.History = nil
		child.Recorder = nil
		child.depth = s.opts.depth + 1
		child.agent = name
		if len(in.TaskParameters) > 1 {
			child.agent = fmt.Sprintf("%s#%d", name, i+1)
		}
		child.MaxTurns = 0
		if v, ok := child.lookup("GOOSE_SUBAGENT_MAX_TURNS"); ok {
			fmt.Sscan(v, &child.MaxTurns)
		}
		out, err := RunRecipe(ctx, child)
		switch {
		case err != nil:
			results[i] = tools.Result{Text: fmt.Sprintf("Sub recipe %s could not start: %v", name, err), IsError: true}
		case out.Status != StatusCompleted:
			results[i] = tools.Result{Text: fmt.Sprintf("Sub recipe %s ended with %s: %s", name, out.Status, out.LastText), IsError: true}
		case out.FinalOutput != "":
			results[i] = tools.Result{Text: out.FinalOutput}
		default:
			results[i] = tools.Result{Text: out.LastText}
		}
	}
	if entry.SequentialWhenRepeated || len(in.TaskParameters) == 1 {
		for i := range in.TaskParameters {
			runTask(i)
		}
	} else {
		var wg sync.WaitGroup
		for i := range in.TaskParameters {
			wg.Add(1)
			go func() { defer wg.Done(); runTask(i) }()
		}
		wg.Wait()
	}
	if len(results) == 1 {
		return results[0]
	}
	var b strings.Builder
	isErr := false
	for i, r := range results {
		fmt.Fprintf(&b, "Task %d:\n%s\n\n", i+1, r.Text)
		isErr = isErr || r.IsError
	}
	return tools.Result{Text: strings.TrimSpace(b.String()), IsError: isErr}
}

// stringify turns a JSON/YAML value into a parameter string (strings as they are, others as JSON).
func stringify(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(jsonCompatible(v))
	return string(b)
}
