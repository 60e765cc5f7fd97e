// Soak: 1,000 open recipes, a burst of 100 edits per second for 30 s spread over them, while a probe
// document's didChange → publishDiagnostics latency is compared with idle, and RSS before and after.

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

func soak(argv []string, docs int, rate int, dur time.Duration) {
	dir, _ := os.MkdirTemp("", "lspsoak")
	defer os.RemoveAll(dir)
	cmd, c := startClient(argv, "")
	ctx := context.Background()
	text := testgen.Recipe(8, 30) // ~110 lines each
	uris := make([]string, docs)
	for i := range uris {
		uris[i] = "file://" + filepath.Join(dir, fmt.Sprintf("r%04d.recipe.yaml", i))
		_ = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uris[i], "languageId": "yaml", "version": 1, "text": text}})
	}
	// idle means the initial checks are done
	for t0 := time.Now(); time.Since(t0) < 60*time.Second; time.Sleep(50 * time.Millisecond) {
		c.mu.Lock()
		n := c.count
		c.mu.Unlock()
		if n >= docs {
			break
		}
	}
	probeText := testgen.Recipe(19, 90)
	idle := editLoop(c, dir, "probe.recipe.yaml", probeText, 50)
	time.Sleep(500 * time.Millisecond)
	rss0 := currentRSS(cmd.Process.Pid)

	stop := make(chan struct{})
	versions := make([]int, docs)
	go func() {
		tick := time.NewTicker(time.Second / time.Duration(rate))
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				d := i % docs
				versions[d]++
				ch := "X"
				if versions[d]%2 == 0 {
					ch = "S"
				}
				_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": uris[d], "version": versions[d] + 1},
					"contentChanges": []any{map[string]any{"range": rng(4, 2, 4, 3), "text": ch}},
				})
			}
		}
	}()
	var busy []time.Duration
	deadline := time.Now().Add(dur)
	probeURI := "file://" + filepath.Join(dir, "probe.recipe.yaml")
	pch := c.diags[probeURI]
	for v := 100; time.Now().Before(deadline); v++ {
		drain(pch)
		t0 := time.Now()
		_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": probeURI, "version": v},
			"contentChanges": []any{map[string]any{"range": rng(4, 2, 4, 3), "text": string("XS"[v%2])}},
		})
		if !wait(pch, 10*time.Second) {
			fail(fmt.Errorf("probe got no diagnostics during the burst"))
		}
		busy = append(busy, time.Since(t0))
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	time.Sleep(5 * time.Second) // let the last checks finish and the runtime return freed memory
	rss1 := currentRSS(cmd.Process.Pid)
	fmt.Printf("soak: %d open recipes, %d edits/s for %s\n", docs, rate, dur)
	fmt.Printf("probe (300 lines) didChange→diagnostics: idle p50 %s p99 %s; under burst p50 %s p99 %s (%.1fx idle p50)\n",
		ms(pct(idle, 0.5)), ms(pct(idle, 0.99)), ms(pct(busy, 0.5)), ms(pct(busy, 0.99)), float64(pct(busy, 0.5))/float64(pct(idle, 0.5)))
	fmt.Printf("RSS before burst %d KiB, after %d KiB; diagnostics published %d\n", rss0, rss1, c.count)
	_, _ = c.conn.Call(ctx, "shutdown", nil, nil)
	_ = c.conn.Notify(ctx, "exit", nil)
	_ = cmd.Wait()
}

// currentRSS reads the process's resident size (VmRSS) in KiB.
func currentRSS(pid int) int { return procStatusKiB(pid, "VmRSS:") }
