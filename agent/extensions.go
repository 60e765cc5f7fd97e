// Starting a run's extensions: the developer tools, summon, the platform extensions platformExtension
// builds, and MCP servers (started concurrently); one that cannot start is a notice and the run goes on.

package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/goose-ls/goose-ls/agent/mcp"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// desktopOnly are goose's platform extensions that serve goose Desktop; goose-ls reports them unavailable.
var desktopOnly = map[string]string{
	extExtensionManager: "it searches for and enables extensions in goose Desktop's configuration while a session runs",
	extApps:             "its apps are HTML windows that only goose Desktop can display",
}

// started is what startExtensions made: the mounts, and the entries that started (what a sub-agent
// inherits, as goose persists a session's enabled extensions).
type started struct {
	mounts  []Mount
	enabled []ExtensionDoc
}

// startExtensions starts the extensions of the run (see runExtensions), in list order.
func startExtensions(ctx context.Context, doc *Doc, opts *RunOptions, env *runEnv) started {
	list := runExtensions(doc, opts)
	profile := opts.sub == nil && !doc.hasExtensions
	mounts := make([]Mount, len(list))
	ok := make([]bool, len(list))
	var summon *summonExt
	var desktop, missing []string // the default profile's extensions left out, reported in one notice
	var wg sync.WaitGroup
	for i, e := range list {
		switch e.Type {
		case "builtin", "platform":
			var skip skipReason
			mounts[i], skip = platformMount(e, opts, env, &summon)
			ok[i] = skip == mounted
			switch {
			case skip == mounted || skip == duplicate:
			case profile && skip == desktopOnlyExt:
				desktop = append(desktop, e.Name)
			case profile:
				missing = append(missing, e.Name)
			case skip == desktopOnlyExt:
				opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("extension %s: not available in goose-ls, a goose Desktop extension (%s); running without it", e.Name, desktopOnly[Key(e.Name)])})
			default:
				opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("extension %s: goose-ls has no builtin %q; running without it", e.Name, e.Name)})
			}
			continue
		case "stdio", "streamable_http", "sse":
		default:
			opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("extension %s: type %q is not supported by goose-ls; running without it", e.Name, e.Type)})
			continue
		}
		cfg, err := mcpConfig(e, opts)
		if err != nil {
			opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("extension %s: %v; running without it", e.Name, err)})
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := mcp.Start(ctx, cfg)
			if err != nil {
				opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("%v; running without it", err)})
				return
			}
			mounts[i], ok[i] = Mount{Ext: c, Available: e.AvailableTools}, true
		}()
	}
	wg.Wait()
	if len(desktop)+len(missing) > 0 {
		opts.emit(Event{Kind: EventNotice, Text: profileNotice(desktop, missing)})
	}
	var out started
	for i, m := range mounts {
		if ok[i] {
			out.mounts = append(out.mounts, m)
			out.enabled = append(out.enabled, list[i])
		}
	}
	if summon != nil {
		summon.enabled = out.enabled
	}
	return out
}

// skipReason says why platformMount built nothing.
type skipReason int

const (
	mounted        skipReason = iota
	duplicate                 // a second summon
	desktopOnlyExt            // extensionmanager, apps
	noBuiltin                 // a name platformExtension does not know
)

// platformMount builds an in-process extension: developer, summon (one per run), or whatever
// platformExtension knows.
func platformMount(e ExtensionDoc, opts *RunOptions, env *runEnv, summon **summonExt) (Mount, skipReason) {
	name := Key(e.Name)
	switch {
	case name == extDeveloper:
		return developerMount(opts, e.AvailableTools), mounted
	case name == extSummon:
		if *summon != nil {
			return Mount{}, duplicate
		}
		*summon = newSummon(opts, env)
		return Mount{Ext: *summon, Available: e.AvailableTools}, mounted
	case desktopOnly[name] != "":
		return Mount{}, desktopOnlyExt
	}
	if ext, known := platformExtension(name, opts); known {
		return Mount{Ext: ext, Available: e.AvailableTools}, mounted
	}
	return Mount{}, noBuiltin
}

// profileNotice is the one notice for the default profile's extensions goose-ls leaves out.
func profileNotice(desktop, missing []string) string {
	var parts []string
	if len(desktop) > 0 {
		parts = append(parts, strings.Join(desktop, ", ")+" (goose Desktop extensions, not available in goose-ls)")
	}
	if len(missing) > 0 {
		parts = append(parts, strings.Join(missing, ", ")+" (goose-ls has no builtin for them)")
	}
	return "goose's default extensions: running without " + strings.Join(parts, " and ")
}

// developerMount is goose's developer extension on the run's workspace.
func developerMount(opts *RunOptions, available []string) Mount {
	timeout := secondsFrom(opts.lookup, "GOOSE_DEFAULT_EXTENSION_TIMEOUT")
	redact := opts.Redactor.Redact
	saveRedacted := func(save tools.SaveFunc) tools.SaveFunc {
		return func(text string) (string, error) { return save(redact(text)) }
	}
	return Mount{Ext: &tools.Developer{WS: opts.Workspace, Shell: opts.Shell, ShellTimeout: timeout, WrapSave: saveRedacted}, Available: available}
}

// mcpConfig is an MCP server's configuration: the declared envs (goose's deny-list applied) and env_keys,
// every value registered with the redactor, and the folder a stdio server runs in: its cwd with those
// variables substituted (relative: in the workspace), which must stay inside the workspace.
func mcpConfig(e ExtensionDoc, opts *RunOptions) (mcp.Config, error) {
	env := map[string]string{}
	for k, v := range e.Envs {
		if !deniedEnv(k) {
			env[k] = v
			opts.Redactor.Add(v)
		}
	}
	for _, k := range e.EnvKeys {
		if v, found := opts.secret(k); found { // goose reads env_keys as secrets
			env[k] = v
			opts.Redactor.Add(v)
		} else {
			opts.emit(Event{Kind: EventNotice, Text: fmt.Sprintf("extension %s: env_keys %s is not set", e.Name, k)})
		}
	}
	dir := opts.Workspace.Root()
	if e.Type == "stdio" && e.Cwd != "" {
		cwd, err := resolveDirInside(dir, mcp.SubstituteEnv(e.Cwd, env), "cwd", "the workspace")
		if err != nil {
			return mcp.Config{}, err
		}
		dir = cwd
	}
	if id := opts.sessionID(); id != "" && e.Type == "stdio" {
		env["AGENT_SESSION_ID"] = id // goose's, over the extension's own envs (not in its cwd)
	}
	return mcp.Config{Name: e.Name, Type: e.Type, Cmd: e.Cmd, Args: e.Args, Env: env, WorkDir: dir,
		URI: e.URI, Headers: e.Headers, Timeout: time.Duration(e.Timeout) * time.Second, Redact: opts.Redactor.Redact}, nil
}
