// Package anthropic is the Provider for Anthropic's messages API, built on the official
// anthropic-sdk-go, streaming only (as goose does).
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
)

// DefaultMaxTokens is sent when the run sets none (the API requires max_tokens).
const DefaultMaxTokens = 8192

// Config selects the endpoint.
type Config struct {
	Name       string // default "anthropic" (a declarative provider on this engine: its registry name)
	BaseURL    string // default https://api.anthropic.com
	APIKey     string
	Headers    map[string]string
	Timeout    time.Duration
	HTTPClient *http.Client
	// SessionHeader names the header that carries the run's session id ("": agent-session-id).
	SessionHeader string
}

// Provider talks to the messages API.
type Provider struct {
	name   string
	client sdk.Client
}

// New builds a provider that ignores the SDK's environment defaults (goose-ls resolves its own
// configuration) and leaves retries to provider.WithRetry.
func New(cfg Config) *Provider {
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithMaxRetries(0), option.WithAPIKey(cfg.APIKey)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(cfg.Timeout))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		sessionctx.SetHeader(r, cfg.SessionHeader)
		return next(r)
	}))
	name := cfg.Name
	if name == "" {
		name = "anthropic"
	}
	return &Provider{name: name, client: sdk.NewClient(opts...)}
}

// Name is the provider's name ("anthropic" unless configured).
func (p *Provider) Name() string { return p.name }

// Stream sends the conversation and streams the reply.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	params, err := buildParams(req)
	if err != nil {
		return provider.Response{}, err
	}
	stream := p.client.Messages.NewStreaming(ctx, params)
	defer stream.Close()

	var text strings.Builder
	var calls provider.ToolCallAssembler
	var usage provider.Usage
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start":
			usage.InputTokens = int(ev.Message.Usage.InputTokens + ev.Message.Usage.CacheReadInputTokens + ev.Message.Usage.CacheCreationInputTokens)
			usage.CacheReadTokens, usage.CacheWriteTokens = int(ev.Message.Usage.CacheReadInputTokens), int(ev.Message.Usage.CacheCreationInputTokens)
			usage.OutputTokens = int(ev.Message.Usage.OutputTokens)
		case "content_block_start":
			if ev.ContentBlock.Type == "tool_use" {
				onDelta(calls.Add(ev.Index, ev.ContentBlock.ID, ev.ContentBlock.Name, ""))
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				text.WriteString(ev.Delta.Text)
				onDelta(provider.Delta{Text: ev.Delta.Text})
			case "input_json_delta":
				if calls.Has(ev.Index) {
					onDelta(calls.Add(ev.Index, "", "", ev.Delta.PartialJSON))
				}
			}
		case "message_delta":
			if ev.Usage.OutputTokens > 0 {
				usage.OutputTokens = int(ev.Usage.OutputTokens)
			}
			if ev.Usage.InputTokens > 0 {
				usage.InputTokens = int(ev.Usage.InputTokens + ev.Usage.CacheReadInputTokens + ev.Usage.CacheCreationInputTokens)
				usage.CacheReadTokens, usage.CacheWriteTokens = int(ev.Usage.CacheReadInputTokens), int(ev.Usage.CacheCreationInputTokens)
			}
		}
	}
	if err := stream.Err(); err != nil {
		return provider.Response{}, classify(ctx, p.name, err)
	}
	msg := provider.Message{Role: provider.Assistant, Text: text.String(), ToolCalls: calls.Calls()}
	return provider.Response{Message: msg, Usage: usage}, nil
}

func classify(ctx context.Context, name string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		return provider.Classify(name, apiErr.StatusCode, apiErr.Response, apiMessage(apiErr.RawJSON()))
	}
	// errors sent inside the stream (event: error) carry the vendor's JSON
	msg := err.Error()
	lower := strings.ToLower(msg)
	switch {
	case strings.Contains(lower, "overloaded"):
		return &provider.Error{Provider: name, Kind: provider.ErrServer, Message: msg}
	case strings.Contains(lower, "rate_limit"):
		return &provider.Error{Provider: name, Kind: provider.ErrRateLimited, Message: msg}
	case strings.Contains(lower, "prompt is too long"):
		return &provider.Error{Provider: name, Kind: provider.ErrContextLength, Message: msg}
	}
	return &provider.Error{Provider: name, Kind: provider.ErrOther, Message: msg}
}

// apiMessage pulls error.message out of an Anthropic error body.
func apiMessage(raw string) string {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &body) == nil && body.Error.Message != "" {
		return body.Error.Type + ": " + body.Error.Message
	}
	return raw
}

func buildParams(req provider.Request) (sdk.MessageNewParams, error) {
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	params := sdk.MessageNewParams{Model: sdk.Model(req.Model), MaxTokens: int64(maxTokens)}
	if req.System != "" {
		params.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	if req.Temperature != nil {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	for _, t := range req.Tools {
		var schema struct {
			Properties any      `json:"properties"`
			Required   []string `json:"required"`
		}
		var extra map[string]any
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
				return params, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
			}
			_ = json.Unmarshal(t.InputSchema, &extra)
			delete(extra, "properties")
			delete(extra, "required")
			delete(extra, "type")
		}
		if schema.Properties == nil {
			schema.Properties = map[string]any{}
		}
		tool := sdk.ToolParam{
			Name:        t.Name,
			Description: sdk.String(t.Description),
			InputSchema: sdk.ToolInputSchemaParam{Properties: schema.Properties, Required: schema.Required, ExtraFields: extra},
		}
		params.Tools = append(params.Tools, sdk.ToolUnionParam{OfTool: &tool})
	}
	for _, m := range req.Messages {
		var blocks []sdk.ContentBlockParamUnion
		for _, r := range m.ToolResults {
			blocks = append(blocks, sdk.NewToolResultBlock(r.CallID, r.Text, r.IsError))
		}
		if m.Text != "" {
			blocks = append(blocks, sdk.NewTextBlock(m.Text))
		}
		for _, c := range m.ToolCalls {
			var input any = map[string]any{}
			if len(c.Arguments) > 0 {
				if err := json.Unmarshal(c.Arguments, &input); err != nil {
					input = map[string]any{}
				}
			}
			blocks = append(blocks, sdk.NewToolUseBlock(c.ID, input, c.Name))
		}
		if len(blocks) == 0 {
			blocks = append(blocks, sdk.NewTextBlock("(empty)"))
		}
		role := sdk.MessageParamRoleUser
		if m.Role == provider.Assistant {
			role = sdk.MessageParamRoleAssistant
		}
		// the API wants strictly alternating roles: merge neighbours of the same role
		if n := len(params.Messages); n > 0 && params.Messages[n-1].Role == role {
			params.Messages[n-1].Content = append(params.Messages[n-1].Content, blocks...)
			continue
		}
		params.Messages = append(params.Messages, sdk.MessageParam{Role: role, Content: blocks})
	}
	return params, nil
}
