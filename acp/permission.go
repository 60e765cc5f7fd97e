// Tool approvals in approve and smart_approve modes as session/request_permission, with goose's four
// answers; "always" lasts as long as the session.

package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/provider"
)

// The permission options, ids as their kinds.
var permissionOptions = []sdk.PermissionOption{
	{OptionId: "allow_once", Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
	{OptionId: "allow_always", Name: "Always allow (this session)", Kind: sdk.PermissionOptionKindAllowAlways},
	{OptionId: "reject_once", Name: "Deny", Kind: sdk.PermissionOptionKindRejectOnce},
	{OptionId: "reject_always", Name: "Always deny (this session)", Kind: sdk.PermissionOptionKindRejectAlways},
}

// permissionAsker is the client's part in an approval.
type permissionAsker interface {
	RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
}

// approver asks the client for one session's calls.
type approver struct {
	client  permissionAsker
	session *acpSession
	updates *promptUpdates
}

// Approve shows the call (pending) and asks; a cancelled prompt or answer is goose's Cancel.
func (ap *approver) Approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	s := ap.session
	s.mu.Lock()
	rejected := s.rejected[req.Tool]
	s.mu.Unlock()
	if rejected {
		return agent.Deny, nil
	}
	call := &provider.ToolCall{ID: req.CallID, Name: req.Tool, Arguments: req.Arguments}
	ap.updates.announce(call, sdk.ToolCallStatusPending)
	a := parseArgs(req.Arguments)
	resp, err := ap.client.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall: sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(req.CallID), Title: sdk.Ptr(toolTitle(req.Tool, a)),
			Kind: sdk.Ptr(toolKind(req.Tool, a)), Status: sdk.Ptr(sdk.ToolCallStatusPending), RawInput: rawInput(req.Arguments),
			Locations: ap.updates.locations(a)},
		Options: permissionOptions,
	})
	if ctx.Err() != nil {
		return agent.Cancel, nil
	}
	if err != nil {
		return agent.Deny, fmt.Errorf("the client did not answer the permission request: %w", err)
	}
	if resp.Outcome.Selected == nil {
		return agent.Cancel, nil
	}
	switch resp.Outcome.Selected.OptionId {
	case "allow_once":
		return agent.Allow, nil
	case "allow_always":
		return agent.AlwaysAllow, nil // the loop records it in the session's permissions
	case "reject_always":
		s.mu.Lock()
		s.rejected[req.Tool] = true
		s.mu.Unlock()
	}
	return agent.Deny, nil
}
