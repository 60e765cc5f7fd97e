// goose's in-process platform extensions (todo, skills, tom, analyze): constructors by name.

package agent

import (
	"encoding/json"
	"os"

	"github.com/goose-ls/goose-ls/agent/platform"
)

// The platform extensions are Extensions; todo and tom add to the per-turn context.
var (
	_ Extension     = (*platform.Todo)(nil)
	_ Extension     = (*platform.Tom)(nil)
	_ Extension     = (*platform.Skills)(nil)
	_ Extension     = (*platform.Analyze)(nil)
	_ TurnContexter = (*platform.Todo)(nil)
	_ TurnContexter = (*platform.Tom)(nil)
)

// extensionDataStore is the part of a session recorder that keeps goose's per-extension state
// (session.Recorder is one).
type extensionDataStore interface {
	SetExtensionData(key string, value any) error
	ExtensionData(key string) (json.RawMessage, bool)
}

// platformExtension returns goose's in-process platform extension called name (goose's config key, e.g.
// "todo"), or false when goose-ls does not implement it. developer and summon are built elsewhere.
func platformExtension(name string, opts *RunOptions) (Extension, bool) {
	workDir := ""
	if opts.Workspace != nil {
		workDir = opts.Workspace.Root()
	}
	switch name {
	case "todo":
		todo := &platform.Todo{}
		if store, ok := opts.Recorder.(extensionDataStore); ok && opts.depth == 0 {
			if raw, found := store.ExtensionData(platform.TodoStateKey); found {
				var st platform.TodoState
				if err := json.Unmarshal(raw, &st); err == nil {
					todo.Restore(st.Content) // a resumed session keeps its list
				}
			}
			todo.Save = func(st platform.TodoState) error { return store.SetExtensionData(platform.TodoStateKey, st) }
		}
		return todo, true
	case "tom":
		return &platform.Tom{}, true
	case "skills":
		home, _ := os.UserHomeDir()
		return &platform.Skills{WorkDir: workDir, Home: home, ConfigDir: gooseConfigDir(opts.lookup, home)}, true
	case "analyze":
		return &platform.Analyze{WorkDir: workDir}, true
	}
	return nil, false
}
