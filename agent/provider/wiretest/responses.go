// The OpenAI Responses API's streamed events (as api.openai.com sends them: an `event:` line naming each
// `data:` payload, no [DONE]), for the models goose routes there; and the one-JSON answers of
// non-streaming calls (both APIs).

package wiretest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// OpenAIResponses starts a server speaking the Responses API at /v1/responses; its base URL for the
// SDK is URL+"/v1/".
func OpenAIResponses(script Script) *Server { return start("responses", script) }

// responsesStream streams reply as Responses events: a message item with its text deltas, then one
// function_call item per call with its arguments in pieces, then response.completed carrying every
// item; n (the request number) makes call ids unique.
func responsesStream(r *http.Request, n int, reply Reply, send func(string, string)) {
	seq := 0
	emit := func(typ string, fields map[string]any) {
		fields["type"] = typ
		fields["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(fields)
		send(typ, string(b))
	}
	respID := fmt.Sprintf("resp_%d", n)
	response := func(status string, output []any, usage any) map[string]any {
		return map[string]any{"id": respID, "object": "response", "created_at": 1, "status": status,
			"model": "scripted", "output": output, "usage": usage}
	}
	emit("response.created", map[string]any{"response": response("in_progress", []any{}, nil)})
	emit("response.in_progress", map[string]any{"response": response("in_progress", []any{}, nil)})
	if reply.Fail != "" {
		failed := response("failed", []any{}, nil)
		failed["error"] = map[string]any{"code": "server_error", "message": reply.Fail}
		emit("response.failed", map[string]any{"response": failed})
		return
	}
	var output []any
	index := 0
	if reply.Reasoning != "" { // a reasoning item whose summary parts are the reasoning's lines
		item := reasoningItem(n, reply.Reasoning)
		emit("response.output_item.added", map[string]any{"output_index": index, "item": item})
		emit("response.output_item.done", map[string]any{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	if reply.Text != "" {
		msgID := fmt.Sprintf("msg_%d", n)
		emit("response.output_item.added", map[string]any{"output_index": index, "item": map[string]any{
			"id": msgID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
		emit("response.content_part.added", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0,
			"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		for i, p := range pieces(reply.Text, 7) {
			emit("response.output_text.delta", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "delta": p, "logprobs": []any{}})
			if i == 0 && reply.Hang {
				hang(r)
				return
			}
		}
		part := map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}
		emit("response.output_text.done", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "text": reply.Text, "logprobs": []any{}})
		emit("response.content_part.done", map[string]any{"item_id": msgID, "output_index": index, "content_index": 0, "part": part})
		item := map[string]any{"id": msgID, "type": "message", "status": "completed", "role": "assistant", "content": []any{part}}
		emit("response.output_item.done", map[string]any{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	for i, c := range reply.Calls {
		itemID, callID := fmt.Sprintf("fc_%d_%d", n, i), fmt.Sprintf("call_%d_%d", n, i)
		emit("response.output_item.added", map[string]any{"output_index": index, "item": map[string]any{
			"id": itemID, "type": "function_call", "status": "in_progress", "call_id": callID, "name": c.Name, "arguments": ""}})
		for _, p := range pieces(c.Args, 9) {
			emit("response.function_call_arguments.delta", map[string]any{"item_id": itemID, "output_index": index, "delta": p})
		}
		emit("response.function_call_arguments.done", map[string]any{"item_id": itemID, "output_index": index, "arguments": c.Args})
		item := map[string]any{"id": itemID, "type": "function_call", "status": "completed", "call_id": callID, "name": c.Name, "arguments": c.Args}
		emit("response.output_item.done", map[string]any{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	in, out := reply.Usage[0], reply.Usage[1]
	if in == 0 {
		in, out = 10, 5
	}
	usage := map[string]any{"input_tokens": in, "output_tokens": out, "total_tokens": in + out,
		"input_tokens_details": map[string]any{"cached_tokens": reply.Cache[0]}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	emit("response.completed", map[string]any{"response": response("completed", output, usage)})
}

func reasoningItem(n int, reasoning string) map[string]any {
	var summary []any
	for _, line := range strings.Split(reasoning, "\n") {
		summary = append(summary, map[string]any{"type": "summary_text", "text": line})
	}
	return map[string]any{"id": fmt.Sprintf("rs_%d", n), "type": "reasoning", "summary": summary}
}

// responsesJSON is the one answer of a non-streaming Responses call (stream absent or false).
func responsesJSON(n int, reply Reply) string {
	var output []any
	if reply.Reasoning != "" {
		output = append(output, reasoningItem(n, reply.Reasoning))
	}
	if reply.Text != "" {
		output = append(output, map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": reply.Text, "annotations": []any{}}}})
	}
	for i, c := range reply.Calls {
		output = append(output, map[string]any{"id": fmt.Sprintf("fc_%d_%d", n, i), "type": "function_call", "status": "completed",
			"call_id": fmt.Sprintf("call_%d_%d", n, i), "name": c.Name, "arguments": c.Args})
	}
	in, out := reply.Usage[0], reply.Usage[1]
	if in == 0 {
		in, out = 10, 5
	}
	b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("resp_%d", n), "object": "response", "created_at": 1, "status": "completed",
		"model": "scripted", "output": output, "usage": map[string]any{"input_tokens": in, "output_tokens": out, "total_tokens": in + out,
			"input_tokens_details": map[string]any{"cached_tokens": reply.Cache[0]}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}})
	return string(b)
}

// chatJSON is the one answer of a non-streaming chat completions call.
func chatJSON(n int, reply Reply) string {
	msg := map[string]any{"role": "assistant", "content": reply.Text}
	if reply.Reasoning != "" {
		msg[reasoningField(reply)] = reply.Reasoning
	}
	var calls []any
	for i, c := range reply.Calls {
		calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}})
	}
	finish := "stop"
	if len(calls) > 0 {
		msg["tool_calls"], finish = calls, "tool_calls"
	}
	in, out := reply.Usage[0], reply.Usage[1]
	if in == 0 {
		in, out = 10, 5
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "scripted",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   chatUsage(in, out, reply.Cache)})
	return string(b)
}
