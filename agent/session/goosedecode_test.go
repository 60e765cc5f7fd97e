// A strict decoder of goose's stored rows, from the facts sheet's rules (MessageContent, tool call and
// result forms, MCP content, MessageMetadata): what goose needs to load a session.
package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

type object = map[string]json.RawMessage

func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF { // serde_json refuses trailing characters
		return fmt.Errorf("trailing characters after the JSON value")
	}
	return nil
}

func asObject(raw json.RawMessage) (object, error) {
	var o object
	if len(raw) == 0 || string(raw) == "null" || decodeStrict(raw, &o) != nil || o == nil {
		return nil, fmt.Errorf("not an object: %s", raw)
	}
	return o, nil
}

func present(o object, key string) bool { v, ok := o[key]; return ok && string(v) != "null" }

func reqString(o object, key string) error {
	var s string
	if !present(o, key) || json.Unmarshal(o[key], &s) != nil {
		return fmt.Errorf("%q must be a string", key)
	}
	return nil
}

func optString(o object, key string) error {
	if present(o, key) {
		return reqString(o, key)
	}
	return nil
}

func reqBool(o object, key string) error {
	var b bool
	if !present(o, key) || json.Unmarshal(o[key], &b) != nil {
		return fmt.Errorf("%q must be a boolean", key)
	}
	return nil
}

func optObject(o object, key string) error {
	if present(o, key) {
		if _, err := asObject(o[key]); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
	}
	return nil
}

