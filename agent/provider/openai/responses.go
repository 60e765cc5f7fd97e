// OpenAI's Responses API, for the models goose 1.38 routes there (routing.go): the request goose builds
// (create_responses_request) and its streamed events mapped to the provider's deltas and message.

package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// DefaultMaxOutputTokens is what goose sends as max_output_tokens when none is configured.
const DefaultMaxOutputTokens = 4096

// ResponsesToolErrorPrefix starts a failed tool's function_call_output, as goose words it.
const ResponsesToolErrorPrefix = "Error: "

var effortSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(.+)-(none|low|medium|high|xhigh)$`) })

// SplitEffort strips a reasoning-effort suffix off a reasoning model's name (goose's
// extract_reasoning_effort): gpt-5-mini-high → gpt-5-mini, high; other names are kept whole.
func SplitEffort(model string) (base, effort string) {
	if !IsResponsesModel(model) {
		return model, ""
	}
	if m := effortSuffix().FindStringSubmatch(model); m != nil {
		return m[1], strings.ToLower(m[2])
	}
	return model, ""
}

// effortFor is the reasoning effort goose sends model for a thinking effort (ParseThinkingEffort's form;
// openai_reasoning_effort_for_thinking): off is "none", otherwise the first level in the effort's order
// of preference that the model supports.
func effortFor(model, effort string) string {
	if effort == "off" {
		return "none"
	}
	lower := strings.ToLower(model)
	supported := []string{"low", "medium", "high"}
	switch {
	case strings.Contains(lower, "gpt-5") && (strings.Contains(lower, "-pro") || strings.Contains(lower, "/pro")):
		supported = []string{"high"}
	case strings.Contains(lower, "gpt-5") && (strings.Contains(lower, "gpt-5.4") || strings.Contains(lower, "gpt-5-4") ||
		strings.Contains(lower, "gpt-5.5") || strings.Contains(lower, "gpt-5-5")):
		supported = []string{"low", "medium", "high", "xhigh"}
	}
	preferred := map[string][]string{
		"low":    {"low", "medium", "high", "xhigh"},
		"medium": {"medium", "high", "low", "xhigh"},
		"high":   {"high", "medium", "xhigh", "low"},
		"max":    {"xhigh", "high", "medium", "low"},
	}[effort]
	for _, level := range preferred {
		if slices.Contains(supported, level) {
			return level
		}
	}
	return ""
}

// responsesEffort is goose's Responses reasoning effort: a reasoning model's name suffix wins, then the
// configured thinking effort; none for other models.
func responsesEffort(model, suffix, thinking string) string {
	if !IsResponsesModel(model) {
		return ""
	}
	if suffix != "" { // effortSuffix only takes words ParseThinkingEffort knows
		e, _ := provider.ParseThinkingEffort(suffix)
		return effortFor(model, e)
	}
	if thinking != "" {
		return effortFor(model, thinking)
	}
	return ""
}

// chatEffort is goose's chat-completions reasoning_effort: for a reasoning model the configured thinking
// effort wins, else the name's suffix as written; none for other models.
func chatEffort(model, suffix, thinking string) string {
	if !IsResponsesModel(model) {
		return ""
	}
	if thinking != "" {
		return effortFor(model, thinking)
	}
	return suffix
}

// responsesParams builds goose's Responses request: the system prompt as the first input message, text
// as input_text (user) / output_text (assistant), each tool call a function_call, each result a
// function_call_output; store false, no instructions, no previous_response_id.
func responsesParams(req provider.Request) (responses.ResponseNewParams, error) {
	model, suffix := SplitEffort(req.Model)
	reasoning := IsResponsesModel(model)
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = DefaultMaxOutputTokens
	}
	params := responses.ResponseNewParams{
		Model:           shared.ResponsesModel(model),
		Store:           sdk.Bool(false),
		MaxOutputTokens: sdk.Int(int64(maxTokens)),
	}
	var items responses.ResponseInputParam
	inputText := func(role responses.EasyInputMessageRole, text string) responses.ResponseInputItemUnionParam {
		return responses.ResponseInputItemUnionParam{OfMessage: &responses.EasyInputMessageParam{
			Role: role,
			Content: responses.EasyInputMessageContentUnionParam{OfInputItemContentList: responses.ResponseInputMessageContentListParam{
				responses.ResponseInputContentParamOfInputText(text),
			}},
		}}
	}
	if req.System != "" {
		items = append(items, inputText(responses.EasyInputMessageRoleSystem, req.System))
	}
	for _, m := range req.Messages {
		if m.Role == provider.Assistant {
			if m.Text != "" {
				// goose's assistant text is output_text, which the SDK's input message type does not model
				msg := param.Override[responses.EasyInputMessageParam](map[string]any{
					"role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": m.Text}},
				})
				items = append(items, responses.ResponseInputItemUnionParam{OfMessage: &msg})
			}
			for _, c := range m.ToolCalls {
				args := string(c.Arguments)
				if strings.TrimSpace(args) == "" {
					args = "{}"
				}
				items = append(items, responses.ResponseInputItemParamOfFunctionCall(args, c.ID, c.Name))
			}
			continue
		}
		for _, r := range m.ToolResults {
			text := r.Text
			if r.IsError {
				text = ResponsesToolErrorPrefix + text
			}
			items = append(items, responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
				CallID: sdk.String(r.CallID),
				Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: sdk.String(text)},
			}})
		}
		if m.Text != "" {
			items = append(items, inputText(responses.EasyInputMessageRoleUser, m.Text))
		}
	}
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: items}
	for _, t := range req.Tools {
		schema, err := toolSchema(t)
		if err != nil {
			return params, err
		}
		params.Tools = append(params.Tools, responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name: t.Name, Description: sdk.String(t.Description), Parameters: schema, Strict: sdk.Bool(false),
		}})
	}
	if effort := responsesEffort(model, suffix, req.ThinkingEffort); effort != "" {
		params.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffort(effort), Summary: shared.ReasoningSummaryAuto}
	}
	if !reasoning && req.Temperature != nil {
		params.Temperature = sdk.Float(*req.Temperature)
	}
	return params, nil
}

// toolSchema is a tool's input schema as the SDK's parameters map (an empty object schema when it has
// none). Only the top level is decoded: each member stays the tool's own JSON (json.RawMessage, which the
// SDK writes out as it is, compacted), so the first request neither decodes nor re-encodes every
// schema's nested maps by reflection (most of its ~1 ms of marshalling at start-up). Nested members keep
// the tool's order rather than a decoded map's sorted one.
func toolSchema(t provider.Tool) (map[string]any, error) {
	var top map[string]json.RawMessage
	if len(t.InputSchema) > 0 {
		if err := json.Unmarshal(t.InputSchema, &top); err != nil {
			return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
		}
	}
	if top == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	schema := make(map[string]any, len(top))
	for k, v := range top {
		schema[k] = v
	}
	return schema, nil
}

// streamResponses streams one Responses call: text deltas as they come, function calls as their
// arguments arrive; the completed response's items are the final word (as goose's
// responses_api_to_streaming_message).
func (p *Provider) streamResponses(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	params, err := responsesParams(req)
	if err != nil {
		return provider.Response{}, err
	}
	stream := p.client.Responses.NewStreaming(ctx, params)
	defer stream.Close()

	var text strings.Builder
	var calls provider.ToolCallAssembler
	var usage provider.Usage
	var done []responses.ResponseOutputItemUnion
events:
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "response.output_text.delta":
			if ev.Delta != "" {
				text.WriteString(ev.Delta)
				onDelta(provider.Delta{Text: ev.Delta})
			}
		case "response.output_item.added":
			if ev.Item.Type == "function_call" {
				onDelta(calls.Add(ev.OutputIndex, callID(ev.Item), ev.Item.Name, ""))
			}
		case "response.function_call_arguments.delta":
			if calls.Has(ev.OutputIndex) {
				onDelta(calls.Add(ev.OutputIndex, "", "", ev.Delta))
			}
		case "response.output_item.done":
			done = append(done, ev.Item)
		case "response.completed":
			u := ev.Response.Usage
			usage = provider.Usage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens), CacheReadTokens: int(u.InputTokensDetails.CachedTokens)}
			if len(ev.Response.Output) > 0 {
				done = ev.Response.Output
			}
			break events
		case "response.failed":
			return provider.Response{}, p.streamFailure("Responses API failed: " + failureMessage(ev.Response.Error.Message, string(ev.Response.Error.Code)))
		case "error":
			return provider.Response{}, p.streamFailure("Responses API error: " + failureMessage(ev.Message, ev.Code))
		}
	}
	if err := stream.Err(); err != nil {
		return provider.Response{}, p.classify(ctx, err)
	}
	msg := itemsMessage(done)
	if len(done) == 0 {
		msg.ToolCalls = calls.Calls()
	}
	if msg.Thinking != "" {
		onDelta(provider.Delta{Thinking: msg.Thinking})
	}
	if text.Len() > 0 { // message text in items counts only when no delta came
		msg.Text = text.String()
	} else if msg.Text != "" {
		onDelta(provider.Delta{Text: msg.Text})
	}
	return provider.Response{Message: msg, Usage: usage}, nil
}

// itemsMessage maps a response's output items to a message: function calls (id = call_id, else the
// item's id; arguments {} when not JSON), the text and refusals of message items, and the summaries of
// reasoning items (each item's joined by newlines) as the message's reasoning.
func itemsMessage(items []responses.ResponseOutputItemUnion) provider.Message {
	msg := provider.Message{Role: provider.Assistant}
	var text, thinking strings.Builder
	for _, item := range items {
		switch item.Type {
		case "function_call":
			msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall{ID: callID(item), Name: item.Name, Arguments: callArguments(item.AsFunctionCall().Arguments)})
		case "message":
			for _, c := range item.Content {
				switch c.Type {
				case "output_text":
					text.WriteString(c.Text)
				case "refusal":
					text.WriteString(c.Refusal)
				}
			}
		case "reasoning":
			var parts []string
			for _, sum := range item.Summary {
				parts = append(parts, sum.Text)
			}
			thinking.WriteString(strings.Join(parts, "\n"))
		}
	}
	msg.Text, msg.Thinking = text.String(), thinking.String()
	return msg
}

// callID is goose's tool request id: the call_id, else the item's id.
func callID(item responses.ResponseOutputItemUnion) string {
	if item.CallID != "" {
		return item.CallID
	}
	return item.ID
}

// callArguments keeps a call's arguments when they are a JSON value, else {} (as goose parses them).
func callArguments(args string) json.RawMessage {
	args = strings.TrimSpace(args)
	if args == "" || !json.Valid([]byte(args)) {
		return json.RawMessage("{}")
	}
	return json.RawMessage(args)
}

func failureMessage(message, code string) string {
	if code != "" && message != "" {
		return code + ": " + message
	}
	if message != "" {
		return message
	}
	if code != "" {
		return code
	}
	return "no details"
}

// streamFailure classifies an error the stream reported after a 200 answer (context length by its words).
func (p *Provider) streamFailure(message string) error {
	return provider.Classify(p.name, 0, nil, message)
}
