// The toolbox: the extensions of a run, their public tool names (`key__tool`, or bare for unprefixed
// extensions), available_tools filtering and call routing.

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"unicode"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// Extension is a source of tools: the builtin developer tools, an MCP server, the recipe's own tools.
type Extension interface {
	Name() string
	Unprefixed() bool
	Instructions() string
	Tools() []tools.Spec
	Call(ctx context.Context, tool string, args json.RawMessage) tools.Result
	Close() error
}

// Mount is an extension with the tools the recipe allows (empty: all).
type Mount struct {
	Ext       Extension
	Available []string
}

type route struct {
	ext  Extension
	tool string
	spec tools.Spec
}

// Toolbox resolves public tool names.
type Toolbox struct {
	mounts []Mount
	routes map[string]route
	order  []string
}

// Key is goose's name_to_key: ASCII letters, digits, `_` and `-` kept, whitespace dropped, anything else
// becomes `_`, lowercased.
func Key(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'):
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r):
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// allowed reports whether tool passes an available_tools list, understanding goose's classic names.
func allowed(available []string, tool string) bool {
	if len(available) == 0 {
		return true
	}
	for _, a := range available {
		if a == tool {
			return true
		}
		for _, alias := range tools.ClassicAliases[a] {
			if alias == tool {
				return true
			}
		}
	}
	return false
}

// NewToolbox builds the routing table; a duplicate public name is dropped with a warning.
func NewToolbox(mounts ...Mount) *Toolbox {
	tb := &Toolbox{mounts: mounts, routes: map[string]route{}}
	for _, m := range mounts {
		key := Key(m.Ext.Name())
		for _, spec := range m.Ext.Tools() {
			if !allowed(m.Available, spec.Name) {
				continue
			}
			name := spec.Name
			if !m.Ext.Unprefixed() {
				name = key + "__" + spec.Name
			}
			if _, dup := tb.routes[name]; dup {
				slog.Warn("Duplicate tool name - skipping", "tool", name, "extension", key)
				continue
			}
			tb.routes[name] = route{ext: m.Ext, tool: spec.Name, spec: spec}
			tb.order = append(tb.order, name)
		}
	}
	return tb
}

// Tools returns the provider's view of the tools sorted by name, as goose sends them (reply_parts.rs:
// a stable order for prompt caching).
func (tb *Toolbox) Tools() []provider.Tool {
	out := make([]provider.Tool, 0, len(tb.order))
	for _, name := range tb.order {
		r := tb.routes[name]
		out = append(out, provider.Tool{Name: name, Description: r.spec.Description, InputSchema: r.spec.InputSchema})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Spec returns the spec behind a public name.
func (tb *Toolbox) Spec(name string) (tools.Spec, bool) {
	r, ok := tb.routes[name]
	return r.spec, ok
}

// Call routes a call by public name.
func (tb *Toolbox) Call(ctx context.Context, name string, args json.RawMessage) tools.Result {
	r, ok := tb.routes[name]
	if !ok {
		// a tool the extension has but the recipe filtered out
		if i := strings.Index(name, "__"); i > 0 {
			for _, m := range tb.mounts {
				if Key(m.Ext.Name()) == name[:i] {
					return tools.Result{Text: fmt.Sprintf("Tool '%s' is not available for extension '%s'", name[i+2:], name[:i]), IsError: true}
				}
			}
		}
		return tools.Result{Text: fmt.Sprintf("Tool '%s' not found", name), IsError: true}
	}
	return r.ext.Call(ctx, r.tool, args)
}

// Instructions is the extension section of the system prompt, extensions sorted by name.
func (tb *Toolbox) Instructions() string {
	ms := append([]Mount(nil), tb.mounts...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Ext.Name() < ms[j].Ext.Name() })
	var b strings.Builder
	for _, m := range ms {
		ins := strings.TrimSpace(m.Ext.Instructions())
		if ins == "" {
			continue
		}
		fmt.Fprintf(&b, "## %s\n\n### Instructions\n%s\n\n", m.Ext.Name(), ins)
	}
	return b.String()
}

// Close closes every extension.
func (tb *Toolbox) Close() {
	for _, m := range tb.mounts {
		if err := m.Ext.Close(); err != nil {
			slog.Warn("closing extension", "extension", m.Ext.Name(), "err", err)
		}
	}
}
