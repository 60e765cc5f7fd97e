// goose's summon platform extension: the unprefixed `load` and `delegate` tools (goose's schemas and
// descriptions), call routing and goose's error texts; `delegate` is hidden in a sub-agent.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// DefaultSubagentMaxTurns is goose's DEFAULT_SUBAGENT_MAX_TURNS.
const DefaultSubagentMaxTurns = 25

// subagent marks the run of a delegate: its id (goose's sub-agent session id) and the extensions it
// inherits from the parent.
type subagent struct {
	id         string
	extensions []ExtensionDoc
}

// runEnv is what a run resolved before its extensions start: the recipe and the provider that answers.
type runEnv struct {
	doc   *Doc
	model provider.Setup
}

// summonExt is the summon extension of one run.
type summonExt struct {
	opts     RunOptions // the run's options: provider factory, workspace, roots, events
	env      *runEnv
	subagent bool
	enabled  []ExtensionDoc // the run's started extensions, what a delegate inherits (set once started)
	subs     []SubRecipeDoc // the recipe's sub_recipes, paths absolute

	cacheMu sync.Mutex
	cache   *sourceCache

	instructionsOnce sync.Once
	instructions     string

	tasks *backgroundTasks
}

func newSummon(opts *RunOptions, env *runEnv) *summonExt {
	s := &summonExt{opts: *opts, env: env, subagent: opts.sub != nil, tasks: newBackgroundTasks()}
	if !s.subagent { // a sub-agent session has no recipe: its sources are the file system's
		s.subs = absoluteSubRecipes(env.doc.SubRecipes, opts.RecipePath)
	}
	return s
}

// Name is goose's config key.
func (s *summonExt) Name() string { return extSummon }

// Unprefixed: goose's summon tools keep bare names.
func (s *summonExt) Unprefixed() bool { return true }

// Close stops the background tasks still running.
func (s *summonExt) Close() error {
	s.tasks.cancelAll()
	return nil
}

// Instructions lists the named sub-agents (computed once, as goose does when the extension is created).
func (s *summonExt) Instructions() string {
	s.instructionsOnce.Do(func() {
		if !s.subagent {
			s.instructions = s.subagentInstructions()
		}
	})
	return s.instructions
}

// Tools are `load`, and `delegate` outside a sub-agent.
func (s *summonExt) Tools() []tools.Spec {
	specs := []tools.Spec{{Name: "load", Description: loadDescription, InputSchema: json.RawMessage(loadSchema)}}
	if !s.subagent {
		specs = append(specs, tools.Spec{Name: "delegate", Description: delegateDescription, InputSchema: json.RawMessage(delegateSchema)})
	}
	return specs
}

// Call runs load or delegate; a failure is an error result `Error: …`.
func (s *summonExt) Call(ctx context.Context, tool string, args json.RawMessage) tools.Result {
	var res tools.Result
	var err error
	switch tool {
	case "load":
		res, err = s.load(ctx, args)
	case "delegate":
		res, err = s.delegate(ctx, args)
	default:
		return tools.Result{Text: "Error: Unknown tool: " + tool, IsError: true}
	}
	if err != nil {
		return tools.Result{Text: "Error: " + err.Error(), IsError: true}
	}
	return res
}

// subagentIDs numbers sub-agents as goose numbers sessions: YYYYMMDD_N.
var subagentIDs atomic.Int64

func nextSubagentID() string {
	return fmt.Sprintf("%s_%d", time.Now().Format("20060102"), subagentIDs.Add(1))
}

const loadSchema = `{"type":"object","properties":{"source":{"type":"string","description":"Name of the source to load. If omitted, lists all available sources."},"cancel":{"type":"boolean","default":false,"description":"For running background tasks: cancel and return output."}}}`

const loadDescription = "Load knowledge into your current context or discover available sources.\n\n" +
	"Call with no arguments to list all available sources (subrecipes, recipes, agents).\n" +
	"Call with a source name to load its content into your context.\n" +
	"For background tasks: load(source: \"task_id\") waits for the task and returns the result.\n" +
	"To cancel a running task: load(source: \"task_id\", cancel: true) stops and returns output.\n\n" +
	"Examples:\n" +
	"- load() → Lists available sources\n" +
	"- load(source: \"deploy\") → Loads the deploy recipe\n" +
	"- load(source: \"20260219_1\") → Waits for background task, then returns result"

const delegateSchema = `{"type":"object","properties":{` +
	`"instructions":{"type":"string","description":"Task instructions. Required for ad-hoc tasks."},` +
	`"source":{"type":"string","description":"Name of a recipe or agent to run."},` +
	`"parameters":{"type":"object","additionalProperties":true,"description":"Parameters for the source (only valid with source)."},` +
	`"extensions":{"type":"array","items":{"type":"string"},"description":"Extensions to enable. Omit to inherit all, empty array for none."},` +
	`"provider":{"type":"string","description":"Override LLM provider."},` +
	`"model":{"type":"string","description":"Override model."},` +
	`"temperature":{"type":"number","description":"Override temperature."},` +
	`"max_turns":{"type":"integer","minimum":1,"description":"Maximum turns for this delegate. Overrides recipe settings.max_turns and GOOSE_SUBAGENT_MAX_TURNS."},` +
	`"context":{"type":"string","description":"Reference context to inject into the delegate's system prompt. Use for background information, file contents, or constraints the delegate needs but that aren't part of the task instructions."},` +
	`"working_dir":{"type":"string","description":"Working directory for the delegate. Must be within the parent session's working directory. Defaults to the parent's working directory."},` +
	`"async":{"type":"boolean","default":false,"description":"Run in background (default: false)."}}}`

const delegateDescription = "Delegate a task to a subagent that runs independently with its own context.\n\n" +
	"Modes:\n" +
	"1. Ad-hoc: Provide `instructions` for a custom task\n" +
	"2. Source-based: Provide `source` name to run a subrecipe, recipe, or agent\n" +
	"3. Combined: Pair a source with a task (e.g., source: \"deploy\", instructions: \"deploy to staging\")\n\n" +
	"Effective Delegation:\n" +
	"- Delegates know only instructions + source content\n" +
	"- Delegates cannot coordinate. Same-file work = conflicts.\n" +
	"- Parallel: async: true, then load(taskId) to wait and get results. Single: sync.\n\n" +
	"Research (read-only): parallelize freely - delegates explore and report back.\n" +
	"Work (writes): partition files strictly - no two delegates touch the same file.\n\n" +
	"Decompose → async delegates → load(taskId) for each → synthesize."
