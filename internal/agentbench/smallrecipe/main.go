// Command smallrecipe prints the 42-line recipe the start-up benchmark checks (testgen.SmallRecipe).
package main

import (
	"fmt"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

func main() { fmt.Print(testgen.SmallRecipe) }
