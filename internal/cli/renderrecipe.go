// `goose-ls run RECIPE --render-recipe`: the recipe as goose loads it for a run (rendered with the values and
// defaults, parsed, load-time additions included), printed as serde_yaml prints it (recipes/recipe.rs
// render_recipe_as_yaml); runs nothing.

package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/library"
	"github.com/goose-ls/goose-ls/recipe/render"
)

func RenderRecipe(f *RunFlags, stdout, stderr io.Writer) int {
	lr, err := LoadValid(f.Recipe)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	var ask render.Asker
	if IsTerminal(os.Stdin) { // goose asks user_prompt parameters (and secrets) on a terminal
		in := bufio.NewReader(os.Stdin)
		ask = func(key, description string) (string, error) {
			fmt.Fprintf(stderr, "Please enter %s (%s): ", key, description)
			line, err := in.ReadString('\n')
			return strings.TrimRight(line, "\r\n"), err
		}
	}
	fsys := recipe.ConfinedFS(lr.Roots)
	values, err := render.Values(lr.File, f.Params, fsys, ask)
	if err != nil {
		var missing *render.MissingError
		if errors.As(err, &missing) {
			fmt.Fprintln(stderr, "Error:", missing.Error())
			return 1
		}
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	out, err := library.Render(context.Background(), lr.File, values, fsys)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return 1
	}
	text, err := out.Recipe.YAML()
	if err != nil {
		fmt.Fprintln(stderr, "Failed to serialize recipe to YAML")
		return 1
	}
	fmt.Fprintln(stdout, text)
	return 0
}
