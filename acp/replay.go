// session/load's replay: a stored conversation as the updates a client would have seen live — user and
// agent message chunks, the agent's reasoning as thought chunks, each tool call with its result.

package acp

import (
	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// replay turns stored messages into updates; paths in tool calls are made absolute against cwd.
func replay(msgs []provider.Message, cwd string) []sdk.SessionUpdate {
	ws := &sessionWorkspace{root: cwd}
	var out []sdk.SessionUpdate
	for _, m := range msgs {
		switch m.Role {
		case provider.User:
			if m.Text != "" {
				out = append(out, sdk.UpdateUserMessageText(m.Text))
			}
			for _, r := range m.ToolResults {
				status := sdk.ToolCallStatusCompleted
				if r.IsError {
					status = sdk.ToolCallStatusFailed
				}
				out = append(out, sdk.UpdateToolCall(sdk.ToolCallId(r.CallID), sdk.WithUpdateStatus(status),
					sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(r.Text))})))
			}
		case provider.Assistant:
			if m.Thinking != "" { // stored before the text, as goose stores it
				out = append(out, sdk.UpdateAgentThoughtText(m.Thinking))
			}
			if m.Text != "" {
				out = append(out, sdk.UpdateAgentMessageText(m.Text))
			}
			for _, c := range m.ToolCalls {
				a := parseArgs(c.Arguments)
				var locs []sdk.ToolCallLocation
				if a.Path != "" {
					locs = []sdk.ToolCallLocation{{Path: ws.abs(a.Path)}}
				}
				out = append(out, sdk.StartToolCall(sdk.ToolCallId(c.ID), toolTitle(c.Name, a), sdk.WithStartKind(toolKind(c.Name, a)),
					sdk.WithStartStatus(sdk.ToolCallStatusInProgress), sdk.WithStartLocations(locs), sdk.WithStartRawInput(rawInput(c.Arguments))))
			}
		}
	}
	return out
}
