// Events: what a run reports to its subscriber (the CLI prints them, the language server turns them
// into progress and edits). The loop never prints.

package agent

import (
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
}
