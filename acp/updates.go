// The loop's events as session/update notifications: message chunks, tool calls (goose's titles, kinds,
// locations) and their updates (status, diffs of writes and edits, terminals, results), usage and plans.

package acp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// toolArgs are the arguments that say what a call works on.
type toolArgs struct {
	Path    string `json:"path"`
	Command string `json:"command"`
	URL     string `json:"url"`
	Query   string `json:"query"`
	Line    *int   `json:"line"`
	Content string `json:"content"` // todo_write's list
}

func parseArgs(raw json.RawMessage) toolArgs {
	var a toolArgs
	_ = json.Unmarshal(raw, &a)
	return a
}

// splitTool is a public tool name's extension and tool: "write" is developer's (unprefixed).
func splitTool(name string) (ext, tool string) {
	if e, t, ok := strings.Cut(name, "__"); ok {
		return e, t
	}
	return "developer", name
}

// toolTitle is goose's "developer: write · notes.md".
func toolTitle(name string, a toolArgs) string {
	ext, tool := splitTool(name)
	title := ext + ": " + tool
	for _, target := range []string{a.Path, a.Command, a.URL, a.Query} {
		if target != "" {
			line, _, _ := strings.Cut(strings.TrimSpace(target), "\n")
			if r := []rune(line); len(r) > 80 {
				line = string(r[:80]) + "…"
			}
			return title + " · " + line
		}
	}
	return title
}

// toolKind classifies a call for the client's icons.
func toolKind(name string, a toolArgs) sdk.ToolKind {
	ext, tool := splitTool(name)
	switch {
	case ext == "developer" && (tool == "write" || tool == "edit"):
		return sdk.ToolKindEdit
	case ext == "developer" && (tool == "read" || tool == "tree"):
		return sdk.ToolKindRead
	case tool == "shell" || a.Command != "":
		return sdk.ToolKindExecute
	case ext == "analyze" || strings.Contains(tool, "search") || strings.Contains(tool, "find") || strings.Contains(tool, "grep"):
		return sdk.ToolKindSearch
	case ext == "todo":
		return sdk.ToolKindThink
	case a.URL != "" || strings.Contains(tool, "fetch"):
		return sdk.ToolKindFetch
	case tool == "load_skill":
		return sdk.ToolKindRead
	}
	return sdk.ToolKindOther
}

// promptUpdates turns one prompt's events into updates; it remembers which calls the client has seen.
type promptUpdates struct {
	a            *Agent
	ctx          context.Context
	sessionID    string
	ws           *sessionWorkspace
	contextLimit int

	mu        sync.Mutex
	announced map[string]bool
	shells    map[string][]string // command → calls waiting for their terminal
	terminals map[string]string   // call → terminal
}

func newPromptUpdates(ctx context.Context, a *Agent, s *acpSession, ws *sessionWorkspace) *promptUpdates {
	s.mu.Lock()
	limit := s.contextLimit
	s.mu.Unlock()
	return &promptUpdates{a: a, ctx: ctx, sessionID: s.id, ws: ws, contextLimit: limit,
		announced: map[string]bool{}, shells: map[string][]string{}, terminals: map[string]string{}}
}

func (p *promptUpdates) send(u sdk.SessionUpdate) { p.a.update(p.ctx, p.sessionID, u) }

// locations is where a call works: its path (absolute) and line.
func (p *promptUpdates) locations(a toolArgs) []sdk.ToolCallLocation {
	if a.Path == "" {
		return nil
	}
	loc := sdk.ToolCallLocation{Path: p.ws.abs(a.Path)}
	if a.Line != nil && *a.Line > 0 {
		loc.Line = sdk.Ptr(*a.Line)
	}
	return []sdk.ToolCallLocation{loc}
}

// announce sends the tool_call the first time a call is seen (pending while it waits for permission).
func (p *promptUpdates) announce(call *provider.ToolCall, status sdk.ToolCallStatus) {
	p.mu.Lock()
	seen := p.announced[call.ID]
	p.announced[call.ID] = true
	p.mu.Unlock()
	a := parseArgs(call.Arguments)
	if seen {
		p.send(sdk.UpdateToolCall(sdk.ToolCallId(call.ID), sdk.WithUpdateStatus(status)))
		return
	}
	p.send(sdk.StartToolCall(sdk.ToolCallId(call.ID), toolTitle(call.Name, a), sdk.WithStartKind(toolKind(call.Name, a)),
		sdk.WithStartStatus(status), sdk.WithStartLocations(p.locations(a)), sdk.WithStartRawInput(rawInput(call.Arguments))))
}

// rawInput is the call's arguments as JSON the client can show.
func rawInput(args json.RawMessage) any {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return nil
	}
	return v
}

