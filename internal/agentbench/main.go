// Command agentbench measures agent start-up: process start → the first request reaching a scripted
// provider (agent/provider/wiretest, OpenAI chat completions), for `goose-ls run --prompt` (which runs
// goose-ls-agent in its place), for `goose-ls-agent run --prompt` (both --no-session), for
// `goose-ls-agent run --prompt` storing its session (what a user runs: the SQLite store in GOOSE_PATH_ROOT)
// and for minagent (the standard-library baseline), alternating run by run on the same server.
//
//	agentbench -goose bin/goose-ls -agent bin/goose-ls-agent -min bin/minagent [-n 30] [-old DIR]
//	agentbench -serve     (the provider alone, with the environment to run any command against it by hand)
//
// -old DIR adds DIR/goose-ls and DIR/goose-ls-agent (an earlier build, installed side by side) to the same
// rotation, so a change is measured against its baseline under the same load.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

func main() {
	goose := flag.String("goose", "bin/goose-ls", "goose-ls binary")
	agentBin := flag.String("agent", "bin/goose-ls-agent", "goose-ls-agent binary (the agent process goose-ls runs in its place)")
	minimal := flag.String("min", "bin/minagent", "minimal agent binary")
	n := flag.Int("n", 30, "runs of each")
	old := flag.String("old", "", "a folder with an earlier goose-ls and goose-ls-agent to compare in the same rotation")
	serve := flag.Bool("serve", false, "only serve the scripted provider and print the environment a run needs (for strace or perf by hand)")
	flag.Parse()
	for _, p := range []*string{goose, agentBin, minimal} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			fail(err)
		}
		*p = abs
	}
	scripted := wiretest.OpenAI(wiretest.Replies(wiretest.Reply{Text: "Done."}))
	defer scripted.Close()
	arrivals := make(chan time.Time, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrivals <- time.Now():
		default:
		}
		scripted.Config.Handler.ServeHTTP(w, r)
	}))
	defer srv.Close()
	root, err := os.MkdirTemp("", "agentbench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		fail(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GOOSE_PATH_ROOT=" + filepath.Join(root, "goose"),
		"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_API_KEY=sk-bench-0001", "OPENAI_HOST=" + srv.URL}
	if *serve {
		serveOnly(work, env, arrivals)
		return
	}
	commands := map[string][]string{
		"goose-ls run":       {*goose, "run", "--no-session", "--prompt", "say done"},
		"goose-ls-agent run": {*agentBin, "run", "--no-session", "--prompt", "say done"},
		"agent run, session": {*agentBin, "run", "--prompt", "say done"},
		"minagent":           {*minimal, "say done"},
	}
	order := []string{"goose-ls run", "goose-ls-agent run", "agent run, session", "minagent"}
	if *old != "" {
		dir, err := filepath.Abs(*old)
		if err != nil {
			fail(err)
		}
		oldGoose, oldAgent := filepath.Join(dir, "goose-ls"), filepath.Join(dir, "goose-ls-agent")
		commands["old goose-ls run"] = []string{oldGoose, "run", "--no-session", "--prompt", "say done"}
		commands["old agent run"] = []string{oldAgent, "run", "--no-session", "--prompt", "say done"}
		commands["old agent, session"] = []string{oldAgent, "run", "--prompt", "say done"}
		order = []string{"goose-ls run", "old goose-ls run", "goose-ls-agent run", "old agent run", "agent run, session", "old agent, session", "minagent"}
	}
	times := map[string][]time.Duration{}
	for i := 0; i < *n+1; i++ { // the first round warms the page cache and is not counted
		for _, name := range order {
			d := once(commands[name], work, env, arrivals)
			if i > 0 {
				times[name] = append(times[name], d)
			}
		}
	}
	fmt.Printf("%-18s %10s %10s %10s\n", "agent", "min", "median", "p90")
	for _, name := range order {
		ds := times[name]
		slices.Sort(ds)
		fmt.Printf("%-18s %10s %10s %10s\n", name, ms(ds[0]), ms(ds[len(ds)/2]), ms(ds[len(ds)*9/10]))
	}
	m := times["minagent"]
	for _, name := range order[:len(order)-1] {
		g := times[name]
		fmt.Printf("%s / minagent: median %.1fx, min %.1fx\n", name, float64(g[len(g)/2])/float64(m[len(m)/2]), float64(g[0])/float64(m[0]))
	}
	fmt.Printf("(process start → first provider request, %d runs each, alternating)\n", *n)
}

// once runs argv and returns the time from starting it to the first request at the provider.
func once(argv []string, dir string, env []string, arrivals chan time.Time) time.Duration {
	for len(arrivals) > 0 {
		<-arrivals
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout = dir, env, io.Discard
	stderr, _ := os.CreateTemp("", "agentbench-stderr")
	defer os.Remove(stderr.Name())
	cmd.Stderr = stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		fail(err)
	}
	var first time.Time
	select {
	case first = <-arrivals:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
	}
	if err := cmd.Wait(); err != nil || first.IsZero() {
		msg, _ := os.ReadFile(stderr.Name())
		fail(fmt.Errorf("%s: %v (no request: %v): %s", argv[0], err, first.IsZero(), msg))
	}
	return first.Sub(start)
}

// serveOnly prints the folder and environment of a run (one `export` per line, for a shell) and keeps the
// scripted provider answering until SIGINT or SIGTERM, printing the arrival time of each request.
func serveOnly(work string, env []string, arrivals chan time.Time) {
	fmt.Printf("cd %s\n", work)
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Printf("export %s=%q\n", k, v)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	for {
		select {
		case t := <-arrivals:
			fmt.Fprintln(os.Stderr, "request at", t.Format("15:04:05.000000"))
		case <-ctx.Done():
			return // the caller's defers remove the folder and stop the servers
		}
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agentbench:", err)
	os.Exit(1)
}
