// Event: the one typed definition of a run's events for front ends; its JSON is the language server's
// `goose/runEvent` payload (docs/protocol.md), and the editor packages are tested against the same fixtures
// (testdata/runevents).

package host

import (
	"encoding/json"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
)

// EventKind is an event's `kind`.
type EventKind string

// The kinds of event.
const (
	KindStart        EventKind = "start"        // Title (the language server adds ProgressToken)
	KindText         EventKind = "text"         // Text: a streamed delta of the assistant's reply
	KindMessage      EventKind = "message"      // Text: a complete message the loop adds
	KindToolStart    EventKind = "toolStart"    // Tool, CallID, Arguments
	KindToolEnd      EventKind = "toolEnd"      // Tool, CallID, Result, IsError
	KindEdit         EventKind = "edit"         // Path, Turn, Created
	KindSession      EventKind = "session"      // SessionID
	KindUsage        EventKind = "usage"        // Usage
	KindNotice       EventKind = "notice"       // Text
	KindError        EventKind = "error"        // Text
	KindFinalOutput  EventKind = "finalOutput"  // Text: one line of JSON
	KindDone         EventKind = "done"         // Status
	KindSubagentDone EventKind = "subagentDone" // Status
)

// Event is one report of a run, redacted at its source. Kind is "" for a loop event that has no
// runEvent of its own (a turn starting): only Loop is set then.
type Event struct {
	RunID string    `json:"runId"`
	Kind  EventKind `json:"kind"`
	// Agent names the sub-agent ("" for the main one).
	Agent         string          `json:"agent"`
	Title         string          `json:"title,omitempty"`
	ProgressToken string          `json:"progressToken,omitempty"`
	Text          string          `json:"text,omitempty"`
	Tool          string          `json:"tool,omitempty"`
	CallID        string          `json:"callId,omitempty"`
	Arguments     json.RawMessage `json:"arguments,omitempty"`
	Result        string          `json:"result,omitempty"`
	IsError       bool            `json:"isError,omitempty"`
	Usage         *provider.Usage `json:"usage,omitempty"`
	Status        string          `json:"status,omitempty"`
	SessionID     string          `json:"sessionId,omitempty"`
	Path          string          `json:"path,omitempty"`
	Turn          int             `json:"turn,omitempty"`
	Created       bool            `json:"created,omitempty"`

	// Loop is the loop's own event this one was made from (nil for the host's own: start, session,
	// edit, a run that failed or was declined), for front ends that map loop events themselves (ACP).
	Loop *agent.Event `json:"-"`
}

// MarshalJSON writes exactly the fields of the event's kind (false and zero values included), with the
// keys in sorted order as the language server has always sent them (one struct per kind: encoding/json
// writes fields in declaration order).
func (e Event) MarshalJSON() ([]byte, error) {
	switch e.Kind {
	case KindStart:
		return json.Marshal(struct {
			Agent         string    `json:"agent"`
			Kind          EventKind `json:"kind"`
			ProgressToken string    `json:"progressToken,omitempty"`
			RunID         string    `json:"runId"`
			Title         string    `json:"title"`
		}{e.Agent, e.Kind, e.ProgressToken, e.RunID, e.Title})
	case KindText, KindMessage, KindNotice, KindError, KindFinalOutput:
		return json.Marshal(struct {
			Agent string    `json:"agent"`
			Kind  EventKind `json:"kind"`
			RunID string    `json:"runId"`
			Text  string    `json:"text"`
		}{e.Agent, e.Kind, e.RunID, e.Text})
	case KindToolStart:
		return json.Marshal(struct {
			Agent     string          `json:"agent"`
			Arguments json.RawMessage `json:"arguments"`
			CallID    string          `json:"callId"`
			Kind      EventKind       `json:"kind"`
			RunID     string          `json:"runId"`
			Tool      string          `json:"tool"`
		}{e.Agent, e.Arguments, e.CallID, e.Kind, e.RunID, e.Tool})
	case KindToolEnd:
		return json.Marshal(struct {
			Agent   string    `json:"agent"`
			CallID  string    `json:"callId"`
			IsError bool      `json:"isError"`
			Kind    EventKind `json:"kind"`
			Result  string    `json:"result"`
			RunID   string    `json:"runId"`
			Tool    string    `json:"tool"`
		}{e.Agent, e.CallID, e.IsError, e.Kind, e.Result, e.RunID, e.Tool})
	case KindEdit:
		return json.Marshal(struct {
			Agent   string    `json:"agent"`
			Created bool      `json:"created"`
			Kind    EventKind `json:"kind"`
			Path    string    `json:"path"`
			RunID   string    `json:"runId"`
			Turn    int       `json:"turn"`
		}{e.Agent, e.Created, e.Kind, e.Path, e.RunID, e.Turn})
	case KindSession:
		return json.Marshal(struct {
			Agent     string    `json:"agent"`
			Kind      EventKind `json:"kind"`
			RunID     string    `json:"runId"`
			SessionID string    `json:"sessionId"`
		}{e.Agent, e.Kind, e.RunID, e.SessionID})
	case KindUsage:
		u := provider.Usage{}
		if e.Usage != nil {
			u = *e.Usage
		}
		return json.Marshal(struct {
			Agent string         `json:"agent"`
			Kind  EventKind      `json:"kind"`
			RunID string         `json:"runId"`
			Usage provider.Usage `json:"usage"`
		}{e.Agent, e.Kind, e.RunID, u})
	case KindDone, KindSubagentDone:
		return json.Marshal(struct {
			Agent  string    `json:"agent"`
			Kind   EventKind `json:"kind"`
			RunID  string    `json:"runId"`
			Status string    `json:"status"`
		}{e.Agent, e.Kind, e.RunID, e.Status})
	}
	return json.Marshal(struct {
		Agent string    `json:"agent"`
		Kind  EventKind `json:"kind"`
		RunID string    `json:"runId"`
	}{e.Agent, e.Kind, e.RunID})
}

// fromLoop makes the event for a loop event (already redacted by the run).
func fromLoop(runID string, le agent.Event) Event {
	e := Event{RunID: runID, Agent: le.Agent, Loop: &le}
	switch le.Kind {
	case agent.EventText:
		e.Kind, e.Text = KindText, le.Text
	case agent.EventMessage:
		e.Kind, e.Text = KindMessage, le.Text
	case agent.EventToolStart:
		e.Kind, e.Tool, e.CallID, e.Arguments = KindToolStart, le.Call.Name, le.Call.ID, le.Call.Arguments
	case agent.EventToolEnd:
		e.Kind, e.Tool, e.CallID, e.Result, e.IsError = KindToolEnd, le.Call.Name, le.Call.ID, le.Result.Text, le.Result.IsError
	case agent.EventUsage:
		u := le.Usage
		e.Kind, e.Usage = KindUsage, &u
	case agent.EventNotice:
		e.Kind, e.Text = KindNotice, le.Text
	case agent.EventError:
		e.Kind = KindError
		if le.Err != nil {
			e.Text = le.Err.Error()
		}
	case agent.EventFinalOutput:
		e.Kind, e.Text = KindFinalOutput, le.Text
	case agent.EventDone:
		e.Kind, e.Status = KindDone, le.Text
		if le.Agent != "" {
			e.Kind = KindSubagentDone
		}
	}
	return e
}
