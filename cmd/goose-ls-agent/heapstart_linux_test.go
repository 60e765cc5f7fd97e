// The heap's huge pages (internal/heapstart): the built goose-ls-agent initialises heapstart right after
// syscall, before the SDKs, SQLite and net/http, whose initialisers are what it is there for; a one-shot
// command maps the binary's code at once, a long-lived one does not.

package main

import (
	"bufio"
	"debug/elf"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/internal/testbin"
)

const heapStartPkg = "github.com/goose-ls/goose-ls/cmd/goose-ls-agent/internal/heapstart"

// heapHeavyPackages allocate in their initialisers (each has an init line in GODEBUG=inittrace=1).
var heapHeavyPackages = []string{
	"github.com/openai/openai-go/v3", "github.com/openai/openai-go/v3/responses", "github.com/anthropics/anthropic-sdk-go",
	"modernc.org/libc", "net/http", "github.com/goose-ls/goose-ls/recipe/template", "go.yaml.in/yaml/v3",
}

func TestHeapStartInitialisesBeforeHeavyPackages(t *testing.T) {
	bin := testbin.Build(t).Agent
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

// TestOneShotCommandsMapTheWholeImage: a `run` waiting for its provider holds the binary's whole read-only
// image in its page tables (file-backed resident memory past the image's size); `acp` waiting for its
// client does not.
func TestOneShotCommandsMapTheWholeImage(t *testing.T) {
	bin := testbin.Build(t).Agent
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	var image uint64
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_W == 0 {
			image += p.Memsz
		}
	}
	f.Close()
	arrived, release := make(chan bool, 1), make(chan bool)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- true
		<-release
	}))
	defer provider.Close()
	defer close(release)
	home := t.TempDir()
	env := []string{"HOME=" + home, "GOOSE_PATH_ROOT=" + filepath.Join(home, "goose"), "GOOSE_PROVIDER=openai",
		"GOOSE_MODEL=gpt-4o", "OPENAI_API_KEY=sk-test", "OPENAI_HOST=" + provider.URL}
	fileResident := func(cmd *exec.Cmd, ready func()) uint64 {
		cmd.Env, cmd.Dir = env, home
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		ready()
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(status), "\n") {
			if kb, ok := strings.CutPrefix(line, "RssFile:"); ok {
				n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				return n << 10
			}
		}
		t.Fatalf("no RssFile in %s", status)
		return 0
	}
	run := fileResident(exec.Command(bin, "run", "--no-session", "--prompt", "hi"), func() {
		select {
		case <-arrived:
		case <-time.After(time.Minute):
			t.Fatal("run never reached its provider")
		}
	})
	acpCmd := exec.Command(bin, "acp", "--no-session")
	in, _ := acpCmd.StdinPipe()
	out, _ := acpCmd.StdoutPipe()
	acp := fileResident(acpCmd, func() {
		fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
			t.Fatalf("acp answered %q, %v", line, err)
		}
	})
	t.Logf("read-only image %d MiB; file-backed resident: run %d MiB, acp %d MiB", image>>20, run>>20, acp>>20)
	if run < image {
		t.Errorf("run holds %d MiB of file-backed pages, less than the %d MiB image: the image was not mapped at start", run>>20, image>>20)
	}
	if acp >= image*3/4 {
		t.Errorf("acp holds %d MiB of file-backed pages of a %d MiB image: a long-lived command mapped it whole", acp>>20, image>>20)
	}
}
