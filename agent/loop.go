// Package agent is goose's agent loop: stream a reply, run the turn's tool calls concurrently (asking
// for approval where the mode says so), feed results back, until the model stops, the recipe's final
// output is collected, its retry checks pass, max_turns is reached, or the context is cancelled.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// DefaultMaxTurns is goose's DEFAULT_MAX_TURNS.
const DefaultMaxTurns = 1000

// MaxTurnsMessage is what goose says when the budget is spent.
const MaxTurnsMessage = "I've reached the maximum number of actions I can do without user input. Would you like me to continue?"

// Status is how a run ended.
type Status string

// The statuses.
const (
	StatusCompleted        Status = "completed"
	StatusMaxTurns         Status = "max_turns"
	StatusRetriesExhausted Status = "retries_exhausted"
	StatusProviderError    Status = "provider_error"
	StatusCancelled        Status = "cancelled"
	StatusFailed           Status = "failed"
)

// Config is everything one run needs.
type Config struct {
	Provider    provider.Provider
	Model       string
	Temperature *float64
	MaxTokens   int
	// ThinkingEffort is goose's configured thinking effort for every request (provider.ThinkingEffortSetting).
	ThinkingEffort string
	System         string
	Tools          *Toolbox
	Mode           Mode
	Approver       Approver // nil: calls that need approval are declined
	Permissions    *Permissions
	MaxTurns       int
	FinalOutput    *FinalOutput
	Retry          *Retry
	// ContextLimit is the model's context in tokens; CompactThreshold the fraction that triggers
	// compaction (0: 0.8; ≥1 or <0: never).
	ContextLimit     int
	CompactThreshold float64
	WorkDir          string
	Agent            string // sub-agent name for events
	// Events receives the run's events, every one redacted by Redactor first (nil: nothing redacted).
	Events   func(Event)
	Redactor *Redactor
	// Record is called with each message added to the conversation (sessions persist them; the store
	// redacts what it writes).
	Record func(provider.Message)
	// MaxToolResponseSize is the length (Unicode scalars) past which a tool result text is offloaded to a
	// file (0: GOOSE_MAX_TOOL_RESPONSE_SIZE from the environment, else 200,000; negative: never).
	MaxToolResponseSize int
	// OffloadDir is the folder offloaded results go to ("": the system's temporary folder, where goose
	// puts them).
	OffloadDir string
	// Now is the clock of the per-turn context (nil: time.Now).
	Now func() time.Time
	// SessionID is the stored session's id, "" before it exists or when the run is not stored (nil: the
	// same). goose names it to the provider on each request and to extensions on each call.
	SessionID func() string
}

// Outcome is the end of a run.
type Outcome struct {
	Status      Status
	Messages    []provider.Message
	FinalOutput string
	LastText    string
	Usage       provider.Usage
	Err         error
}

type run struct {
	cfg      Config
	msgs     []provider.Message
	usage    provider.Usage
	lastText string
	text     *RedactStream // the reply being streamed: a secret may be split across deltas
	thought  *RedactStream // the reasoning being streamed, likewise
	// lastUsage is the latest model call's usage (the per-turn context's "Context:" line)
	lastUsage provider.Usage
}

// inSession tags ctx with the run's session, for the provider's header and the extensions' _meta.
func (r *run) inSession(ctx context.Context) context.Context {
	if r.cfg.SessionID == nil {
		return ctx
	}
	return sessionctx.WithSession(ctx, r.cfg.SessionID())
}

// emit is the one place events leave the run: each is redacted before any subscriber sees it.
func (r *run) emit(e Event) {
	if r.cfg.Events != nil {
		e = r.cfg.Redactor.RedactEvent(e)
		e.Agent = r.cfg.Agent
		r.cfg.Events(e)
	}
}

// streamText emits a streamed delta once it cannot be the beginning of a secret.
func (r *run) streamText(delta string) {
	if out := r.text.Write(delta); out != "" {
		r.emit(Event{Kind: EventText, Text: out})
	}
}

// endText emits what the stream held back; the reply ended.
func (r *run) endText() {
	if out := r.thought.Flush(); out != "" {
		r.emit(Event{Kind: EventThinking, Text: out})
	}
	if out := r.text.Flush(); out != "" {
		r.emit(Event{Kind: EventText, Text: out})
	}
}

func (r *run) add(m provider.Message) {
	r.msgs = append(r.msgs, m)
	if r.cfg.Record != nil {
		r.cfg.Record(m)
	}
}

// say adds an assistant text the loop writes itself.
func (r *run) say(text string) {
	r.add(provider.Message{Role: provider.Assistant, Text: text})
	r.lastText = text
	r.emit(Event{Kind: EventMessage, Text: text})
}

