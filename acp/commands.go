// Recipes as slash commands: the recipes of goose's recipe folders seen from the session's folder
// (`.`, GOOSE_RECIPE_PATH, the config folder's recipes, .goose/.agents recipes), advertised with
// available_commands_update; `/name key=value …` runs one with those values.

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

// slashCommand is one recipe offered as a command.
type slashCommand struct {
	name, path, description string
	params                  []string // parameter keys, for the input hint
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

// advertiseCommands sends the session's recipes as available_commands_update.
func (a *Agent) advertiseCommands(s *acpSession) {
	cmds := recipeCommands(s.cwd, a.opts.Lookup)
	s.mu.Lock()
	s.commands = cmds
	s.mu.Unlock()
	list := []sdk.AvailableCommand{}
	for _, c := range cmds {
		ac := sdk.AvailableCommand{Name: c.name, Description: c.description}
		if len(c.params) > 0 {
			hint := make([]string, len(c.params))
			for i, k := range c.params {
				hint[i] = k + "=…"
			}
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: strings.Join(hint, " ")}}
		}
		list = append(list, ac)
	}
	a.update(a.baseCtx(), s.id, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: list}})
}

// findCommand is the session's command named name.
func (s *acpSession) findCommand(name string) (slashCommand, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands {
		if c.name == name {
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
