// The scripted model the whole-run tests use: it answers with the tool calls it is given, one per
// request, then "Done.", and keeps every request it saw.

package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
)

// capture is a scripted model that makes the given tool calls, one per turn, then ends; it keeps every
// request it received.
type capture struct {
	mu    sync.Mutex
	reqs  []provider.Request
	calls []provider.ToolCall
}

func (c *capture) provider() *scripted.Provider {
	return &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.reqs = append(c.reqs, req)
		if n < len(c.calls) {
			call := c.calls[n]
			call.ID = fmt.Sprintf("call-%d", n)
			return provider.Message{ToolCalls: []provider.ToolCall{call}}
		}
		return provider.Message{Text: "Done."}
	}}
}

// sent is everything the provider received: system prompts and messages.
func (c *capture) sent() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, r := range c.reqs {
		b.WriteString(r.System)
		m, _ := json.Marshal(r.Messages)
		b.Write(m)
	}
	return b.String()
}

func toolCall(name string, args map[string]any) provider.ToolCall {
	raw, _ := json.Marshal(args)
	return provider.ToolCall{Name: name, Arguments: raw}
}
