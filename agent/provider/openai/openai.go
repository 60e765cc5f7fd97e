// Package openai is the Provider for OpenAI's chat completions API and every endpoint that speaks it
// (Ollama, OpenRouter, LiteLLM, vLLM, Azure OpenAI, goose's declarative providers), and for OpenAI's
// Responses API (responses.go), built on the official openai-go SDK.
package openai

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/sessionctx"
)

// Config selects the endpoint.
type Config struct {
	Name    string // "openai", "ollama", "openrouter", ... (for messages)
	BaseURL string // up to and including the version segment, e.g. https://api.openai.com/v1/
	APIKey  string // empty: no Authorization header (local servers)
	Headers map[string]string
	Timeout time.Duration
	// Azure: BaseURL is the deployment's URL (…/openai/deployments/NAME/).
	Azure        bool
	AzureVersion string
	IncludeUsage bool // ask for a final usage chunk (stream_options.include_usage)
	HTTPClient   *http.Client
	Organization string
	Project      string
	// Responses sends requests to the Responses API (BaseURL + "responses") instead of chat completions.
	Responses bool
	// Path, when set, is the request's whole URL path on BaseURL's host (goose's base_path when it does
	// not end in the API's own path segment).
	Path string
	// NoStream makes non-streaming calls (a declarative provider with supports_streaming false).
	NoStream bool
	// Query parameters added to every request (goose keeps OPENAI_BASE_URL's query).
	Query url.Values
	// SessionHeader names the header that carries the run's session id ("": agent-session-id).
	SessionHeader string
	// OpenRouter sends a configured thinking effort as OpenRouter's reasoning object.
	OpenRouter bool
	// DropThinking leaves an assistant's reasoning out of the messages sent back (goose does for
	// api.openai.com and for a declarative provider with preserves_thinking false).
	DropThinking bool
}

// Provider talks to one chat-completions or Responses endpoint.
type Provider struct {
	name         string
	client       sdk.Client
	usage        bool
	responses    bool
	noStream     bool
	openRouter   bool
	dropThinking bool
}

// New builds a provider; the SDK's own retries are off (provider.WithRetry does that).
func New(cfg Config) *Provider {
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if cfg.Azure {
		// Azure OpenAI: the deployment's URL, an api-version query and an api-key header.
		opts = append(opts, option.WithBaseURL(cfg.BaseURL), option.WithQuery("api-version", cfg.AzureVersion))
		if cfg.APIKey != "" {
			opts = append(opts, option.WithHeader("api-key", cfg.APIKey))
		}
	} else {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL), option.WithAPIKey(cfg.APIKey))
	}
	if cfg.Organization != "" {
		opts = append(opts, option.WithOrganization(cfg.Organization))
	}
	if cfg.Project != "" {
		opts = append(opts, option.WithProject(cfg.Project))
	}
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	if cfg.Timeout > 0 {
		opts = append(opts, option.WithRequestTimeout(cfg.Timeout))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	for k, vs := range cfg.Query {
		for _, v := range vs {
			opts = append(opts, option.WithQueryAdd(k, v))
		}
	}
	opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		sessionctx.SetHeader(r, cfg.SessionHeader)
		return next(r)
	}))
	if cfg.Path != "" {
		path := "/" + strings.TrimLeft(cfg.Path, "/")
		opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			r.URL.Path, r.URL.RawPath = path, ""
			return next(r)
		}))
	}
	name := cfg.Name
	if name == "" {
		name = "openai"
	}
	return &Provider{name: name, client: sdk.NewClient(opts...), usage: cfg.IncludeUsage, responses: cfg.Responses, noStream: cfg.NoStream, openRouter: cfg.OpenRouter,
		dropThinking: cfg.DropThinking}
}

// Name is the provider's name.
func (p *Provider) Name() string { return p.name }

// Stream sends the conversation and streams the reply.
func (p *Provider) Stream(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	switch {
	case p.noStream:
		return p.complete(ctx, req, onDelta)
	case p.responses:
		return p.streamResponses(ctx, req, onDelta)
	}
	params, err := p.params(req)
	if err != nil {
		return provider.Response{}, err
	}
	stream := p.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()

	var text, thinking, inline strings.Builder
	var calls provider.ToolCallAssembler
	var usage provider.Usage
	var filter thinkFilter
	structured := false // the server sent reasoning of its own: inline <think> blocks are dropped
	// filtered takes what the think filter let through: text for the reply, reasoning kept aside
	filtered := func(c, th string) {
		if c != "" {
			text.WriteString(c)
			onDelta(provider.Delta{Text: c})
		}
		if !structured {
			inline.WriteString(th)
		}
	}
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Usage.TotalTokens > 0 || chunk.Usage.PromptTokens > 0 {
			usage = chatUsage(chunk.Usage)
		}
		for _, choice := range chunk.Choices {
			if choice.Index != 0 {
				continue
			}
			if rc := reasoningText(choice.Delta.JSON.ExtraFields); rc != "" {
				structured = true
				inline.Reset()
				thinking.WriteString(rc)
				onDelta(provider.Delta{Thinking: rc})
			}
			if c := choice.Delta.Content; c != "" {
				filtered(filter.push(c))
			}
			for _, tc := range choice.Delta.ToolCalls {
				onDelta(calls.Add(tc.Index, tc.ID, tc.Function.Name, tc.Function.Arguments))
			}
		}
	}
	if err := stream.Err(); err != nil {
		return provider.Response{}, p.classify(ctx, err)
	}
	filtered(filter.finish())
	if !structured && inline.Len() > 0 {
		thinking.WriteString(inline.String())
		onDelta(provider.Delta{Thinking: inline.String()})
	}
	msg := provider.Message{Role: provider.Assistant, Text: text.String(), Thinking: thinking.String(), ToolCalls: calls.Calls()}
	return provider.Response{Message: msg, Usage: usage}, nil
}

