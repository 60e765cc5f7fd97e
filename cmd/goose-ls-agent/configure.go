// `goose-ls configure`: the terminal set-up goose and goose-ls share. It asks for the provider (of those
// goose-ls runs), the settings it cannot run without, the model and the API key, then stores the key
// where goose keeps it and writes goose's config.yaml as `goose configure` does. Nothing is written
// before the last answer: Ctrl-C or end of input at any question leaves everything as it was.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/term"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/config/secretstore"
	"github.com/goose-ls/goose-ls/agent/provider/setup"
)

const stoppedText = "goose-ls configure: stopped; nothing was changed."

func runConfigure(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: goose-ls configure   (takes no arguments; it asks its questions in the terminal)")
		return 2
	}
	fd, ok := stdinTerminal()
	if !ok {
		fmt.Fprintln(stderr, "goose-ls configure: stdin is not a terminal: run it in a terminal to answer its questions (a script can store a key with `goose-ls secret set NAME`)")
		return 2
	}
	cfg, store, err := secretstore.Load(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "goose-ls configure: goose's configuration cannot be read: %v; fix it first, nothing was changed\n", err)
		return 1
	}
	store.Watch(func(msg string) { fmt.Fprintln(stdout, "Note: "+msg+".") }, nil)

	// Ctrl-C ends the set-up at once with the terminal as it was (echo back on), unless the answers are
	// being saved: then the writes finish first.
	saved, _ := term.GetState(fd)
	var mu sync.Mutex
	saving := false
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			mu.Lock()
			if saving {
				mu.Unlock()
				continue
			}
			if saved != nil {
				_ = term.Restore(fd, saved)
			}
			fmt.Fprintln(stdout, "\n"+stoppedText)
			os.Exit(130)
		}
	}()

	a, err := askConfiguration(&ttyPrompter{fd: fd, in: os.Stdin, out: stdout}, stdout, cfg, store)
	if errors.Is(err, errStopped) {
		fmt.Fprintln(stdout, stoppedText)
		return 1
	}
	if err != nil {
		fmt.Fprintln(stderr, "goose-ls configure:", err)
		return 1
	}
	mu.Lock()
	saving = true
	mu.Unlock()
	if err := a.save(stdout, cfg, store); err != nil {
		fmt.Fprintln(stderr, "goose-ls configure:", err)
		return 1
	}
	return 0
}

// answers are what the user chose.
type answers struct {
	choice   setup.Choice
	model    string
	settings map[string]string // for config.yaml
	secrets  []secretAnswer    // for goose's secret storage, in the order asked
}

type secretAnswer struct{ name, value string }

// save stores the secrets, then writes config.yaml (goose's order: the keys, then the active provider).
func (a *answers) save(out io.Writer, cfg *config.Config, store *secretstore.Store) error {
	for _, s := range a.secrets {
		where, err := store.Set(s.name, s.value)
		if err != nil {
			return fmt.Errorf("storing %s: %w; config.yaml was not changed", s.name, err)
		}
		fmt.Fprintf(out, "Stored %s in %s.\n", s.name, where)
	}
	path, err := setup.Write(cfg.Dir, setup.Change{Provider: a.choice.Name, Model: a.model, Settings: a.settings})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Wrote %s: active_provider %s, model %s.\n", path, a.choice.Name, a.model)
	fmt.Fprintf(out, "goose and goose-ls now use %s (%s) with %s.\n", a.choice.DisplayName, a.choice.Name, a.model)
	for _, k := range []string{"GOOSE_PROVIDER", "GOOSE_MODEL"} {
		if v, ok := cfg.Env()(k); ok {
			fmt.Fprintf(out, "Note: %s=%s in this environment overrides config.yaml; unset it to use this choice.\n", k, v)
		}
	}
	return nil
}
