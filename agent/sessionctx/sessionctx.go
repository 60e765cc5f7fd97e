// Package sessionctx carries the session a request belongs to, and the tool call it serves, in a context:
// goose names the session to every provider (an HTTP header) and to extensions (MCP _meta).
package sessionctx

import (
	"context"
	"net/http"
)

// Names goose uses on the wire (goose's session_context.rs).
const (
	// Header is the provider request header holding the session id; a declarative provider's
	// session_id_header_override renames it.
	Header = "agent-session-id"
	// MetaSession, MetaWorkingDir and MetaToolCall are the MCP _meta keys goose sets on extension requests.
	MetaSession    = "agent-session-id"
	MetaWorkingDir = "agent-working-dir"
	MetaToolCall   = "agent-tool-call-request-id"
)

type sessionKey struct{}
type toolCallKey struct{}

// WithSession tags ctx with a session id ("" leaves ctx untagged).
func WithSession(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, sessionKey{}, id)
}

// Session is ctx's session id, "" when it has none.
func Session(ctx context.Context) string {
	id, _ := ctx.Value(sessionKey{}).(string)
	return id
}

// WithToolCall tags ctx with the id of the model's tool call being served.
func WithToolCall(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, toolCallKey{}, id)
}

// ToolCall is the id of the tool call ctx serves, "" outside one.
func ToolCall(ctx context.Context) string {
	id, _ := ctx.Value(toolCallKey{}).(string)
	return id
}

// SetHeader puts the session of r's context in header name (Header when name is ""), replacing any value
// the provider's static headers gave it; without a session the header is removed, as goose does.
func SetHeader(r *http.Request, name string) {
	if name == "" {
		name = Header
	}
	r.Header.Del(name)
	if id := Session(r.Context()); id != "" {
		r.Header.Set(name, id)
	}
}
