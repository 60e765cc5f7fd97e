// goose's skill slash commands (its slash_commands/skill_slash_command.rs): every skill goose would
// discover from the session's folder is advertised after the recipe commands as /name (lower-cased,
// commandType "Skill", no sourcePath, metadata.argument-hint as the input hint), and `/name args` sends
// the skill's loaded text (load_skill's, with the arguments substituted) as the user message.

package acp

import (
	"fmt"
	"os"
	"strings"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/platform"
)

// gooseBuiltins are goose's own commands, in goose's order. goose-ls runs only /clear (runsBuiltin),
// the one it advertises; the other names stay goose's all the same (goose lists no recipe or skill of
// that name, and runs its own command for it).
var gooseBuiltins = []slashCommand{{name: "prompts"}, {name: "prompt"}, {name: "compact"},
	{name: "clear", description: "Clear the conversation history"}, {name: "skills"}, {name: "doctor"}}

// runsBuiltin reports whether goose-ls runs goose's built-in command name.
func runsBuiltin(name string) bool { return name == "clear" }

// isGooseBuiltin is a command goose dispatches to its own handler (goose compares the name as typed).
func isGooseBuiltin(name string) bool {
	for _, b := range gooseBuiltins {
		if b.name == name {
			return true
		}
	}
	return false
}

// discoverSkills are the skills a run in cwd finds: the user's folders from HOME and goose's config
// folder as this process sees them.
func (a *Agent) discoverSkills(cwd string) []*platform.Skill {
	home, ok := a.opts.Lookup("HOME")
	if !ok {
		home, _ = os.UserHomeDir()
	}
	cfg, _ := config.Load(a.opts.Lookup) // an unreadable config.yaml still has its folder
	return platform.DiscoverSkills(cwd, home, cfg.Dir)
}

// skillCommands are goose's commands_from_sources: each skill as its normalised name (an empty one
// is left out), described by its description.
func skillCommands(skills []*platform.Skill) []slashCommand {
	var out []slashCommand
	for _, sk := range skills {
		if name := normalizeCommand(sk.Name); name != "" {
			out = append(out, slashCommand{name: name, description: sk.Description, skill: true, hint: sk.ArgumentHint()})
		}
	}
	return out
}

// skillPrompt is goose's resolve_command for a skill: text `/command args` names the first skill whose
// name equals command ignoring ASCII case; the prompt is its loaded text, with args when there are any.
// found is false when text names no skill (or one of goose's own commands); err is goose's
// "Skill /command: …" reply.
func (a *Agent) skillPrompt(cwd, text string) (prompt string, found bool, err error) {
	command, args, ok := parseGooseSlash(text)
	if !ok || isGooseBuiltin(command) {
		return "", false, nil
	}
	for _, sk := range a.discoverSkills(cwd) {
		if !equalFoldASCII(sk.Name, command) {
			continue
		}
		var argp *string
		if args != "" {
			argp = &args
		}
		prompt, err := sk.LoadedContext(argp)
		if err != nil {
			return "", true, fmt.Errorf("Skill /%s: %v", command, err)
		}
		return prompt, true, nil
	}
	return "", false, nil
}

// parseGooseSlash is goose's parse_slash_command: the trimmed text after "/", split at its first space
// into the command and the trimmed rest.
func parseGooseSlash(text string) (command, params string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok {
		return "", "", false
	}
	command, params, _ = strings.Cut(rest, " ")
	return command, strings.TrimSpace(params), true
}

// equalFoldASCII is Rust's eq_ignore_ascii_case: only ASCII letters fold.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
