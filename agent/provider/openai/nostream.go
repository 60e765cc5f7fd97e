// Non-streaming calls, for a declarative provider whose supports_streaming is false (goose then sends
// stream:false and reads one JSON answer): the reply is reported as one delta per text and call.

package openai

import (
	"context"
	"fmt"

	sdk "github.com/openai/openai-go/v3"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// complete makes one non-streaming call on the provider's API.
func (p *Provider) complete(ctx context.Context, req provider.Request, onDelta func(provider.Delta)) (provider.Response, error) {
	var msg provider.Message
	var usage provider.Usage
	if p.responses {
		params, err := responsesParams(req)
		if err != nil {
			return provider.Response{}, err
		}
		resp, err := p.client.Responses.New(ctx, params)
		if err != nil {
			return provider.Response{}, p.classify(ctx, err)
		}
		msg = itemsMessage(resp.Output)
		usage = provider.Usage{InputTokens: int(resp.Usage.InputTokens), OutputTokens: int(resp.Usage.OutputTokens), CacheReadTokens: int(resp.Usage.InputTokensDetails.CachedTokens)}
	} else {
		params, err := p.params(req)
		if err != nil {
			return provider.Response{}, err
		}
		params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{}
		resp, err := p.client.Chat.Completions.New(ctx, params)
		if err != nil {
			return provider.Response{}, p.classify(ctx, err)
		}
		msg = provider.Message{Role: provider.Assistant}
		for _, choice := range resp.Choices {
			if choice.Index != 0 {
				continue
			}
			var inline string
			msg.Text, inline = splitThinkBlocks(choice.Message.Content)
			if msg.Thinking = reasoningText(choice.Message.JSON.ExtraFields); msg.Thinking == "" {
				msg.Thinking = inline
			}
			for i, tc := range choice.Message.ToolCalls {
				id := tc.ID
				if id == "" {
					id = fmt.Sprintf("call_%d", i)
				}
				msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall{ID: id, Name: tc.Function.Name, Arguments: callArguments(tc.Function.Arguments)})
			}
		}
		usage = chatUsage(resp.Usage)
	}
	if msg.Thinking != "" {
		onDelta(provider.Delta{Thinking: msg.Thinking})
	}
	if msg.Text != "" {
		onDelta(provider.Delta{Text: msg.Text})
	}
	for i, c := range msg.ToolCalls {
		onDelta(provider.Delta{ToolCallIndex: i, ToolCallID: c.ID, ToolName: c.Name, ArgumentsPart: string(c.Arguments)})
	}
	return provider.Response{Message: msg, Usage: usage}, nil
}
