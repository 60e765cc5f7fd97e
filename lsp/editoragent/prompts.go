// The questions an agent run asks the user through window/showMessageRequest: consent before a recipe
// first runs its commands, and approvals of tool calls; no answer is always a no.

package editoragent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/agent"
	"github.com/goose-ls/goose-ls/agent/host"
)

// approve asks the user through window/showMessageRequest; no answer is a denial.
func (a *Agent) approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	msg := fmt.Sprintf("goose wants to run %s %s", req.Tool, target(req.Arguments)) // the loop redacted the request
	if sum := changeSummary(req.Arguments); sum != "" {
		msg += " (" + sum + ")"
	}
	var res *struct {
		Title string `json:"title"`
	}
	err := a.ed.Call(ctx, "window/showMessageRequest", map[string]any{
		"type": 3, "message": msg,
		"actions": []any{map[string]any{"title": "Allow once"}, map[string]any{"title": "Allow for this run"}, map[string]any{"title": "Deny"}},
	}, &res)
	if err != nil || res == nil {
		return agent.Deny, nil
	}
	switch res.Title {
	case "Allow once":
		return agent.Allow, nil
	case "Allow for this run":
		return agent.AlwaysAllow, nil
	}
	return agent.Deny, nil
}

// askConsent shows the commands a recipe would execute and waits for the user (the host asks only the
// first time a recipe with these commands runs); no answer is a refusal.
func (a *Agent) askConsent(ctx context.Context, c host.ConsentRequest) bool {
	var res *struct {
		Title string `json:"title"`
	}
	err := a.ed.Call(ctx, "window/showMessageRequest", map[string]any{
		"type":    2,
		"message": fmt.Sprintf("Run %s? It will execute:\n%s", filepath.Base(c.RecipePath), "  "+strings.Join(c.Commands, "\n  ")),
		"actions": []any{map[string]any{"title": "Run"}, map[string]any{"title": "Cancel"}},
	}, &res)
	return err == nil && res != nil && res.Title == "Run"
}

// changeSummary is a one-line summary of a file tool's change: lines removed and added.
func changeSummary(args json.RawMessage) string {
	var a struct {
		Content *string `json:"content"`
		Before  *string `json:"before"`
		After   *string `json:"after"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	lines := func(s string) int {
		if s == "" {
			return 0
		}
		return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
	}
	switch {
	case a.Before != nil && a.After != nil:
		return fmt.Sprintf("-%d +%d lines", lines(*a.Before), lines(*a.After))
	case a.Content != nil:
		if n := lines(*a.Content); n != 1 {
			return fmt.Sprintf("writes %d lines", n)
		}
		return "writes 1 line"
	}
	return ""
}
