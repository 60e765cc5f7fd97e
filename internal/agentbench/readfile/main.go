// Command readfile is the yardstick for `goose-ls check` start-up: a hello-world Go program that reads
// the same file and prints its size.
package main

import (
	"fmt"
	"os"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfile:", err)
		os.Exit(2)
	}
	fmt.Println(len(data), "bytes")
}
