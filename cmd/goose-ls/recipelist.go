// `goose-ls recipe list [--format text|json] [-v]`: the recipes of goose's folders, worded as goose's
// handle_list words them.

package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func runRecipeList(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("recipe list", flag.ContinueOnError)
	fl.SetOutput(stderr)
	format := fl.String("format", "text", "text or json")
	verbose := fl.Bool("verbose", false, "show each recipe's title and path")
	fl.BoolVar(verbose, "v", false, "same as --verbose")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stderr, "goose-ls recipe list: --format must be text or json, got %q\n", *format)
		return 2
	}
	rs := cli.NewResolver()
	if rs.GitHubRepo != "" {
		fmt.Fprintf(stderr, "goose-ls recipe list: GOOSE_RECIPE_GITHUB_REPO=%s is not listed (GitHub recipe repositories need the gh CLI and the network, which goose-ls does not support)\n", rs.GitHubRepo)
	}
	fmt.Fprint(stdout, listText(rs.List(), *format, *verbose))
	return 0
}

// listText is goose's output for the entries.
func listText(entries []library.Entry, format string, verbose bool) string {
	if format == "json" {
		return library.EntriesJSON(entries) + "\n"
	}
	if len(entries) == 0 {
		return "No recipes found\n"
	}
	out := "Available recipes:\n"
	for _, e := range entries {
		desc := e.Description
		if desc == "" {
			desc = "(none)"
		}
		line := fmt.Sprintf("%s - %s - local: %s", e.Name, desc, e.Path)
		if verbose {
			out += "  " + line + "\n" + "    Title: " + e.Title + "\n" + "    Path: " + e.Path + "\n"
		} else {
			out += line + "\n"
		}
	}
	return out
}
