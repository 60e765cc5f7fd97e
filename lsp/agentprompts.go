// The questions an agent run asks the user through window/showMessageRequest: consent before a recipe
// first runs its commands, and approvals of tool calls; no answer is always a no.

package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goose-ls/goose-ls/agent"
)

// approve asks the user through window/showMessageRequest; no answer is a denial.
func (s *Server) approve(ctx context.Context, req agent.ApprovalRequest) (agent.Decision, error) {
	msg := fmt.Sprintf("goose wants to run %s %s", req.Tool, target(req.Arguments)) // the loop redacted the request
	if sum := changeSummary(req.Arguments); sum != "" {
		msg += " (" + sum + ")"
	}
	var res *struct {
		Title string `json:"title"`
	}
	_, err := s.conn.Call(ctx, "window/showMessageRequest", map[string]any{
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

// consent shows, the first time a recipe is run, the commands it would execute and waits for the user.
func (s *Server) consent(ctx context.Context, doc *agent.Doc, path string) bool {
	var cmds []string
	for _, e := range doc.Extensions {
		if e.Type == "stdio" {
			cmds = append(cmds, strings.TrimSpace(e.Cmd+" "+strings.Join(e.Args, " ")))
		}
	}
	if doc.Retry != nil {
		for _, c := range doc.Retry.Checks {
			cmds = append(cmds, c.Command)
		}
		if doc.Retry.OnFailure != "" {
			cmds = append(cmds, doc.Retry.OnFailure)
		}
	}
	if len(cmds) == 0 {
		return true
	}
	sum := sha256.Sum256([]byte(path + "\x00" + strings.Join(cmds, "\x00")))
	key := hex.EncodeToString(sum[:])
	s.mu.Lock()
	ok := s.consented[key]
	s.mu.Unlock()
	if ok {
		return true
	}
	var res *struct {
		Title string `json:"title"`
	}
	_, err := s.conn.Call(ctx, "window/showMessageRequest", map[string]any{
		"type":    2,
		"message": fmt.Sprintf("Run %s? It will execute:\n%s", filepath.Base(path), "  "+strings.Join(cmds, "\n  ")),
		"actions": []any{map[string]any{"title": "Run"}, map[string]any{"title": "Cancel"}},
	}, &res)
	if err != nil || res == nil || res.Title != "Run" {
		return false
	}
	s.mu.Lock()
	if s.consented == nil {
		s.consented = map[string]bool{}
	}
	s.consented[key] = true
	s.mu.Unlock()
	return true
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
