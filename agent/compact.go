// Context management: an approximate token count, and compaction of the conversation into a summary
// written by the provider when it nears the model's context limit or the provider says it is full.

package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// DefaultContextLimit is goose's fallback context size.
const DefaultContextLimit = 128000

// EstimateTokens approximates tokens as one per four bytes of text, arguments and results, plus a few
// per message for the framing.
func EstimateTokens(system string, msgs []provider.Message, tools []provider.Tool) int {
	n := len(system)
	for _, m := range msgs {
		n += len(m.Text) + 16
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments) + 16
		}
		for _, r := range m.ToolResults {
			n += len(r.Text) + 16
		}
	}
	for _, t := range tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	return n / 4
}

func (r *run) threshold() float64 {
	if r.cfg.CompactThreshold == 0 {
		return 0.8
	}
	return r.cfg.CompactThreshold
}

func (r *run) needsCompaction(system string, tools []provider.Tool) bool {
	t := r.threshold()
	if t <= 0 || t >= 1 || len(r.msgs) < 3 {
		return false
	}
	limit := r.cfg.ContextLimit
	if limit <= 0 {
		limit = DefaultContextLimit
	}
	return float64(EstimateTokens(system, r.msgs, tools)) > t*float64(limit)
}

const compactionPrompt = `You are summarising a conversation between a user and an AI coding agent so the agent can continue the work with a shorter context.
Write a concise summary that keeps: the user's goals and constraints, decisions made, files created or changed (with paths), commands run and their outcomes, errors met, and what remains to be done. Do not invent anything.`

// compact replaces the conversation with a summary, the agent's acknowledgement and the latest request.
func (r *run) compact(ctx context.Context) error {
	var transcript strings.Builder
	latest := ""
	for _, m := range r.msgs {
		if m.Role == provider.User && m.Text != "" && len(m.ToolResults) == 0 {
			latest = m.Text
		}
		writeTranscript(&transcript, m)
	}
	text := transcript.String()
	// if the transcript itself is too long for the model, keep its beginning and end
	limit := r.cfg.ContextLimit
	if limit <= 0 {
		limit = DefaultContextLimit
	}
	if budget := limit * 3; len(text) > budget {
		text = text[:budget/2] + "\n[... middle of the conversation omitted ...]\n" + text[len(text)-budget/2:]
	}
	resp, err := r.cfg.Provider.Stream(r.inSession(ctx), provider.Request{
		Model: r.cfg.Model, System: compactionPrompt, ThinkingEffort: r.cfg.ThinkingEffort,
		Messages: []provider.Message{{Role: provider.User, Text: "Summarise this conversation:\n\n" + text}},
	}, func(provider.Delta) {})
	if err != nil {
		return err
	}
	r.usage.InputTokens += resp.Usage.InputTokens
	r.usage.OutputTokens += resp.Usage.OutputTokens
	summary := strings.TrimSpace(resp.Message.Text)
	if summary == "" {
		return fmt.Errorf("the provider returned an empty summary")
	}
	if latest == "" {
		latest = "Continue the task."
	}
	r.msgs = []provider.Message{
		{Role: provider.User, Text: "Here is a summary of the conversation so far:\n\n" + summary},
		{Role: provider.Assistant, Text: "Your context was compacted. The previous message contains a summary of the conversation so far. I will continue from it without mentioning the summary."},
		{Role: provider.User, Text: latest + "\n\n(Continue where you left off.)"},
	}
	r.emit(Event{Kind: EventNotice, Text: "Compaction complete"})
	return nil
}

func writeTranscript(b *strings.Builder, m provider.Message) {
	if m.Text != "" {
		fmt.Fprintf(b, "%s: %s\n", m.Role, m.Text)
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(b, "assistant called %s %s\n", c.Name, c.Arguments)
	}
	for _, res := range m.ToolResults {
		t := res.Text
		if len(t) > 2000 {
			t = t[:1000] + " [...] " + t[len(t)-1000:]
		}
		kind := "tool result"
		if res.IsError {
			kind = "tool result (error)"
		}
		fmt.Fprintf(b, "%s: %s\n", kind, t)
	}
}
