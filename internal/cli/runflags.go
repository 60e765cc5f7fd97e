// `run`'s flags, shared by goose-ls (which answers --explain and --render-recipe itself) and
// goose-ls-agent (which runs).

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/library"
)

// ParamFlags collects repeated --params k=v.
type ParamFlags map[string]string

func (p ParamFlags) String() string { return "" }
func (p ParamFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("--params wants KEY=VALUE, got %q", v)
	}
	p[strings.TrimSpace(k)] = val
	return nil
}

// RunFlags are `run`'s flags.
type RunFlags struct {
	Params    ParamFlags
	Prompt    string
	NoSession bool
	Output    string
	Resume    string
	MaxTurns  int
	Provider  string
	Model     string
	Workdir   string
	Debug     bool
	Recipe    string
	// explain and renderRecipe print the recipe (goose's --explain, --render-recipe) instead of running it
	Explain      bool
	RenderRecipe bool
}

// ParseRunFlags parses `run`'s arguments (flags and one recipe, in any order).
func ParseRunFlags(args []string, stderr io.Writer) (*RunFlags, error) {
	f := &RunFlags{Params: ParamFlags{}}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(f.Params, "params", "a parameter value KEY=VALUE (repeatable)")
	fs.StringVar(&f.Prompt, "prompt", "", "the first user message (replaces the recipe's prompt; required without a recipe)")
	fs.StringVar(&f.Prompt, "text", "", "same as --prompt")
	fs.BoolVar(&f.NoSession, "no-session", false, "do not store the session")
	fs.StringVar(&f.Output, "output", "text", "text or json")
	fs.StringVar(&f.Resume, "resume", "", "continue the session with this id")
	fs.IntVar(&f.MaxTurns, "max-turns", 0, "stop after this many turns (default: settings.max_turns, GOOSE_MAX_TURNS, 1000)")
	fs.StringVar(&f.Provider, "provider", "", "override the provider")
	fs.StringVar(&f.Model, "model", "", "override the model")
	fs.StringVar(&f.Workdir, "workdir", "", "the workspace folder (default: the current folder)")
	fs.BoolVar(&f.Debug, "debug", false, "log extension stderr and provider retries")
	fs.BoolVar(&f.Explain, "explain", false, "print the recipe's title, description and parameters and the values it would get; run nothing")
	fs.BoolVar(&f.RenderRecipe, "render-recipe", false, "print the recipe rendered with the values, as YAML, as goose loads it; run nothing")
	var positional []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) > 0 {
			positional = append(positional, args[0])
			args = args[1:]
		}
	}
	if len(positional) > 1 {
		return nil, fmt.Errorf("run takes one recipe, got %d: %s", len(positional), strings.Join(positional, " "))
	}
	if len(positional) == 1 {
		f.Recipe = positional[0]
	}
	if f.Output != "text" && f.Output != "json" {
		return nil, fmt.Errorf("--output must be text or json, got %q", f.Output)
	}
	if (f.Explain || f.RenderRecipe) && f.Recipe == "" {
		return nil, errors.New("--explain and --render-recipe need a recipe")
	}
	if f.Recipe == "" && f.Prompt == "" && f.Resume == "" {
		return nil, errors.New("Must provide a recipe, --prompt TEXT, or --resume ID")
	}
	return f, nil
}

// IsTerminal says whether f is a terminal.
func IsTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// PrepareRun is what both binaries do first for `run`: parse the flags, answer --explain and
// --render-recipe, and resolve a bare recipe name in goose's folders (f.Recipe becomes its path). done
// says the command is answered (with exit code code); otherwise f is the run to start.
func PrepareRun(args []string, stdout, stderr io.Writer) (f *RunFlags, code int, done bool) {
	f, err := ParseRunFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "goose-ls run:", err)
		}
		return nil, 2, true
	}
	switch {
	case f.Explain:
		return f, Explain(f, stdout, stderr), true
	case f.RenderRecipe:
		return f, RenderRecipe(f, stdout, stderr), true
	case f.Recipe != "" && !library.IsPath(f.Recipe): // a bare name: goose's recipe folders
		res, err := NewResolver().Resolve(f.Recipe)
		if err != nil {
			fmt.Fprintln(stderr, "goose-ls run:", err)
			return f, 1, true
		}
		f.Recipe = res.Path
	}
	return f, 0, false
}
