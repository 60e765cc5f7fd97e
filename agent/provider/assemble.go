// Assembling streamed tool calls: vendors send a call's id and name once and its JSON arguments in
// pieces, keyed by their own index; both vendor packages collect them here.

package provider

import (
	"encoding/json"
	"fmt"
	"strings"
)

type partialCall struct {
	id, name string
	args     strings.Builder
}

// ToolCallAssembler collects tool-call pieces in arrival order.
type ToolCallAssembler struct {
	byKey map[int64]int // vendor index → position
	calls []*partialCall
}

// Add records a piece of the call the vendor keys as key (a new key starts a call) and returns the
// Delta to report: the id and name only the first time they are known.
func (a *ToolCallAssembler) Add(key int64, id, name, argsPart string) Delta {
	if a.byKey == nil {
		a.byKey = map[int64]int{}
	}
	pos, ok := a.byKey[key]
	if !ok {
		pos = len(a.calls)
		a.byKey[key] = pos
		a.calls = append(a.calls, &partialCall{})
	}
	c := a.calls[pos]
	d := Delta{ToolCallIndex: pos, ArgumentsPart: argsPart}
	if id != "" && c.id == "" {
		c.id, d.ToolCallID = id, id
	}
	if name != "" && c.name == "" {
		c.name, d.ToolName = name, name
	}
	c.args.WriteString(argsPart)
	return d
}

// Has reports whether key started a call.
func (a *ToolCallAssembler) Has(key int64) bool {
	_, ok := a.byKey[key]
	return ok
}

// Calls returns the complete calls: empty arguments become {}, a missing id call_N.
func (a *ToolCallAssembler) Calls() []ToolCall {
	var out []ToolCall
	for i, c := range a.calls {
		args := strings.TrimSpace(c.args.String())
		if args == "" {
			args = "{}"
		}
		id := c.id
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		out = append(out, ToolCall{ID: id, Name: c.name, Arguments: json.RawMessage(args)})
	}
	return out
}