// event maps one loop event.
func (p *promptUpdates) event(e agent.Event) {
	switch e.Kind {
	case agent.EventText:
		if e.Agent == "" {
			p.send(sdk.UpdateAgentMessageText(e.Text))
		} else {
			p.send(sdk.UpdateAgentThoughtText(e.Text))
		}
	case agent.EventThinking:
		p.send(sdk.UpdateAgentThoughtText(e.Text))
	case agent.EventMessage:
		p.send(sdk.UpdateAgentMessageText(e.Text))
	case agent.EventNotice:
		p.send(sdk.UpdateAgentThoughtText(e.Text + "\n"))
	case agent.EventFinalOutput:
		p.send(sdk.UpdateAgentMessageText("\n```json\n" + e.Text + "\n```\n"))
	case agent.EventToolStart:
		p.toolStart(e.Call)
	case agent.EventToolEnd:
		p.toolEnd(e.Call, e.Result)
	case agent.EventUsage:
		if e.Agent == "" {
			p.send(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: e.Usage.InputTokens + e.Usage.OutputTokens, Size: p.contextLimit}})
		}
	}
}

func (p *promptUpdates) toolStart(call *provider.ToolCall) {
	if _, tool := splitTool(call.Name); tool == "shell" {
		a := parseArgs(call.Arguments)
		p.mu.Lock()
		p.shells[a.Command] = append(p.shells[a.Command], call.ID)
		p.mu.Unlock()
	}
	p.announce(call, sdk.ToolCallStatusInProgress)
}

// terminalStarted shows a delegated shell call's terminal live.
func (p *promptUpdates) terminalStarted(command, terminalID string) {
	p.mu.Lock()
	ids := p.shells[command]
	if len(ids) == 0 {
		p.mu.Unlock()
		return
	}
	id := ids[0]
	p.shells[command] = ids[1:]
	p.terminals[id] = terminalID
	p.mu.Unlock()
	p.send(sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(terminalID)})))
}

func (p *promptUpdates) toolEnd(call *provider.ToolCall, res *tools.Result) {
	p.mu.Lock()
	seen := p.announced[call.ID]
	p.mu.Unlock()
	if !seen { // a call refused or skipped before it started
		p.announce(call, sdk.ToolCallStatusPending)
	}
	status := sdk.ToolCallStatusCompleted
	if res.IsError {
		status = sdk.ToolCallStatusFailed
	}
	a := parseArgs(call.Arguments)
	ext, tool := splitTool(call.Name)
	var content []sdk.ToolCallContent
	var locs []sdk.ToolCallLocation
	if ext == "developer" && (tool == "write" || tool == "edit") && !res.IsError {
		if d, ok := p.ws.takeDiff(p.ws.abs(a.Path)); ok {
			content = append(content, diffContent(d))
			locs = []sdk.ToolCallLocation{{Path: d.path, Line: sdk.Ptr(changedLine(d))}}
		}
	}
	p.mu.Lock()
	term, delegated := p.terminals[call.ID]
	delete(p.terminals, call.ID)
	p.mu.Unlock()
	if delegated {
		content = append(content, sdk.ToolTerminalRef(term))
	}
	content = append(content, sdk.ToolContent(sdk.TextBlock(res.Text)))
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(status), sdk.WithUpdateContent(content), sdk.WithUpdateRawOutput(map[string]any{"text": res.Text, "isError": res.IsError})}
	if locs != nil {
		opts = append(opts, sdk.WithUpdateLocations(locs))
	}
	p.send(sdk.UpdateToolCall(sdk.ToolCallId(call.ID), opts...))
	if ext == "todo" && tool == "todo_write" && !res.IsError {
		p.send(sdk.UpdatePlan(planEntries(a.Content)...))
	}
}

// diffContent is the write as ACP's diff: oldText null for a new file.
func diffContent(d fileDiff) sdk.ToolCallContent {
	if d.oldText == nil {
		return sdk.ToolDiffContent(d.path, d.newText)
	}
	return sdk.ToolDiffContent(d.path, d.newText, *d.oldText)
}

// changedLine is the first line (1-based) where the new text differs from the old.
func changedLine(d fileDiff) int {
	if d.oldText == nil {
		return 1
	}
	old, cur := *d.oldText, d.newText
	n := 0
	for n < len(old) && n < len(cur) && old[n] == cur[n] {
		n++
	}
	return strings.Count(cur[:n], "\n") + 1
}

// planEntries reads the todo list as a plan: "- [x]" done, "- [~]" or "- [-]" in progress, any other
// item (a "- [ ]" box, a bullet, a numbered line) pending.
func planEntries(content string) []sdk.PlanEntry {
	entries := []sdk.PlanEntry{}
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		status := sdk.PlanEntryStatusPending
		t = strings.TrimLeft(t, "-*+ ")
		switch {
		case strings.HasPrefix(t, "[x]") || strings.HasPrefix(t, "[X]"):
			status, t = sdk.PlanEntryStatusCompleted, t[3:]
		case strings.HasPrefix(t, "[~]") || strings.HasPrefix(t, "[-]"):
			status, t = sdk.PlanEntryStatusInProgress, t[3:]
		case strings.HasPrefix(t, "[ ]"):
			t = t[3:]
		}
		if t = strings.TrimSpace(t); t != "" {
			entries = append(entries, sdk.PlanEntry{Content: t, Priority: sdk.PlanEntryPriorityMedium, Status: status})
		}
	}
	return entries
}
