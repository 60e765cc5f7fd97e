// `goose-ls recipe deeplink RECIPE [-p|--param k=v]...`: a goose:// link carrying the recipe's unrendered
// template (load-time additions included), as goose's handle_deeplink prints it.

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe/library"
)

// deeplinkParams collects -p/--param KEY=VALUE in the order given.
type deeplinkParams []library.Param

func (p *deeplinkParams) String() string { return "" }

func (p *deeplinkParams) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("Invalid parameter format: '%s'. Expected format: key=value", v)
	}
	*p = append(*p, library.Param{Key: k, Value: val})
	return nil
}

func runRecipeDeeplink(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("recipe deeplink", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var params deeplinkParams
	fl.Var(&params, "param", "a parameter value KEY=VALUE added to the link (repeatable)")
	fl.Var(&params, "p", "same as --param")
	name, err := parseOneRecipe(fl, args)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls recipe deeplink:", err)
		return 2
	}
	link, title, err := recipeDeeplink(name, params)
	if err != nil {
		fmt.Fprintf(stdout, "✗ Failed to encode recipe: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "✓ Generated deeplink for: %s\n%s\n", title, link)
	return 0
}

// recipeDeeplink loads and validates the recipe, then encodes its template.
func recipeDeeplink(name string, params []library.Param) (link, title string, err error) {
	lr, err := cli.LoadValid(name)
	if err != nil {
		return "", "", err
	}
	tpl, err := library.Template(lr.File)
	if err != nil {
		return "", "", err
	}
	return library.Deeplink(tpl, params), tpl.Title, nil
}

// parseOneRecipe parses flags placed before or after the single RECIPE argument.
func parseOneRecipe(fl *flag.FlagSet, args []string) (string, error) {
	var positional []string
	for {
		if err := fl.Parse(args); err != nil {
			return "", err
		}
		args = fl.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	if len(positional) != 1 {
		return "", fmt.Errorf("want one RECIPE (a path or a name), got %d", len(positional))
	}
	return positional[0], nil
}