// finish ends the run; the Outcome is redacted like the events (it is printed and stored by callers).
func (r *run) finish(status Status, err error) Outcome {
	red := r.cfg.Redactor
	msgs := r.msgs
	if red != nil {
		msgs = make([]provider.Message, len(r.msgs))
		for i, m := range r.msgs {
			msgs[i] = red.RedactMessage(m)
		}
	}
	out := Outcome{Status: status, Messages: msgs, Usage: r.usage, Err: red.RedactError(err), LastText: red.Redact(r.lastText)}
	if r.cfg.FinalOutput != nil {
		out.FinalOutput = string(red.RedactJSON(json.RawMessage(r.cfg.FinalOutput.Output())))
	}
	if err != nil {
		r.emit(Event{Kind: EventError, Err: err})
	}
	r.emit(Event{Kind: EventDone, Text: string(status)})
	return out
}

// Run continues history with the user's text (empty: history already ends with the user's turn).
func Run(ctx context.Context, cfg Config, history []provider.Message, userText string) Outcome {
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	if cfg.Tools == nil {
		cfg.Tools = NewToolbox()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &run{cfg: cfg, msgs: append([]provider.Message(nil), history...), text: cfg.Redactor.Stream(), thought: cfg.Redactor.Stream()}
	if userText != "" {
		r.add(provider.Message{Role: provider.User, Text: userText})
	}
	// the retry flow resets the conversation to where this reply started
	start := append([]provider.Message(nil), r.msgs...)
	attempts, turns := 0, 0
	compactedForError := false
	system := cfg.System
	if cfg.Mode == ModeChat {
		system += "\n\n" + ChatModeSystem
	}
	var toolDefs []provider.Tool
	if cfg.Mode != ModeChat {
		toolDefs = cfg.Tools.Tools()
	}
	for {
		if ctx.Err() != nil {
			return r.finish(StatusCancelled, ctx.Err())
		}
		if fo := cfg.FinalOutput; fo != nil && fo.Output() != "" {
			done, out := r.complete(ctx, &attempts, start)
			if done {
				return out
			}
			continue
		}
		turns++
		if turns > cfg.MaxTurns {
			r.say(MaxTurnsMessage)
			return r.finish(StatusMaxTurns, nil)
		}
		r.emit(Event{Kind: EventTurnStart, Turn: turns})
		if r.needsCompaction(system, toolDefs) {
			r.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("Exceeded auto-compact threshold of %d%%. Performing auto-compaction...", int(r.threshold()*100))})
			if err := r.compact(ctx); err != nil {
				r.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("Ran into this error trying to compact: %v.\n\nPlease try again or create a new session", err)})
			}
		}
		messages := withTurnContext(r.msgs, r.turnContext(cfg.Now()))
		req := provider.Request{Model: cfg.Model, System: system, Messages: messages, Tools: toolDefs, Temperature: cfg.Temperature,
			MaxTokens: cfg.MaxTokens, ThinkingEffort: cfg.ThinkingEffort}
		resp, err := cfg.Provider.Stream(r.inSession(ctx), req, func(d provider.Delta) {
			if d.Thinking != "" {
				if out := r.thought.Write(d.Thinking); out != "" {
					r.emit(Event{Kind: EventThinking, Text: out})
				}
			}
			if d.Text != "" {
				r.streamText(d.Text)
			}
		})
		r.endText()
		if err != nil {
			err = cfg.Redactor.RedactError(err) // provider error bodies quote keys ("Incorrect API key provided: …")
			if ctx.Err() != nil {
				return r.finish(StatusCancelled, ctx.Err())
			}
			if provider.KindOf(err) == provider.ErrContextLength {
				if compactedForError {
					r.say("Unable to continue: Context limit still exceeded after compaction. Try using a shorter message, a model with a larger context window, or start a new session.")
					return r.finish(StatusProviderError, err)
				}
				r.emit(Event{Kind: EventNotice, Text: "Context limit reached. Compacting to continue conversation..."})
				if cerr := r.compact(ctx); cerr != nil {
					r.say(fmt.Sprintf("Ran into this error trying to compact: %v.\n\nPlease try again or create a new session", cerr))
					return r.finish(StatusProviderError, err)
				}
				compactedForError = true
				turns--
				continue
			}
			r.say(fmt.Sprintf("Ran into this error: %v.\n\nPlease retry if you think this is a transient or recoverable error.", err))
			return r.finish(StatusProviderError, err)
		}
		compactedForError = false
		r.usage.InputTokens += resp.Usage.InputTokens
		r.usage.OutputTokens += resp.Usage.OutputTokens
		r.lastUsage = resp.Usage
		r.emit(Event{Kind: EventUsage, Usage: resp.Usage})
		msg := resp.Message
		msg.Role = provider.Assistant
		if msg.Text != "" {
			r.lastText = msg.Text
		}
		r.add(msg)
		if len(msg.ToolCalls) == 0 {
			if cfg.FinalOutput != nil && cfg.FinalOutput.Output() == "" {
				r.add(provider.Message{Role: provider.User, Text: FinalOutputContinuation})
				continue
			}
			done, out := r.complete(ctx, &attempts, start)
			if done {
				return out
			}
			continue
		}
		results, cancelled := r.runTools(ctx, msg.ToolCalls)
		r.add(provider.Message{Role: provider.User, ToolResults: results})
		if cancelled {
			return r.finish(StatusCancelled, context.Canceled)
		}
	}
}

