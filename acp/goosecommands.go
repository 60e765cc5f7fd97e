// goose's recipe slash commands (its slash_commands/recipe_slash_command.rs): config.yaml's
// `slash_commands` map a command to a recipe file; the command's hint lists the required parameters as
// `<key>` and the optional ones as `[--key <key>]`, and its text after the name gives their values.

package acp

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/goose-ls/goose-ls/recipe"
)

// gooseCommand is how one of goose's recipe commands takes its values.
type gooseCommand struct {
	required, optional []string // parameter keys (user_prompt counts as required)
}

// hint is goose's input hint ("" for a recipe without parameters).
func (g *gooseCommand) hint() string {
	var parts []string
	for _, k := range g.required {
		parts = append(parts, "<"+k+">")
	}
	for _, k := range g.optional {
		parts = append(parts, "[--"+k+" <"+k+">]")
	}
	return strings.Join(parts, " ")
}

// gooseCommands are config.yaml's slash_commands whose recipe exists and validates, in the order
// listed; each is described by its recipe's description.
func (a *Agent) gooseCommands() []slashCommand {
	var out []slashCommand
	for _, m := range a.slashMappings() {
		name := normalizeCommand(m.Command)
		if name == "" || strings.IndexFunc(name, unicode.IsSpace) >= 0 {
			continue
		}
		text, err := recipe.ReadRegularFile(m.RecipePath, recipe.DefaultMaxSize)
		if err != nil {
			continue
		}
		f := recipe.Check(m.RecipePath, text, &recipe.Options{Roots: []string{filepath.Dir(m.RecipePath)}})
		if f.HasErrors() || f.Recipe == nil {
			continue
		}
		g := &gooseCommand{}
		for _, p := range f.Recipe.Parameters {
			if p.Requirement == "optional" {
				g.optional = append(g.optional, p.Key)
			} else {
				g.required = append(g.required, p.Key)
			}
		}
		description := ""
		if d := f.Recipe.Description; d != nil {
			description = d.Value
		}
		out = append(out, slashCommand{name: name, path: m.RecipePath, description: description, goose: g})
	}
	return out
}

// args reads the text after the command as goose's resolve_command does: nothing gives no values; a
// recipe with one required parameter and no optional one takes the whole text; otherwise required
// values come in order (with one required parameter, all its words) and optional ones as --key value.
func (g *gooseCommand) args(text string) (map[string]string, error) {
	values := map[string]string{}
	text = strings.TrimSpace(text)
	if text == "" {
		return values, nil
	}
	if len(g.required) == 1 && len(g.optional) == 0 {
		values[g.required[0]] = text
		return values, nil
	}
	tokens, err := splitCommandArgs(text)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, k := range append(append([]string{}, g.required...), g.optional...) {
		known[k] = true
	}
	var positional []string
	for i := 0; i < len(tokens); i++ {
		flag, ok := strings.CutPrefix(tokens[i], "--")
		if !ok {
			positional = append(positional, tokens[i])
			continue
		}
		if !known[flag] {
			return nil, fmt.Errorf("Unknown parameter: --%s", flag)
		}
		if i+1 >= len(tokens) || strings.HasPrefix(tokens[i+1], "--") {
			return nil, fmt.Errorf("Missing value for --%s", flag)
		}
		values[flag] = tokens[i+1]
		i++
	}
	if len(g.required) == 1 && len(positional) > 0 {
		values[g.required[0]] = strings.Join(positional, " ")
		return values, nil
	}
	for i, v := range positional {
		if i >= len(g.required) {
			return nil, fmt.Errorf("Unexpected positional argument: %s", v)
		}
		values[g.required[i]] = v
	}
	return values, nil
}

// splitCommandArgs splits on white space; a word that starts with a quote runs to the matching quote
// (so `"Button Group"` is one value), while a quote inside a word is kept (`O'Reilly's`).
func splitCommandArgs(s string) ([]string, error) {
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		if q := rs[i]; q == '"' || q == '\'' {
			end := i + 1
			for end < len(rs) && rs[end] != q {
				end++
			}
			if end >= len(rs) {
				return nil, errors.New("a quote is not closed")
			}
			out = append(out, string(rs[i+1:end]))
			i = end + 1
			continue
		}
		start := i
		for i < len(rs) && !unicode.IsSpace(rs[i]) {
			i++
		}
		out = append(out, string(rs[start:i]))
	}
	return out, nil
}
