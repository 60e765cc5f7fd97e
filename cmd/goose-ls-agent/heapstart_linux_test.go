// The heap's huge pages (internal/heapstart): the built goose-ls-agent initialises heapstart right after
// syscall, before the SDKs, SQLite and net/http, whose initialisers are what it is there for.

package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/internal/testbin"
)

const heapStartPkg = "github.com/goose-ls/goose-ls/cmd/goose-ls-agent/internal/heapstart"

// heapHeavyPackages allocate in their initialisers (each has an init line in GODEBUG=inittrace=1).
var heapHeavyPackages = []string{
	"github.com/openai/openai-go/v3", "github.com/openai/openai-go/v3/responses", "github.com/anthropics/anthropic-sdk-go",
	"modernc.org/libc", "net/http", "github.com/goose-ls/goose-ls/recipe/template", "go.yaml.in/yaml/v3",
}

func TestHeapStartInitialisesBeforeHeavyPackages(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "goose-ls-agent")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	order, stdout := testbin.InitOrder(t, bin, "version")
	if !strings.HasPrefix(stdout, "goose-ls-agent ") {
		t.Fatalf("goose-ls-agent version printed %q", stdout)
	}
	at := slices.Index(order, heapStartPkg)
	if at < 0 {
		t.Fatalf("%s did not initialise; order: %v", heapStartPkg, order)
	}
	if sys := slices.Index(order, "syscall"); sys < 0 || sys > at {
		t.Errorf("heapstart initialised at %d, before syscall (%d)", at, sys)
	}
	for _, heavy := range heapHeavyPackages {
		i := slices.Index(order, heavy)
		if i < 0 {
			t.Errorf("%s has no initialiser any more: update heapHeavyPackages", heavy)
		} else if i < at {
			t.Errorf("%s initialised (%d) before heapstart (%d)", heavy, i, at)
		}
	}
}
