// Events: what a run reports to its subscriber (the CLI prints them, the language server turns them
// into progress and edits). The loop never prints.

package agent

import (
	"encoding/json"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// EventKind says what happened.
type EventKind int

// The kinds of event.
const (
	EventText        EventKind = iota // a streamed piece of assistant text
	EventMessage                      // a complete assistant text the loop adds itself (max turns, errors)
	EventToolStart                    // a tool call is about to run (Call)
	EventToolEnd                      // a tool call finished (Call, Result)
	EventEdit                         // a file was written (Path)
	EventUsage                        // token usage of one provider call (Usage)
	EventNotice                       // progress worth showing: compaction, retries, extension failures
	EventError                        // an error that ends the run (Err)
	EventFinalOutput                  // the recipe's structured output (Text: one line of JSON)
	EventDone                         // the run ended (Text: the status)
	EventTurnStart                    // a turn begins: the provider is about to be called (Turn, from 1)
	EventThinking                     // a streamed piece of the model's reasoning
)

// Event is one report from a run; Agent names the sub-agent ("" for the main one).
type Event struct {
	Kind   EventKind
	Agent  string
	Text   string
	Call   *provider.ToolCall
	Result *tools.Result
	Path   string
	Usage  provider.Usage
	Err    error
	// Turn numbers the agent's turns from 1 (EventTurnStart); a turn's tool calls and edits follow it.
	Turn int
}

// RedactEvent returns e with every secret hidden: texts, tool arguments (kept valid JSON), results,
// paths and the error's text. Classification survives: a provider error stays a *provider.Error and
// other errors still unwrap to their cause, whose own text a subscriber must not print.
func (r *Redactor) RedactEvent(e Event) Event {
	if r == nil {
		return e
	}
	if e.Kind == EventFinalOutput {
		e.Text = string(r.RedactJSON(json.RawMessage(e.Text)))
	} else {
		e.Text = r.Redact(e.Text)
	}
	e.Path = r.Redact(e.Path)
	if e.Call != nil {
		c := *e.Call
		c.Arguments = r.RedactJSON(c.Arguments)
		e.Call = &c
	}
	if e.Result != nil {
		res := *e.Result
		res.Text = r.Redact(res.Text)
		e.Result = &res
	}
	e.Err = r.RedactError(e.Err)
	return e
}

// RedactError returns err with its text redacted (nil stays nil; an error without secrets is returned
// as it is).
func (r *Redactor) RedactError(err error) error {
	if r == nil || err == nil {
		return err
	}
	if pe, ok := err.(*provider.Error); ok {
		msg := r.Redact(pe.Message)
		if msg == pe.Message && r.Redact(pe.Provider) == pe.Provider {
			return err
		}
		c := *pe
		c.Message, c.Provider = msg, r.Redact(pe.Provider)
		return &c
	}
	text := err.Error()
	if red := r.Redact(text); red != text {
		return &redactedError{text: red, cause: err}
	}
	return err
}

// redactedError shows a redacted text and unwraps to the original (for errors.Is/As).
type redactedError struct {
	text  string
	cause error
}

func (e *redactedError) Error() string { return e.text }
func (e *redactedError) Unwrap() error { return e.cause }

// RedactMessage returns m with its text, reasoning, tool arguments and tool results redacted.
func (r *Redactor) RedactMessage(m provider.Message) provider.Message {
	if r == nil {
		return m
	}
	m.Text = r.Redact(m.Text)
	m.Thinking = r.Redact(m.Thinking)
	if len(m.ToolCalls) > 0 {
		calls := make([]provider.ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			c.Arguments = r.RedactJSON(c.Arguments)
			calls[i] = c
		}
		m.ToolCalls = calls
	}
	if len(m.ToolResults) > 0 {
		results := make([]provider.ToolResult, len(m.ToolResults))
		for i, res := range m.ToolResults {
			res.Text = r.Redact(res.Text)
			results[i] = res
		}
		m.ToolResults = results
	}
	return m
}
