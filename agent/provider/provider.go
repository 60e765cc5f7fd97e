// Package provider defines the conversation types and the streaming Provider interface the agent loop
// talks to; one sub-package per vendor implements it with the vendor's official SDK.
package provider

import (
	"context"
	"encoding/json"
)

// Role is who wrote a message.
type Role string

// The two roles of a conversation (the system prompt travels separately).
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// ToolCall is a model's request to run a tool.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolResult answers one ToolCall.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Text    string `json:"text"`
	IsError bool   `json:"is_error,omitempty"`
}

// Message is one turn: an assistant message holds text and tool calls; a user message holds text or
// the results of the previous assistant message's tool calls.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text,omitempty"`
	// Thinking is an assistant's reasoning (an OpenAI-compatible server's reasoning_content), stored as
	// goose stores it and sent back where goose sends it back.
	Thinking    string       `json:"thinking,omitempty"`
	ToolCalls   []ToolCall   `json:"tool_calls,omitempty"`
	ToolResults []ToolResult `json:"tool_results,omitempty"`
}

// Tool describes a tool the model may call.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Request is one model call.
type Request struct {
	Model       string
	System      string
	Messages    []Message
	Tools       []Tool
	Temperature *float64
	MaxTokens   int
	// ThinkingEffort is goose's configured thinking effort (ParseThinkingEffort's form), "" when none is.
	ThinkingEffort string
}

// Usage counts the tokens of one model call. InputTokens counts every prompt token, those read from or
// written to the vendor's prompt cache included: the cache counts are parts of it, as goose counts them.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
}

// Delta is one streamed piece of the reply: text, or part of a tool call (the first delta of a call
// carries its id and name, later ones pieces of its JSON arguments).
type Delta struct {
	Text string
	// Thinking is a piece of the model's reasoning (never also Text).
	Thinking      string
	ToolCallIndex int
	ToolCallID    string
	ToolName      string
	ArgumentsPart string
}

// Response is the complete reply of one call.
type Response struct {
	Message Message
	Usage   Usage
}

// Provider streams a model reply. onDelta is called from the calling goroutine, in order; the returned
// Response holds the whole message. Errors are *Error where the vendor's answer allows it.
type Provider interface {
	Name() string
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}

// Settings choose a provider and model (a recipe's settings block, or CLI overrides); empty fields fall
// back to the configuration.
type Settings struct {
	Provider    string
	Model       string
	Temperature *float64
}

// Setup is a ready provider and what the loop needs to know about its model.
type Setup struct {
	Provider     Provider
	Name         string
	Model        string
	Temperature  *float64
	MaxTokens    int
	ContextLimit int
	// Secrets are the credential values in use, for redaction.
	Secrets []string
	// WatchSecrets, when set, registers report to receive the credentials the provider fetches later
	// (a declarative provider's auth command, on its first request and on every refresh), each before
	// it is sent; the run passes its redactor's Add.
	WatchSecrets func(report func(...string))
}
