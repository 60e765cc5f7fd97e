// `goose-ls recipe list|deeplink|validate`: goose's recipe subcommands (goose-cli commands/recipe.rs) on
// goose-ls's engine.

package main

import (
	"fmt"
	"io"
)

func runRecipe(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "goose-ls recipe: want list, deeplink RECIPE or validate RECIPE")
		return 2
	}
	switch args[0] {
	case "list":
		return runRecipeList(args[1:], stdout, stderr)
	case "deeplink":
		return runRecipeDeeplink(args[1:], stdout, stderr)
	case "validate":
		return runRecipeValidate(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "goose-ls recipe: unknown command %q (want list, deeplink or validate)\n", args[0])
	return 2
}
