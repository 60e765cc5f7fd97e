// Package wiretest runs local HTTP servers that speak the vendors' wire formats (OpenAI chat
// completions SSE, OpenAI Responses SSE, Anthropic messages SSE), scripted turn by turn, for tests and
// benchmarks.
package wiretest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Call is a tool call the scripted model makes.
type Call struct {
	Name string
	Args string // JSON
}

// Reply is one scripted answer: a streamed message (Text, Calls), or an HTTP error (Status != 0).
type Reply struct {
	Text   string
	Calls  []Call
	Status int
	Header map[string]string
	Body   string // error body (vendor JSON); default built from Status
	// Hang keeps the stream open after the first text chunk until the client goes away.
	Hang  bool
	Usage [2]int // input, output tokens
	// Cache are the input tokens read from and written to the vendor's prompt cache (parts of Usage[0]),
	// reported in each vendor's way.
	Cache [2]int
	// Fail (Responses API only) ends the stream with a response.failed event whose error has this
	// message (code "server_error").
	Fail string
	// Reasoning is streamed before the text: on chat completions in ReasoningField ("":
	// reasoning_content, DeepSeek's; vLLM's is "reasoning"), on the Responses API as a reasoning item
	// with one summary part per line.
	Reasoning      string
	ReasoningField string
}

// Script answers the n-th request (0-based) given its decoded JSON body.
type Script func(n int, body map[string]any) Reply

// Replies is a Script that answers in order and repeats the last reply.
func Replies(rs ...Reply) Script {
	return func(n int, _ map[string]any) Reply {
		if n >= len(rs) {
			return rs[len(rs)-1]
		}
		return rs[n]
	}
}

// Server is a scripted vendor endpoint.
type Server struct {
	*httptest.Server
	script Script
	vendor string
	mu     sync.Mutex
	bodies []map[string]any
	heads  []http.Header
	paths  []string
	conns  []string // the client addresses of the connections accepted, in order
	from   []string // the client address of each request
}

// OpenAI starts a server speaking chat completions at /v1/chat/completions; its base URL for the SDK is
// URL+"/v1/".
func OpenAI(script Script) *Server { return start("openai", script) }

// Anthropic starts a server speaking the messages API at /v1/messages; its base URL is URL.
func Anthropic(script Script) *Server { return start("anthropic", script) }

func start(vendor string, script Script) *Server {
	s := &Server{script: script, vendor: vendor}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Server.Config.ConnState = func(c net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.mu.Lock()
			s.conns = append(s.conns, c.RemoteAddr().String())
			s.mu.Unlock()
		}
	}
	s.Server.Start()
	return s
}

// Conns returns the client addresses of the connections accepted so far, in order.
func (s *Server) Conns() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.conns...)
}

// RequestAddrs returns the client address each request came from, in order.
func (s *Server) RequestAddrs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.from...)
}

// Requests returns the decoded request bodies received so far.
func (s *Server) Requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

// Paths returns the URL paths of the requests received so far (also those refused with 404).
func (s *Server) Paths() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// Headers returns the request headers received so far.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.heads...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.from = append(s.from, r.RemoteAddr)
	s.paths = append(s.paths, r.URL.Path)
	s.mu.Unlock()
	want := map[string]string{"openai": "/chat/completions", "anthropic": "/messages", "responses": "/responses"}[s.vendor]
	if !strings.HasSuffix(r.URL.Path, want) {
		http.Error(w, "not found: "+r.URL.Path, http.StatusNotFound)
		return
	}
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, body)
	s.heads = append(s.heads, r.Header.Clone())
	s.mu.Unlock()
	reply := s.script(n, body)
	if reply.Status != 0 {
		for k, v := range reply.Header {
			w.Header().Set(k, v)
		}
		w.Header().Set("content-type", "application/json")
		w.WriteHeader(reply.Status)
		b := reply.Body
		if b == "" {
			b = s.errorBody(reply.Status)
		}
		io.WriteString(w, b)
		return
	}
	if stream, _ := body["stream"].(bool); !stream && s.vendor != "anthropic" {
		w.Header().Set("content-type", "application/json")
		if s.vendor == "responses" {
			io.WriteString(w, responsesJSON(n, reply))
		} else {
			io.WriteString(w, chatJSON(n, reply))
		}
		return
	}
	w.Header().Set("content-type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(event, data string) {
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", data)
		if flusher != nil {
			flusher.Flush()
		}
	}
	switch s.vendor {
	case "anthropic":
		anthropicStream(r, n, reply, send)
	case "responses":
		responsesStream(r, n, reply, send)
	default:
		openaiStream(r, n, reply, send)
	}
}

