// The extensions a run without an `extensions` key gets: goose's platform extensions as its config
// enables them — an entry of config.yaml's `extensions` keeps its state, a missing one takes goose's
// default (config/migrations.rs), so todo is off on a fresh config and stays on where it was.

package agent

import (
	"os"
	"path/filepath"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/recipe"
)

// Platform extension config keys goose has besides the ones goose-ls builds.
const (
	extChatRecall    = "chatrecall"
	extCodeExecution = "code_execution"
	extSummarize     = "summarize"
)

// platformDefaults are goose's platform extensions (PLATFORM_EXTENSIONS of its newest release) with
// default_enabled, by config key, sorted as goose lists them. The hidden, feature-gated scheduler is
// left out: goose-ls has no scheduler, and whether goose's CLI loads it is not known.
var platformDefaults = []struct {
	name string
	on   bool
}{
	{extAnalyze, true}, {extApps, true}, {extChatRecall, false}, {extCodeExecution, false}, {extDeveloper, true},
	{extExtensionManager, true}, {extSkills, true}, {extSummarize, false}, {extSummon, true}, {extTodo, false}, {extTom, true},
}

// maxConfigSize bounds the config.yaml read for the extension states (goose's is a few KiB).
const maxConfigSize = 4 << 20

// defaultProfile lists the platform extensions enabled for this run's goose config.
func defaultProfile(opts *RunOptions) []string {
	states := configuredExtensionStates(opts)
	var out []string
	for _, d := range platformDefaults {
		on, set := states[d.name]
		if !set {
			on = d.on
		}
		if on {
			out = append(out, d.name)
		}
	}
	return out
}

// configuredExtensionStates reads `extensions.<key>.enabled` from goose's config.yaml: an entry whose
// `enabled` is a boolean keeps its state (goose's migration rewrites any other entry with the default).
// No config, or one that does not parse, is a fresh config.
func configuredExtensionStates(opts *RunOptions) map[string]bool {
	home, _ := os.UserHomeDir()
	dir := gooseConfigDir(opts.lookup, home)
	if dir == "" {
		return nil
	}
	data, err := recipe.ReadRegularFile(filepath.Join(dir, "config.yaml"), maxConfigSize)
	if err != nil {
		return nil
	}
	var cfg struct {
		Extensions map[string]any `yaml:"extensions"`
	}
	if yaml.Unmarshal(data, &cfg) != nil {
		return nil
	}
	states := map[string]bool{}
	for key, entry := range cfg.Extensions {
		if m, ok := entry.(map[string]any); ok {
			if on, ok := m["enabled"].(bool); ok {
				states[key] = on
			}
		}
	}
	return states
}