func (p *Provider) classify(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		msg := apiErr.Message
		if apiErr.Code != "" {
			msg = apiErr.Code + ": " + msg
		}
		if msg == "" {
			msg = apiErr.RawJSON()
		}
		return provider.Classify(p.name, apiErr.StatusCode, apiErr.Response, msg)
	}
	return &provider.Error{Provider: p.name, Kind: provider.ErrOther, Message: err.Error()}
}

// params converts the request to the SDK's parameters.
func (p *Provider) params(req provider.Request) (sdk.ChatCompletionNewParams, error) {
	// a reasoning model (goose's Responses-model names) gets goose's treatment on this API too: its name's
	// effort suffix stripped, the system prompt as a developer message, a reasoning_effort, no temperature
	// and max_completion_tokens
	model, suffix := SplitEffort(req.Model)
	reasoning := IsResponsesModel(model)
	params := sdk.ChatCompletionNewParams{Model: shared.ChatModel(model)}
	if req.System != "" {
		if reasoning {
			params.Messages = append(params.Messages, sdk.DeveloperMessage(req.System))
		} else {
			params.Messages = append(params.Messages, sdk.SystemMessage(req.System))
		}
	}
	if effort := chatEffort(model, suffix, req.ThinkingEffort); effort != "" {
		if p.openRouter && req.ThinkingEffort != "" { // goose's apply_reasoning_config
			params.SetExtraFields(map[string]any{"reasoning": map[string]any{"effort": effort}})
		} else {
			params.ReasoningEffort = shared.ReasoningEffort(effort)
		}
	}
	// goose's format_messages: an assistant message with nothing but reasoning is not sent; its reasoning
	// goes with the next assistant message unless another role's message comes first
	var pending string
	for _, m := range req.Messages {
		if m.Role != provider.Assistant {
			pending = ""
			params.Messages = append(params.Messages, convertMessage(m, "")...)
			continue
		}
		sentBack := ""
		if !p.dropThinking {
			sentBack = mergeReasoning(pending, m.Thinking)
		}
		if m.Text == "" && len(m.ToolCalls) == 0 {
			pending = sentBack
			continue
		}
		pending = ""
		params.Messages = append(params.Messages, convertMessage(m, sentBack)...)
	}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return params, err
		}
		params.Tools = append(params.Tools, sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: sdk.String(t.Description), Parameters: shared.FunctionParameters(schema),
		}))
	}
	if req.Temperature != nil && !reasoning {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if reasoning {
			params.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	if p.usage {
		params.StreamOptions.IncludeUsage = sdk.Bool(true)
	}
	return params, nil
}

// ToolErrorPrefix is how goose tells the model a tool failed (chat completions has no error flag).
const ToolErrorPrefix = "The tool call returned the following error:\n"

// convertMessage is m in chat completions' form; reasoning, when not empty, goes with an assistant message
// as reasoning_content (never empty: Kimi refuses an empty one).
func convertMessage(m provider.Message, reasoning string) []sdk.ChatCompletionMessageParamUnion {
	var out []sdk.ChatCompletionMessageParamUnion
	if m.Role == provider.Assistant {
		a := sdk.ChatCompletionAssistantMessageParam{}
		if reasoning != "" {
			a.SetExtraFields(map[string]any{"reasoning_content": reasoning})
		}
		if m.Text != "" {
			a.Content.OfString = sdk.String(m.Text)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(c.Arguments)},
				},
			})
		}
		return append(out, sdk.ChatCompletionMessageParamUnion{OfAssistant: &a})
	}
	for _, r := range m.ToolResults {
		text := r.Text
		if r.IsError {
			text = ToolErrorPrefix + text
		}
		out = append(out, sdk.ToolMessage(text, r.CallID))
	}
	if m.Text != "" {
		out = append(out, sdk.UserMessage(m.Text))
	}
	return out
}

// chatUsage is a chat completion's usage as goose reads it: prompt_tokens (cached ones included), the
// cached part from prompt_tokens_details, and cache writes where a compatible server reports them as
// cache_creation_input_tokens.
func chatUsage(u sdk.CompletionUsage) provider.Usage {
	out := provider.Usage{InputTokens: int(u.PromptTokens), OutputTokens: int(u.CompletionTokens), CacheReadTokens: int(u.PromptTokensDetails.CachedTokens)}
	if f, ok := u.JSON.ExtraFields["cache_creation_input_tokens"]; ok {
		out.CacheWriteTokens, _ = strconv.Atoi(f.Raw())
	}
	return out
}
