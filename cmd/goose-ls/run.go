// `goose-ls run`: --explain and --render-recipe are answered here (they run nothing); a run is
// goose-ls-agent's, in this process's place, once its flags parse and a recipe name resolves.

package main

import (
	"io"

	"github.com/goose-ls/goose-ls/internal/cli"
)

func runRun(args []string, stdout, stderr io.Writer) int {
	if _, code, done := cli.PrepareRun(args, stdout, stderr); done {
		return code
	}
	return execAgent(append([]string{"run"}, args...), stderr)
}
