// `goose-ls run`: --explain and --render-recipe are answered here (they run nothing); a run is
// goose-ls-agent's, in this process's place, once its flags parse and a recipe name resolves.

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/goose-ls/goose-ls/internal/cli"
	"github.com/goose-ls/goose-ls/recipe/library"
)

func runRun(args []string, stdout, stderr io.Writer) int {
	f, err := cli.ParseRunFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "goose-ls run:", err)
		}
		return 2
	}
	switch {
	case f.Explain:
		return cli.Explain(f, stdout, stderr)
	case f.RenderRecipe:
		return cli.RenderRecipe(f, stdout, stderr)
	case f.Recipe != "" && !library.IsPath(f.Recipe): // a name that resolves nowhere fails here, without the agent
		if _, err := cli.NewResolver().Resolve(f.Recipe); err != nil {
			fmt.Fprintln(stderr, "goose-ls run:", err)
			return 1
		}
	}
	return execAgent(append([]string{"run"}, args...), stderr)
}
