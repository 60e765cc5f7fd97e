// goose's stored message JSON (content_json, metadata_json) to and from goose-ls's provider.Message.

package session

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// contentItem is one element of goose's content array (MessageContent, tagged by "type").
type contentItem struct {
	Type     string           `json:"type"`
	Text     *string          `json:"text,omitempty"`
	ID       string           `json:"id,omitempty"`
	ToolCall *toolCallResult  `json:"toolCall,omitempty"`
	Result   *toolResultValue `json:"toolResult,omitempty"`
	// read only: annotations of a text item, the mime type of an image, a thinking item's text
	Annotations *annotations `json:"annotations,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	Thinking    *string      `json:"thinking,omitempty"`
}

type annotations struct {
	Audience []string `json:"audience,omitempty"`
}

// forAssistant reports whether content with these annotations is shown to the model (goose's
// agent_visible_content: no audience, or one that names the assistant).
func (a *annotations) forAssistant() bool {
	if a == nil || a.Audience == nil {
		return true
	}
	for _, who := range a.Audience {
		if who == "assistant" {
			return true
		}
	}
	return false
}

// toolCallResult is goose's Result<CallToolRequestParams>: {"status":"success","value":{name,arguments}}
// or {"status":"error","error":"…"}.
type toolCallResult struct {
	Status string `json:"status"`
	Value  *struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
	} `json:"value,omitempty"`
	Error string `json:"error,omitempty"`
}

// toolResultValue is goose's Result<CallToolResult>.
type toolResultValue struct {
	Status string          `json:"status"`
	Value  json.RawMessage `json:"value,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// callToolResult is MCP's CallToolResult as goose writes it.
type callToolResult struct {
	Content           []mcpContent    `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError"`
}

// mcpContent is one MCP content item (snake_case "type").
type mcpContent struct {
	Type        string       `json:"type"`
	Text        string       `json:"text,omitempty"`
	MimeType    string       `json:"mimeType,omitempty"`
	URI         string       `json:"uri,omitempty"`
	Annotations *annotations `json:"annotations,omitempty"`
	Resource    *struct {
		URI      string  `json:"uri"`
		Text     *string `json:"text,omitempty"`
		MimeType string  `json:"mimeType,omitempty"`
	} `json:"resource,omitempty"`
}

// metadata is goose's MessageMetadata.
type metadata struct {
	UserVisible  bool       `json:"userVisible"`
	AgentVisible bool       `json:"agentVisible"`
	Inference    *inference `json:"inference,omitempty"`
}

type inference struct {
	Provider       string `json:"provider"`
	RequestedModel string `json:"requestedModel"`
}

// Stored content items, fields in goose's order ("type" first, as serde writes a tagged enum).
type (
	textItem struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	// thinkingItem is an assistant's reasoning; an OpenAI-compatible server's has no signature ("").
	thinkingItem struct {
		Type      string `json:"type"`
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
	}
	toolRequestItem struct {
		Type     string `json:"type"`
		ID       string `json:"id"`
		ToolCall any    `json:"toolCall"`
	}
	toolCallSuccess struct {
		Status string `json:"status"`
		Value  struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"value"`
	}
	statusError struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}
	toolResponseItem struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		ToolResult struct {
			Status string `json:"status"`
			Value  struct {
				Content []textItem `json:"content"`
				IsError bool       `json:"isError"`
			} `json:"value"`
		} `json:"toolResult"`
	}
)

// encodeContent is m's content array as goose stores it: thinking, text, then tool requests (assistant);
// tool responses, then text (user). Strings pass through redact first.
func encodeContent(m provider.Message, redact func(string) string) (string, error) {
	items := []any{}
	text := func() {
		if m.Text != "" {
			items = append(items, textItem{Type: "text", Text: redact(m.Text)})
		}
	}
	if m.Role == provider.Assistant {
		if m.Thinking != "" {
			items = append(items, thinkingItem{Type: "thinking", Thinking: redact(m.Thinking)})
		}
		text()
	}
	for _, c := range m.ToolCalls {
		args, err := redactArguments(c.Arguments, redact)
		if err != nil {
			// not JSON (a model's broken arguments): kept as goose keeps a call it could not parse
			items = append(items, toolRequestItem{Type: "toolRequest", ID: c.ID, ToolCall: statusError{Status: "error",
				Error: fmt.Sprintf("-32602: Could not interpret tool use parameters for id %s: %s", c.ID, redact(string(c.Arguments)))}})
			continue
		}
		call := toolCallSuccess{Status: "success"}
		call.Value.Name, call.Value.Arguments = c.Name, args
		items = append(items, toolRequestItem{Type: "toolRequest", ID: c.ID, ToolCall: call})
	}
	for _, r := range m.ToolResults {
		item := toolResponseItem{Type: "toolResponse", ID: r.CallID}
		item.ToolResult.Status = "success"
		item.ToolResult.Value.Content = []textItem{{Type: "text", Text: redact(r.Text)}}
		item.ToolResult.Value.IsError = r.IsError
		items = append(items, item)
	}
	if m.Role != provider.Assistant {
		text()
	}
	b, err := marshalCompact(items)
	return string(b), err
}

// redactArguments is a tool call's arguments as stored: compact JSON in the model's key order ({} when
// empty; a non-object value wrapped as {"value": …}, as goose does), re-encoded with every string
// redacted when it holds a secret.
func redactArguments(raw json.RawMessage, redact func(string) string) (json.RawMessage, error) {
	v, err := redactJSON(raw, func(s string) string { return s })
	if err != nil {
		return nil, err
	}
	plain, _ := marshalCompact(v)
	redactedValue, _ := redactJSON(raw, redact)
	redacted, _ := marshalCompact(redactedValue)
	if !bytes.Equal(plain, redacted) {
		return redacted, nil
	}
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return plain, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// redactJSON decodes raw (an object, or {} when empty), redacts every string in it and encodes it again.
// A non-object value is wrapped as {"value": …}, as goose does.
func redactJSON(raw json.RawMessage, redact func(string) string) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the arguments")
	}
	v = redactValue(v, redact)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{"value": v}
	}
	return v, nil
}

func redactValue(v any, redact func(string) string) any {
	switch t := v.(type) {
	case string:
		return redact(t)
	case []any:
		for i := range t {
			t[i] = redactValue(t[i], redact)
		}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[redact(k)] = redactValue(e, redact)
		}
		return out
	}
	return v
}

// marshalCompact is json.Marshal without HTML escaping (goose's serde_json writes <, >, & as they are).
func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// encodeMetadata is goose's metadata_json for a message goose-ls stores: visible to both; assistant
// messages name the provider and model that wrote them when known.
func encodeMetadata(role provider.Role, providerName, model string) string {
	md := metadata{UserVisible: true, AgentVisible: true}
	if role == provider.Assistant && providerName != "" && model != "" {
		md.Inference = &inference{Provider: providerName, RequestedModel: model}
	}
	b, _ := marshalCompact(md)
	return string(b)
}

// decodeRow turns one stored row into a provider.Message; ok is false for a row the model never sees
// (a role other than user/assistant, agentVisible false, or nothing goose-ls can send). A content_json
// that is not an array of content items is an error, as it is for goose.
//
// What is kept: text (unless its audience excludes the assistant), tool requests (success form) and
// tool responses (text of the items meant for the assistant; images, audio and binary resources become
// a bracketed note), thinking (the message's reasoning). Dropped: redactedThinking (signed for one
// vendor's API), confirmation and elicitation requests, system notifications, tool requests goose stored
// as errors, and unknown item types (a newer goose).
func decodeRow(role, contentJSON string, metadataJSON sql.NullString) (provider.Message, bool, error) {
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(contentJSON), &items); err != nil {
		return provider.Message{}, false, fmt.Errorf("content_json is not a JSON array: %w", err)
	}
	if role != "user" && role != "assistant" {
		return provider.Message{}, false, nil
	}
	if metadataJSON.Valid {
		var md struct {
			AgentVisible *bool `json:"agentVisible"`
		}
		if json.Unmarshal([]byte(metadataJSON.String), &md) == nil && md.AgentVisible != nil && !*md.AgentVisible {
			return provider.Message{}, false, nil
		}
	}
	m := provider.Message{Role: provider.Role(role)}
	var texts []string
	for _, raw := range items {
		var it contentItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return m, false, fmt.Errorf("content item %s: %w", raw, err)
		}
		switch it.Type {
		case "text":
			if it.Text == nil {
				return m, false, fmt.Errorf("text item without text")
			}
			if it.Annotations.forAssistant() && *it.Text != "" {
				texts = append(texts, *it.Text)
			}
		case "image":
			texts = append(texts, fmt.Sprintf("[image (%s) omitted: goose-ls does not send images]", it.MimeType))
		case "thinking":
			if it.Thinking != nil && role == "assistant" {
				m.Thinking += *it.Thinking
			}
		case "toolRequest", "frontendToolRequest":
			if it.ToolCall == nil {
				return m, false, fmt.Errorf("%s %q without toolCall", it.Type, it.ID)
			}
			if it.ToolCall.Status != "success" || it.ToolCall.Value == nil {
				continue // a call goose could not parse: no tool ran
			}
			args := it.ToolCall.Value.Arguments
			if len(args) == 0 || string(args) == "null" {
				args = json.RawMessage(`{}`)
			}
			m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: it.ID, Name: it.ToolCall.Value.Name, Arguments: args})
		case "toolResponse":
			if it.Result == nil {
				return m, false, fmt.Errorf("toolResponse %q without toolResult", it.ID)
			}
			m.ToolResults = append(m.ToolResults, decodeToolResult(it.ID, it.Result))
		}
	}
	m.Text = strings.Join(texts, "\n")
	if m.Text == "" && m.Thinking == "" && len(m.ToolCalls) == 0 && len(m.ToolResults) == 0 {
		return m, false, nil
	}
	return m, true, nil
}

// decodeToolResult flattens a tool result to the text goose-ls sends back to the model.
func decodeToolResult(id string, r *toolResultValue) provider.ToolResult {
	out := provider.ToolResult{CallID: id}
	if r.Status != "success" {
		out.Text, out.IsError = r.Error, true
		return out
	}
	var v callToolResult
	if bytes.HasPrefix(bytes.TrimSpace(r.Value), []byte("[")) { // the older form: a bare content array
		_ = json.Unmarshal(r.Value, &v.Content)
	} else {
		_ = json.Unmarshal(r.Value, &v)
	}
	out.IsError = v.IsError
	var parts []string
	for _, c := range v.Content {
		if !c.Annotations.forAssistant() {
			continue
		}
		switch c.Type {
		case "text":
			parts = append(parts, c.Text)
		case "resource":
			if c.Resource != nil && c.Resource.Text != nil {
				parts = append(parts, *c.Resource.Text)
			} else if c.Resource != nil {
				parts = append(parts, fmt.Sprintf("[binary resource %s omitted]", c.Resource.URI))
			}
		case "resource_link":
			parts = append(parts, "[resource "+c.URI+"]")
		default: // image, audio
			parts = append(parts, fmt.Sprintf("[%s (%s) omitted: goose-ls does not send %ss]", c.Type, c.MimeType, c.Type))
		}
	}
	if len(parts) == 0 && len(v.StructuredContent) > 0 {
		parts = append(parts, string(v.StructuredContent))
	}
	out.Text = strings.Join(parts, "\n")
	return out
}

// pairToolCalls keeps a history a provider accepts: every tool call answered by a result in the next
// message and every result answering a call of the message before (goose's conversation fix-up drops
// the orphans the same way); messages left empty are dropped and consecutive user messages merged.
func pairToolCalls(msgs []provider.Message) []provider.Message {
	answered := map[string]bool{}
	for i, m := range msgs {
		if m.Role != provider.Assistant || i+1 >= len(msgs) {
			continue
		}
		for _, r := range msgs[i+1].ToolResults {
			answered[r.CallID] = true
		}
	}
	called := map[string]bool{}
	var out []provider.Message
	for _, m := range msgs {
		var calls []provider.ToolCall
		for _, c := range m.ToolCalls {
			if answered[c.ID] {
				calls = append(calls, c)
			}
		}
		var results []provider.ToolResult
		for _, r := range m.ToolResults {
			if called[r.CallID] {
				results = append(results, r)
			}
		}
		called = map[string]bool{}
		for _, c := range calls {
			called[c.ID] = true
		}
		m.ToolCalls, m.ToolResults = calls, results
		if m.Text == "" && len(calls) == 0 && len(results) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == provider.User && m.Role == provider.User && len(m.ToolResults) == 0 {
			prev := &out[n-1]
			prev.Text = strings.TrimPrefix(prev.Text+"\n\n"+m.Text, "\n\n")
			continue
		}
		out = append(out, m)
	}
	return out
}
