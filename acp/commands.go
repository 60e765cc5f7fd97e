// Recipes as slash commands, advertised with available_commands_update as goose does (each with
// _meta.commandType and sourcePath): first goose's own recipe commands (config.yaml's slash_commands,
// run with goose's arguments: required values in order, `--key value` for optional ones), then the
// recipes of goose's recipe folders seen from the session's folder (`.`, GOOSE_RECIPE_PATH, the config
// folder's recipes, .goose/.agents recipes), run with `/name key=value …`; then the skills
// (gooseskills.go). goose lists its built-in commands first; goose-ls does not run them, so it does not
// advertise them, but a recipe or skill never takes one of their names.

package acp

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// slashCommand is one recipe or skill offered as a command.
type slashCommand struct {
	name, path, description string
	params                  []string // parameter keys, for the input hint
	// goose is set for a command of goose's slash_commands: goose's hint and argument syntax
	goose *gooseCommand
	// skill marks a skill's command (path ""), hint its metadata.argument-hint
	skill bool
	hint  string
}

// recipeCommands lists the recipes goose would find from cwd; the first of a name wins, as goose's
// resolution does.
func recipeCommands(cwd string, lookup func(string) (string, bool)) []slashCommand {
	cfg, _ := config.Load(lookup) // an unreadable config.yaml still has its folder
	env := library.OSEnv(lookup, cfg.Dir)
	env.Cwd = cwd
	seen := map[string]bool{}
	var out []slashCommand
	for _, e := range (library.Resolver{Env: env}).List() {
		name := commandName(e.Name)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		path := e.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(cwd, path)
		}
		about := e.Title
		if e.Description != "" {
			about += ": " + e.Description
		}
		out = append(out, slashCommand{name: name, path: path, description: about, params: recipeParams(path)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// commandName is a recipe file stem usable after "/": no spaces.
func commandName(stem string) string {
	if stem == "" || strings.IndexFunc(stem, unicode.IsSpace) >= 0 {
		return ""
	}
	return stem
}

// recipeParams are a recipe's parameter keys (nil when it cannot be read).
func recipeParams(path string) []string {
	text, err := recipe.ReadRegularFile(path, recipe.DefaultMaxSize)
	if err != nil {
		return nil
	}
	r, err := library.Parse(text)
	if err != nil {
		return nil
	}
	var keys []string
	for _, p := range r.Parameters {
		keys = append(keys, p.Key)
	}
	return keys
}

// advertiseCommands sends the session's recipe and skill commands as available_commands_update.
func (a *Agent) advertiseCommands(s *acpSession) {
	cmds := mergeCommands(gooseBuiltins, append(a.gooseCommands(), recipeCommands(s.cwd, a.opts.Lookup)...),
		skillCommands(a.discoverSkills(s.cwd)))
	s.mu.Lock()
	s.commands = cmds
	s.mu.Unlock()
	list := []sdk.AvailableCommand{}
	for _, b := range gooseBuiltins {
		if runsBuiltin(b.name) {
			list = append(list, sdk.AvailableCommand{Name: b.name, Description: b.description, Meta: map[string]any{"commandType": "Builtin"}})
		}
	}
	for _, c := range cmds {
		ac := sdk.AvailableCommand{Name: c.name, Description: c.description,
			Meta: map[string]any{"commandType": "Recipe", "sourcePath": c.path}}
		hint := c.hint
		switch {
		case c.skill:
			ac.Meta = map[string]any{"commandType": "Skill"} // goose knows no path for a skill's command
		case c.goose != nil:
			hint = c.goose.hint()
		case len(c.params) > 0:
			parts := make([]string, len(c.params))
			for i, k := range c.params {
				parts[i] = k + "=…"
			}
			hint = strings.Join(parts, " ")
		}
		if hint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: hint}}
		}
		list = append(list, ac)
	}
	a.update(a.baseCtx(), s.id, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: list}})
}

// mergeCommands is goose's merge_command_sources: the built-in names are taken first (and listed by
// advertiseCommands only where goose-ls runs them); a recipe whose name (compared as normalizeCommand does) is taken is
// left out, else it takes its name; a skill whose name a built-in or recipe took is left out (skills do
// not take names from each other: goose lists two skills whose names differ in case both).
func mergeCommands(builtins, recipes, skills []slashCommand) []slashCommand {
	taken := map[string]bool{}
	for _, b := range builtins {
		taken[normalizeCommand(b.name)] = true
	}
	var out []slashCommand
	for _, c := range recipes {
		if key := normalizeCommand(c.name); key != "" && !taken[key] {
			taken[key] = true
			out = append(out, c)
		}
	}
	for _, c := range skills {
		if !taken[normalizeCommand(c.name)] {
			out = append(out, c)
		}
	}
	return out
}

// normalizeCommand is goose's normalize_command_name: leading slashes dropped, lower case.
func normalizeCommand(name string) string {
	return strings.ToLower(strings.TrimLeft(name, "/"))
}

// findCommand is the session's command named name.
func (s *acpSession) findCommand(name string) (slashCommand, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands {
		if c.skill {
			continue // a skill is found when it runs, as goose finds it (gooseskills.go)
		}
		if c.name == name || (c.goose != nil && normalizeCommand(c.name) == normalizeCommand(name)) {
			return c, true
		}
	}
	return slashCommand{}, false
}

// parseSlash splits "/name k=v k2='a b'" into the name and the values; ok is false for text that is not
// a command. Quotes (single or double) group a value with spaces.
func parseSlash(text string) (name string, values map[string]string, ok bool, err error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") {
		return "", nil, false, nil
	}
	words, err := splitWords(text[1:])
	if err != nil || len(words) == 0 {
		return "", nil, len(words) > 0, err
	}
	values = map[string]string{}
	for _, w := range words[1:] {
		k, v, found := strings.Cut(w, "=")
		if !found || strings.TrimSpace(k) == "" {
			return words[0], nil, true, fmt.Errorf("/%s takes key=value pairs, got %q", words[0], w)
		}
		values[k] = v
	}
	return words[0], values, true, nil
}

// splitWords splits on spaces outside quotes.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("a quote is not closed")
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