// complete ends a reply: the final output is emitted and retry checks run; a failed check resets the
// conversation and the loop goes on.
func (r *run) complete(ctx context.Context, attempts *int, start []provider.Message) (bool, Outcome) {
	if rt := r.cfg.Retry; rt != nil && len(rt.Checks) > 0 {
		ok, err := rt.run(ctx, r.cfg.WorkDir, r.emit)
		if err != nil {
			if ctx.Err() != nil {
				return true, r.finish(StatusCancelled, ctx.Err())
			}
			r.say("Retry logic encountered an error: " + err.Error())
			return true, r.finish(StatusFailed, err)
		}
		if !ok {
			if *attempts >= rt.MaxRetries {
				r.say(fmt.Sprintf("Maximum retry attempts (%d) exceeded. Unable to complete the task successfully.", rt.MaxRetries))
				return true, r.finish(StatusRetriesExhausted, nil)
			}
			if err := rt.onFailure(ctx, r.cfg.WorkDir, r.emit); err != nil {
				r.say("Retry logic encountered an error: " + err.Error())
				return true, r.finish(StatusFailed, err)
			}
			*attempts++
			r.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("Retry %d/%d: checks failed, starting over", *attempts, rt.MaxRetries)})
			r.msgs = append([]provider.Message(nil), start...)
			if r.cfg.FinalOutput != nil {
				r.cfg.FinalOutput.Reset()
			}
			return false, Outcome{}
		}
	}
	if fo := r.cfg.FinalOutput; fo != nil && fo.Output() != "" {
		r.add(provider.Message{Role: provider.Assistant, Text: fo.Output()})
		r.emit(Event{Kind: EventFinalOutput, Text: fo.Output()})
	}
	return true, r.finish(StatusCompleted, nil)
}

// runTools runs one turn's calls: approved calls start at once and run concurrently; calls needing
// approval are asked one at a time, in order. Results keep the calls' order.
func (r *run) runTools(ctx context.Context, calls []provider.ToolCall) ([]provider.ToolResult, bool) {
	results := make([]provider.ToolResult, len(calls))
	var wg sync.WaitGroup
	start := func(i int) {
		call := calls[i]
		r.emit(Event{Kind: EventToolStart, Call: &call})
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := r.offload(r.callTool(ctx, call))
			results[i] = provider.ToolResult{CallID: call.ID, Text: res.Text, IsError: res.IsError}
			r.emit(Event{Kind: EventToolEnd, Call: &call, Result: &res})
		}()
	}
	set := func(i int, res tools.Result) {
		call := calls[i]
		results[i] = provider.ToolResult{CallID: call.ID, Text: res.Text, IsError: res.IsError}
		r.emit(Event{Kind: EventToolEnd, Call: &call, Result: &res})
	}
	var ask []int
	for i, c := range calls {
		spec, known := r.cfg.Tools.Spec(c.Name)
		if !known {
			start(i) // the toolbox answers with goose's not-found error
			continue
		}
		switch policy(r.cfg.Mode, r.cfg.Permissions, c.Name, spec) {
		case verdictRun:
			start(i)
		case verdictSkip:
			set(i, tools.Result{Text: ChatModeSkipped})
		case verdictDeny:
			set(i, tools.Result{Text: DeclinedResponse, IsError: true})
		case verdictAsk:
			ask = append(ask, i)
		}
	}
	cancelled := false
	for _, i := range ask {
		if cancelled || ctx.Err() != nil {
			set(i, tools.Result{Text: CancelledByUser, IsError: true})
			continue
		}
		d := Deny
		var err error
		if r.cfg.Approver != nil {
			d, err = r.cfg.Approver.Approve(ctx, ApprovalRequest{Tool: calls[i].Name, Arguments: r.cfg.Redactor.RedactJSON(calls[i].Arguments), Agent: r.cfg.Agent, CallID: calls[i].ID})
		}
		switch {
		case err != nil:
			set(i, tools.Result{Text: DeclinedResponse + "\n(" + err.Error() + ")", IsError: true})
		case d == Allow:
			start(i)
		case d == AlwaysAllow:
			if r.cfg.Permissions != nil {
				r.cfg.Permissions.Set(calls[i].Name, AlwaysAllowLevel)
			}
			start(i)
		case d == Cancel:
			cancelled = true
			set(i, tools.Result{Text: CancelledByUser, IsError: true})
		default:
			set(i, tools.Result{Text: DeclinedResponse, IsError: true})
		}
	}
	wg.Wait()
	return results, cancelled
}

// callTool runs one call, turning a panic into an error result so one tool cannot end the run.
func (r *run) callTool(ctx context.Context, call provider.ToolCall) (res tools.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tools.Result{Text: fmt.Sprintf("tool %s failed: %v", call.Name, p), IsError: true}
		}
	}()
	res = r.cfg.Tools.Call(sessionctx.WithToolCall(r.inSession(ctx), call.ID), call.Name, call.Arguments)
	if res.IsError && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.Text = "Interrupted by the user to make a correction"
	}
	return res
}
