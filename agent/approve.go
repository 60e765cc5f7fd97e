// Permission modes (GOOSE_MODE) and the Approver interface: which tool calls run at once, which ask
// the user first, which are skipped (chat mode) or refused.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// Mode is goose's permission mode.
type Mode string

// The modes.
const (
	ModeAuto         Mode = "auto"
	ModeApprove      Mode = "approve"
	ModeSmartApprove Mode = "smart_approve"
	ModeChat         Mode = "chat"
)

// ParseMode reads a GOOSE_MODE value ("" → auto, goose's code default).
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(strings.ToLower(s))); m {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeApprove, ModeSmartApprove, ModeChat:
		return m, nil
	}
	return "", fmt.Errorf("invalid mode: %s", s)
}

// Decision is the user's answer.
type Decision int

// The answers.
const (
	Deny Decision = iota
	Allow
	AlwaysAllow
	Cancel
)

// ApprovalRequest asks to run one call.
type ApprovalRequest struct {
	Tool      string
	Arguments json.RawMessage
	Agent     string
	CallID    string // the call's id, as its EventToolStart/EventToolEnd will carry it
}

// Approver asks the user; it blocks until answered or ctx ends.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// ApproverFunc adapts a function.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (Decision, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	return f(ctx, req)
}

// Level is a stored per-tool permission.
type Level string

// The stored levels (permission.yaml).
const (
	AlwaysAllowLevel Level = "always_allow"
	AskBeforeLevel   Level = "ask_before"
	NeverAllowLevel  Level = "never_allow"
)

// Permissions are the user's per-tool choices (goose's permission.yaml `user` section) plus the
// "always allow" answers given during the run.
type Permissions struct {
	mu     sync.Mutex
	levels map[string]Level
}

// LoadPermissions reads <config_dir>/permission.yaml; a missing file gives empty permissions.
func LoadPermissions(path string) (*Permissions, error) {
	p := &Permissions{levels: map[string]Level{}}
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return p, nil
		}
		return p, err
	}
	var doc struct {
		User map[string][]string `yaml:"user"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	for level, names := range doc.User {
		for _, n := range names {
			p.levels[n] = Level(level)
		}
	}
	return p, nil
}

// Set records a level for a public tool name.
func (p *Permissions) Set(tool string, l Level) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.levels == nil {
		p.levels = map[string]Level{}
	}
	p.levels[tool] = l
}

// level finds the level for a public name, also under goose's classic developer names.
func (p *Permissions) level(tool string) (Level, bool) {
	if p == nil {
		return "", false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.levels[tool]; ok {
		return l, true
	}
	for classic, current := range tools.ClassicAliases {
		for _, c := range current {
			if c == tool {
				if l, ok := p.levels["developer__"+classic]; ok {
					return l, true
				}
			}
		}
	}
	return "", false
}

// verdict is what the policy says before anyone is asked.
type verdict int

const (
	verdictRun verdict = iota
	verdictAsk
	verdictDeny
	verdictSkip // chat mode
)

// policy decides for one call.
func policy(mode Mode, perms *Permissions, tool string, spec tools.Spec) verdict {
	switch mode {
	case ModeChat:
		return verdictSkip
	case ModeAuto, "":
		return verdictRun
	}
	if l, ok := perms.level(tool); ok {
		switch l {
		case AlwaysAllowLevel:
			return verdictRun
		case NeverAllowLevel:
			return verdictDeny
		case AskBeforeLevel:
			return verdictAsk
		}
	}
	if mode == ModeSmartApprove && spec.Annotated && spec.ReadOnly {
		return verdictRun
	}
	return verdictAsk
}

// Texts goose gives the model for calls that did not run.
const (
	DeclinedResponse = "The user has declined to run this tool. DO NOT attempt to call this tool again. If there are no alternative methods to proceed, clearly explain the situation and STOP."
	ChatModeSkipped  = "Let the user know the tool call was skipped in goose chat mode. DO NOT apologize for skipping the tool call. DO NOT say sorry. Provide an explanation of what the tool call would do, structured as a plan for the user. Again, DO NOT apologize. **Example Plan:**\n1. **Identify Task Scope** - Determine the purpose and expected outcome.\n2. **Outline Steps** - Break down the steps.\nIf needed, adjust the explanation based on user preferences or questions."
	ChatModeSystem   = "Right now you are in the chat only mode, no access to any tool use and system."
	CancelledByUser  = "Tool call cancelled by user"
)
