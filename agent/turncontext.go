// The per-turn context (goose's MOIM): before every model request one user-role `<info-msg>` text with the
// time, the working folder, the context used and each extension's contribution (todo, tom), inserted
// before the last assistant message and merged with a neighbouring user text; never stored in history.

package agent

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// TurnContexter is an extension that adds to the per-turn context ("" adds nothing);
// platform.Todo and platform.Tom are.
type TurnContexter interface {
	TurnContext() string
}

// MinContextForTurnContext is goose's MIN_CONTEXT_FOR_MOIM: smaller models get no per-turn context.
const MinContextForTurnContext = 32000

// turnContext builds the `<info-msg>` text for the next request, "" when the model's context is too small.
func (r *run) turnContext(now time.Time) string {
	limit := r.cfg.ContextLimit
	if limit <= 0 {
		limit = DefaultContextLimit
	}
	if limit < MinContextForTurnContext {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<info-msg>\nIt is currently %s\nWorking directory: %s\n", now.Format("2006-01-02 15:04:00"), r.cfg.WorkDir)
	if total := r.lastUsage.InputTokens + r.lastUsage.OutputTokens; total > 0 {
		pct := int(math.Round(float64(total) / float64(limit) * 100))
		fmt.Fprintf(&b, "Context: ~%dk/%dk tokens used (%d%%)\n", total/1000, limit/1000, pct)
	}
	if r.cfg.Tools != nil {
		for _, m := range r.cfg.Tools.mounts {
			if tc, ok := m.Ext.(TurnContexter); ok {
				if text := tc.TurnContext(); text != "" {
					b.WriteString("\n" + text)
				}
			}
		}
	}
	b.WriteString("\n</info-msg>")
	return b.String()
}

// withTurnContext returns the messages of a request: msgs (not modified) with text inserted before the last
// assistant message (first when there is none) and merged, as goose's fix-up merges consecutive user
// messages, with a neighbouring user text message (a message of tool results stays apart).
func withTurnContext(msgs []provider.Message, text string) []provider.Message {
	if text == "" {
		return msgs
	}
	idx := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == provider.Assistant {
			idx = i
			break
		}
	}
	plainUser := func(m provider.Message) bool {
		return m.Role == provider.User && len(m.ToolResults) == 0 && len(m.ToolCalls) == 0
	}
	out := make([]provider.Message, 0, len(msgs)+1)
	out = append(out, msgs[:idx]...)
	switch {
	case idx > 0 && plainUser(msgs[idx-1]):
		out[idx-1].Text = joinText(out[idx-1].Text, text)
		out = append(out, msgs[idx:]...)
	case idx < len(msgs) && plainUser(msgs[idx]):
		merged := msgs[idx]
		merged.Text = joinText(text, merged.Text)
		out = append(out, merged)
		out = append(out, msgs[idx+1:]...)
	default:
		out = append(out, provider.Message{Role: provider.User, Text: text})
		out = append(out, msgs[idx:]...)
	}
	return out
}

// joinText puts two text blocks of one message into the one text goose-ls's messages carry.
func joinText(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n\n" + b
}
