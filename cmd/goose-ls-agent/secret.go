// `goose-ls secret set NAME`: store a secret (an API key) where goose keeps it, the value read from stdin.

package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goose-ls/goose-ls/agent/config/secretstore"
)

// maxSecret bounds what is read from stdin: an API key or token is far shorter.
const maxSecret = 64 << 10

func runSecret(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "set" || args[1] == "" || strings.ContainsAny(args[1], " \t\r\n=") {
		fmt.Fprintln(stderr, "usage: goose-ls secret set NAME   (the value is read from stdin, never from the command line)")
		return 2
	}
	name := args[1]
	data, err := io.ReadAll(io.LimitReader(stdin, maxSecret+1))
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls secret:", err)
		return 1
	}
	if len(data) > maxSecret {
		fmt.Fprintf(stderr, "goose-ls secret: the value is longer than %d bytes\n", maxSecret)
		return 1
	}
	value := strings.TrimRight(string(data), "\r\n")
	if value == "" {
		fmt.Fprintln(stderr, "goose-ls secret: no value on stdin")
		return 1
	}
	_, store, err := secretstore.Load(os.LookupEnv)
	if store == nil {
		fmt.Fprintln(stderr, "goose-ls secret:", err)
		return 1
	}
	store.Watch(func(msg string) { fmt.Fprintln(stderr, "goose-ls secret:", msg) }, nil)
	where, err := store.Set(name, value)
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls secret:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s stored in %s\n", name, where)
	return 0
}
