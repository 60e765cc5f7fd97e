// Edits: the heavy recipe open alone in the server while a user edits it as people do: typing into the
// instructions mixed with edits that change the recipe's structure (testgen.HeavyEdits: a top-level key
// renamed, a line dedented out of the instructions, an enum typo, a flow sequence left unclosed), each
// undone again, with typing while the structure is broken. Every edit waits for its diagnostics; the
// report gives didChange → publishDiagnostics p50/p95 per kind of edit, and the server's peak RSS.

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

// editKindBroken is typing while a structural edit has broken the recipe.
const editKindBroken = "typing (broken)"

// heavySession is a server with the heavy recipe open, the only document.
type heavySession struct {
	cmd     *exec.Cmd
	c       *client
	uri     string
	diags   chan struct{}
	text    string
	version int
	dir     string
}

func openHeavy(argv []string) *heavySession {
	dir, err := os.MkdirTemp("", "lspheavy")
	if err != nil {
		fail(err)
	}
	heavy := testgen.HeavyRecipe()
	path, err := testgen.WriteHeavy(dir, heavy)
	if err != nil {
		fail(err)
	}
	cmd, c := startClient(argv, "file://"+dir)
	ctx := context.Background()
	s := &heavySession{cmd: cmd, c: c, uri: "file://" + path, diags: make(chan struct{}, 1), text: heavy.Text, version: 1, dir: dir}
	c.mu.Lock()
	c.diags[s.uri] = s.diags
	c.mu.Unlock()
	_ = c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": s.uri, "languageId": "yaml", "version": 1, "text": heavy.Text}})
	if !wait(s.diags, 10*time.Second) {
		fail(fmt.Errorf("no diagnostics for %s", filepath.Base(path)))
	}
	return s
}

func (s *heavySession) close() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	os.RemoveAll(s.dir)
}

// apply sends e and returns the time until the server publishes the new text's diagnostics.
func (s *heavySession) apply(e testgen.Edit) time.Duration {
	s.version++
	drain(s.diags)
	t0 := time.Now()
	_ = s.c.conn.Notify(context.Background(), "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": s.uri, "version": s.version},
		"contentChanges": []any{map[string]any{"range": rng(e.Line, e.Start, e.Line, e.End), "text": e.Text}}})
	if !wait(s.diags, 5*time.Second) {
		fail(fmt.Errorf("no diagnostics after %s (version %d)", e.Kind, s.version))
	}
	d := time.Since(t0)
	s.text = e.Apply(s.text)
	return d
}

// edits runs rounds of: for each structural edit, a character typed and erased, the edit, a character
// typed and erased while the recipe is broken, and the edit's undo. With more than one server (an
// earlier build first), each round runs on every server in turn, the order alternating round by round,
// so both tables come from the same run on the same machine load.
func edits(servers [][]string, rounds int) {
	var sessions []*heavySession
	for _, argv := range servers {
		s := openHeavy(argv)
		defer s.close()
		sessions = append(sessions, s)
	}
	all := testgen.HeavyEdits(sessions[0].text)
	typing := all[0]
	lat := make([]map[string][]time.Duration, len(sessions))
	var order []string
	for i := range lat {
		lat[i] = map[string][]time.Duration{}
	}
	round := func(i int) {
		s := sessions[i]
		record := func(kind string, d time.Duration) {
			if i == 0 && len(lat[0][kind]) == 0 {
				order = append(order, kind)
			}
			lat[i][kind] = append(lat[i][kind], d)
		}
		typeAndErase := func(kind string) {
			before := s.text
			record(kind, s.apply(typing))
			record(kind, s.apply(typing.Undo(before)))
		}
		for _, e := range all[1:] {
			typeAndErase(testgen.EditTyping)
			before := s.text
			record(e.Kind, s.apply(e))
			typeAndErase(editKindBroken)
			record(e.Kind+" undo", s.apply(e.Undo(before)))
		}
	}
	for r := 0; r < rounds; r++ {
		for k := range sessions {
			round((r + k) % len(sessions))
		}
	}
	fmt.Printf("edits to heavy.recipe.yaml (%d lines), %d rounds: didChange → publishDiagnostics\n", countLines(sessions[0].text), rounds)
	sort.SliceStable(order, func(i, j int) bool { return order[i] == testgen.EditTyping && order[j] != testgen.EditTyping })
	fmt.Printf("%-22s %6s", "edit", "n")
	for i := range sessions {
		fmt.Printf(" %12s %12s", fmt.Sprintf("p50 [%d]", i+1), fmt.Sprintf("p95 [%d]", i+1))
	}
	fmt.Println()
	for _, k := range order {
		fmt.Printf("%-22s %6d", k, len(lat[0][k]))
		for i := range sessions {
			fmt.Printf(" %12s %12s", ms(pct(lat[i][k], 0.5)), ms(pct(lat[i][k], 0.95)))
		}
		fmt.Println()
	}
	for i, s := range sessions {
		fmt.Printf("[%d] %s: peak RSS %d KiB\n", i+1, strings.Join(servers[i], " "), peakRSS(s.cmd.Process.Pid))
	}
}