func (s *Server) errorBody(status int) string {
	if s.vendor == "anthropic" {
		kind := map[int]string{429: "rate_limit_error", 401: "authentication_error", 529: "overloaded_error"}[status]
		if kind == "" {
			kind = "api_error"
		}
		return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":"scripted %d"}}`, kind, status)
	}
	return fmt.Sprintf(`{"error":{"message":"scripted %d","type":"error","code":null,"param":null}}`, status)
}

// ContextLengthError is the reply each vendor gives when the conversation is too long.
func ContextLengthError(vendor string) Reply {
	if vendor == "anthropic" {
		return Reply{Status: 400, Body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}`}
	}
	return Reply{Status: 400, Body: `{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`}
}

// pieces splits s into chunks of at most n bytes (on rune boundaries).
func pieces(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		if cut == 0 {
			cut = n
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

func hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

// openaiStream streams reply as chat.completion.chunk events; n (the request number) makes call ids unique.
func openaiStream(r *http.Request, n int, reply Reply, send func(string, string)) {
	chunk := func(delta map[string]any, finish any) string {
		b, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "scripted",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		})
		return string(b)
	}
	send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, p := range pieces(reply.Reasoning, 5) {
		send("", chunk(map[string]any{reasoningField(reply): p}, nil))
	}
	for i, p := range pieces(reply.Text, 7) {
		send("", chunk(map[string]any{"content": p}, nil))
		if i == 0 && reply.Hang {
			hang(r)
			return
		}
	}
	for i, c := range reply.Calls {
		send("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": i, "id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""},
		}}}, nil))
		for _, p := range pieces(c.Args, 9) {
			send("", chunk(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": p},
			}}}, nil))
		}
	}
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
	}
	send("", chunk(map[string]any{}, finish))
	in, out := reply.Usage[0], reply.Usage[1]
	if in == 0 {
		in, out = 10, 5
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "scripted",
		"choices": []any{}, "usage": chatUsage(in, out, reply.Cache)})
	send("", string(b))
	send("", "[DONE]")
}

func reasoningField(reply Reply) string {
	if reply.ReasoningField != "" {
		return reply.ReasoningField
	}
	return "reasoning_content"
}

// anthropicStream streams reply as messages events; n (the request number) makes call ids unique.
func anthropicStream(r *http.Request, n int, reply Reply, send func(string, string)) {
	j := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	in, out := reply.Usage[0], reply.Usage[1]
	if in == 0 {
		in, out = 10, 5
	}
	// Anthropic counts the cached prompt tokens apart from input_tokens
	send("message_start", j(map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "scripted", "content": []any{},
		"stop_reason": nil, "usage": map[string]any{"input_tokens": in - reply.Cache[0] - reply.Cache[1], "output_tokens": 1,
			"cache_read_input_tokens": reply.Cache[0], "cache_creation_input_tokens": reply.Cache[1]},
	}}))
	idx := 0
	if reply.Text != "" {
		send("content_block_start", j(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}}))
		for i, p := range pieces(reply.Text, 7) {
			send("content_block_delta", j(map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": p}}))
			if i == 0 && reply.Hang {
				hang(r)
				return
			}
		}
		send("content_block_stop", j(map[string]any{"type": "content_block_stop", "index": idx}))
		idx++
	}
	for i, c := range reply.Calls {
		send("content_block_start", j(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
			"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i), "name": c.Name, "input": map[string]any{}}}))
		for _, p := range pieces(c.Args, 9) {
			send("content_block_delta", j(map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "input_json_delta", "partial_json": p}}))
		}
		send("content_block_stop", j(map[string]any{"type": "content_block_stop", "index": idx}))
		idx++
	}
	stop := "end_turn"
	if len(reply.Calls) > 0 {
		stop = "tool_use"
	}
	send("message_delta", j(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": out}}))
	send("message_stop", j(map[string]any{"type": "message_stop"}))
}

// chatUsage is a chat completion's usage: cached prompt tokens in prompt_tokens_details, cache writes
// as some compatible servers report them.
func chatUsage(in, out int, cache [2]int) map[string]any {
	u := map[string]any{"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out,
		"prompt_tokens_details": map[string]any{"cached_tokens": cache[0]}}
	if cache[1] > 0 {
		u["cache_creation_input_tokens"] = cache[1]
	}
	return u
}
