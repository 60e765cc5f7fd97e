// The early exec (internal/earlyexec): the built goose-ls initialises earlyexec before its heavy
// packages, and `run`, `acp` and `sessions` reach goose-ls-agent before those initialise; what goose-ls answers itself (--explain, --render-recipe, other
// commands) never starts the agent.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testbin"
)

// earlyExecPkg is the package whose initialiser execs the agent.
const earlyExecPkg = "github.com/goose-ls/goose-ls/cmd/goose-ls/internal/earlyexec"

// heavyPackages are goose-ls dependencies whose initialisers allocate or register: earlyexec must
// run before each (every one of them has an init line in GODEBUG=inittrace=1).
var heavyPackages = []string{
	"go.yaml.in/yaml/v3", "go.yaml.in/yaml/v4/internal/libyaml", "github.com/santhosh-tekuri/jsonschema/v5",
	"net/http", "github.com/goose-ls/goose-ls/recipe/template", "github.com/goose-ls/goose-ls/recipe/yamltree",
	"github.com/goose-ls/goose-ls/lsp",
}

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
)

// builtGooseLS is goose-ls built once for these tests, alone in its folder.
func builtGooseLS(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "earlyexec")
		if err != nil {
			builtErr = err
			return
		}
		builtBin = filepath.Join(dir, "goose-ls")
		if out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput(); err != nil {
			builtErr = &buildError{err: err, out: string(out)}
		}
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return builtBin
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// initOrder is testbin.InitOrder: the packages bin initialised, in order, and its stdout.
var initOrder = testbin.InitOrder

func TestEarlyExecInitialisesBeforeHeavyPackages(t *testing.T) {
	pkgs, _ := initOrder(t, builtGooseLS(t), "version")
	early := slices.Index(pkgs, earlyExecPkg)
	if early < 0 {
		t.Fatalf("%s did not initialise: %v", earlyExecPkg, pkgs)
	}
	for _, heavy := range heavyPackages {
		at := slices.Index(pkgs, heavy)
		if at < 0 {
			t.Errorf("%s has no init line (pick another heavy package): %v", heavy, pkgs)
		} else if at < early {
			t.Errorf("%s initialised before %s (%d < %d)", heavy, earlyExecPkg, at, early)
		}
	}
}

func TestAgentCommandsExecBeforeGooseLSInitialises(t *testing.T) {
	// goose-ls beside a stand-in goose-ls-agent that prints its arguments
	bin := filepath.Join(installBeside(t, builtGooseLS(t), "#!/bin/sh\necho \"agent $*\"\n", 0o755), "goose-ls")
	for _, args := range [][]string{{"run", "--prompt", "hi"}, {"run", "r.yaml", "--no-session"}, {"run", "explain.yaml"}, {"acp", "--debug"}, {"sessions"}} {
		pkgs, stdout := initOrder(t, bin, args...)
		if want := "agent " + strings.Join(args, " ") + "\n"; stdout != want {
			t.Errorf("%v: stdout %q, want %q", args, stdout, want)
		}
		if !slices.Contains(pkgs, "os") || slices.Contains(pkgs, earlyExecPkg) {
			// earlyexec's own line never comes (its initialiser does not return); os's shows the trace was on
			t.Errorf("%v: init trace %v", args, pkgs)
		}
		for _, heavy := range heavyPackages {
			if slices.Contains(pkgs, heavy) {
				t.Errorf("%v: %s initialised before the agent was started", args, heavy)
			}
		}
	}
	// what goose-ls answers itself runs through its own packages and never starts the agent
	for _, args := range [][]string{{"run", "missing.yaml", "--explain"}, {"run", "-explain=1", "missing.yaml"}, {"run", "--render-recipe", "missing.yaml"}, {"version"}} {
		pkgs, stdout := initOrder(t, bin, args...)
		if strings.Contains(stdout, "agent ") {
			t.Errorf("%v started the agent: %q", args, stdout)
		}
		if !slices.Contains(pkgs, "go.yaml.in/yaml/v3") {
			t.Errorf("%v: goose-ls's own packages did not initialise: %v", args, pkgs)
		}
	}
	// an argument that only looks like those flags goes the long way: main parses and execs
	pkgs, stdout := initOrder(t, bin, "run", "--prompt", "--render-recipe please")
	if stdout != "agent run --prompt --render-recipe please\n" || !slices.Contains(pkgs, "go.yaml.in/yaml/v3") {
		t.Errorf("a --prompt value like a flag: stdout %q, packages %v", stdout, pkgs)
	}
}

// heapStartPkg advises the heap of check and recipe for huge pages (internal/heapstart).
const heapStartPkg = "github.com/goose-ls/goose-ls/cmd/goose-ls/internal/heapstart"

func TestHeapStartInitialisesAfterEarlyExecBeforeHeavyPackages(t *testing.T) {
	pkgs, _ := initOrder(t, builtGooseLS(t), "check", "missing.yaml")
	early, heap := slices.Index(pkgs, earlyExecPkg), slices.Index(pkgs, heapStartPkg)
	if early < 0 || heap < 0 {
		t.Fatalf("earlyexec at %d, heapstart at %d: %v", early, heap, pkgs)
	}
	if heap < early {
		t.Errorf("heapstart (%d) initialised before earlyexec (%d): agent commands would pay for it", heap, early)
	}
	for _, heavy := range heavyPackages {
		if at := slices.Index(pkgs, heavy); at >= 0 && at < heap {
			t.Errorf("%s initialised before %s (%d < %d)", heavy, heapStartPkg, at, heap)
		}
	}
}
