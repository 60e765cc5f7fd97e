// `goose-ls recipe validate RECIPE`: goose's wording on success ("✓ recipe file is valid"), goose's first
// error and then every diagnostic of the check on failure.

package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/goose-ls/goose-ls/internal/cli"
)

func runRecipeValidate(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("recipe validate", flag.ContinueOnError)
	fl.SetOutput(stderr)
	name, err := parseOneRecipe(fl, args)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls recipe validate:", err)
		return 2
	}
	lr, err := cli.Load(name)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	if err := cli.FirstError(lr.File); err != nil {
		fmt.Fprintf(stderr, "✗ recipe file is invalid: %v\n", err)
		_ = writeText(stderr, []checkedFile{{Path: lr.Path, File: lr.File}})
		return 1
	}
	fmt.Fprintln(stdout, "✓ recipe file is valid")
	return 0
}