func all(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// strictContent decodes content_json as goose's Vec<MessageContent>.
func strictContent(raw []byte) error {
	var items []json.RawMessage
	if err := decodeStrict(raw, &items); err != nil || items == nil {
		return fmt.Errorf("not a JSON array")
	}
	for _, it := range items {
		o, err := asObject(it)
		if err != nil {
			return err
		}
		var typ string
		if json.Unmarshal(o["type"], &typ) != nil {
			return fmt.Errorf("item without a type: %s", it)
		}
		if err := strictItem(typ, o); err != nil {
			return fmt.Errorf("%s item: %w", typ, err)
		}
	}
	return nil
}

func strictItem(typ string, o object) error {
	switch typ {
	case "text":
		return all(reqString(o, "text"), strictAnnotations(o), optObject(o, "_meta"))
	case "image":
		return all(reqString(o, "data"), reqString(o, "mimeType"), strictAnnotations(o), optObject(o, "_meta"))
	case "toolRequest", "frontendToolRequest":
		return all(reqString(o, "id"), strictToolCall(o["toolCall"]), optObject(o, "metadata"))
	case "toolResponse":
		return all(reqString(o, "id"), strictToolResult(o["toolResult"]), optObject(o, "metadata"))
	case "toolConfirmationRequest":
		if _, err := asObject(o["arguments"]); err != nil {
			return fmt.Errorf("arguments: %w", err)
		}
		return all(reqString(o, "id"), reqString(o, "toolName"), optString(o, "prompt"))
	case "thinking":
		return all(reqString(o, "thinking"), reqString(o, "signature"))
	case "redactedThinking":
		return reqString(o, "data")
	case "systemNotification":
		var nt string
		_ = json.Unmarshal(o["notificationType"], &nt)
		if nt != "thinkingMessage" && nt != "inlineMessage" && nt != "creditsExhausted" {
			return fmt.Errorf("notificationType %q", nt)
		}
		return reqString(o, "msg")
	case "actionRequired":
		d, err := asObject(o["data"])
		if err != nil {
			return err
		}
		var at string
		_ = json.Unmarshal(d["actionType"], &at)
		switch at {
		case "toolConfirmation":
			_, err := asObject(d["arguments"])
			return all(err, reqString(d, "id"), reqString(d, "toolName"), optString(d, "prompt"))
		case "elicitation":
			if !present(d, "requested_schema") {
				return fmt.Errorf("requested_schema missing")
			}
			return all(reqString(d, "id"), reqString(d, "message"))
		case "elicitationResponse":
			if !present(d, "user_data") {
				return fmt.Errorf("user_data missing")
			}
			return reqString(d, "id")
		}
		return fmt.Errorf("actionType %q", at)
	}
	return fmt.Errorf("unknown type")
}

func strictAnnotations(o object) error {
	if !present(o, "annotations") {
		return nil
	}
	a, err := asObject(o["annotations"])
	if err != nil {
		return err
	}
	if present(a, "audience") {
		var aud []string
		if json.Unmarshal(a["audience"], &aud) != nil {
			return fmt.Errorf("audience")
		}
		for _, who := range aud {
			if who != "user" && who != "assistant" {
				return fmt.Errorf("audience %q", who)
			}
		}
	}
	return nil
}

func strictToolCall(raw json.RawMessage) error {
	o, err := asObject(raw)
	if err != nil {
		return fmt.Errorf("toolCall: %w", err)
	}
	var status string
	_ = json.Unmarshal(o["status"], &status)
	switch status {
	case "success":
		v, err := asObject(o["value"])
		if err != nil {
			return fmt.Errorf("toolCall.value: %w", err)
		}
		return reqString(v, "name")
	case "error":
		return reqString(o, "error")
	}
	return fmt.Errorf("toolCall status %q", status)
}

func strictToolResult(raw json.RawMessage) error {
	o, err := asObject(raw)
	if err != nil {
		return fmt.Errorf("toolResult: %w", err)
	}
	var status string
	_ = json.Unmarshal(o["status"], &status)
	switch status {
	case "error":
		return reqString(o, "error")
	case "success":
	default:
		return fmt.Errorf("toolResult status %q", status)
	}
	var arr []json.RawMessage
	if decodeStrict(o["value"], &arr) == nil && arr != nil {
		return strictMCPContent(arr)
	}
	v, err := asObject(o["value"])
	if err != nil {
		return fmt.Errorf("toolResult.value: %w", err)
	}
	if !present(v, "content") && !present(v, "structuredContent") && !present(v, "isError") && !present(v, "_meta") {
		return fmt.Errorf("toolResult.value is empty")
	}
	if present(v, "isError") {
		if err := reqBool(v, "isError"); err != nil {
			return err
		}
	}
	if present(v, "content") {
		if decodeStrict(v["content"], &arr) != nil {
			return fmt.Errorf("content is not an array")
		}
		return strictMCPContent(arr)
	}
	return nil
}

func strictMCPContent(items []json.RawMessage) error {
	for _, it := range items {
		o, err := asObject(it)
		if err != nil {
			return err
		}
		var typ string
		_ = json.Unmarshal(o["type"], &typ)
		switch typ {
		case "text":
			err = reqString(o, "text")
		case "image", "audio":
			err = all(reqString(o, "data"), reqString(o, "mimeType"))
		case "resource":
			var r object
			if r, err = asObject(o["resource"]); err == nil {
				err = reqString(r, "uri")
				if err == nil && reqString(r, "text") != nil && reqString(r, "blob") != nil {
					err = fmt.Errorf("resource without text or blob")
				}
			}
		case "resource_link":
			err = all(reqString(o, "uri"), reqString(o, "name"))
		default:
			err = fmt.Errorf("unknown content type %q", typ)
		}
		if err == nil {
			err = strictAnnotations(o)
		}
		if err != nil {
			return fmt.Errorf("tool result content %s: %w", it, err)
		}
	}
	return nil
}

// strictMetadata decodes metadata_json as goose's MessageMetadata (update_message_metadata's reading).
func strictMetadata(raw []byte) error {
	o, err := asObject(raw)
	if err != nil {
		return err
	}
	if err := all(reqBool(o, "userVisible"), reqBool(o, "agentVisible")); err != nil {
		return err
	}
	if present(o, "inference") {
		inf, err := asObject(o["inference"])
		if err != nil {
			return err
		}
		return all(reqString(inf, "provider"), reqString(inf, "requestedModel"), optString(inf, "resolvedModel"))
	}
	return nil
}
