// Typing: the heavy recipe open alone in the server while a user types into its instructions for a while
// (insert a word character by character, then delete it, as an editor sends it), waiting for each edit's
// diagnostics; resident memory is sampled along the way to show whether it grows per edit.

package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

// typedWord is what the typist writes, then erases, again and again.
const typedWord = "careful "

func typing(argv []string, dur time.Duration) {
	sess := openHeavy(argv)
	defer sess.close()
	c, ctx, uri, ch, cmd := sess.c, context.Background(), sess.uri, sess.diags, sess.cmd
	pid := cmd.Process.Pid
	fmt.Printf("typing into %s (%d lines) for %s\n", filepath.Base(uri), countLines(sess.text), dur)
	fmt.Printf("%10s %10s %12s %12s %12s\n", "elapsed", "edits", "RSS KiB", "peak KiB", "edit p50")
	line := testgen.HeavyInstructionsFirstLine + 2 // a prose line of the first section
	version, edits := 1, 0
	var lat []time.Duration
	var samples []rssSample
	first := currentRSS(pid)
	start, nextSample := time.Now(), time.Duration(0)
	for time.Since(start) < dur {
		for i := 0; i < 2*len(typedWord); i++ {
			version++
			var change map[string]any
			if i < len(typedWord) { // type the i-th character
				change = map[string]any{"range": rng(line, 2+i, line, 2+i), "text": typedWord[i : i+1]}
			} else { // backspace
				k := 2*len(typedWord) - i - 1
				change = map[string]any{"range": rng(line, 2+k, line, 3+k), "text": ""}
			}
			drain(ch)
			t0 := time.Now()
			_ = c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": []any{change}})
			if !wait(ch, 5*time.Second) {
				fail(fmt.Errorf("no diagnostics after edit %d", edits))
			}
			lat = append(lat, time.Since(t0))
			edits++
		}
		if el := time.Since(start); el >= nextSample {
			rss := currentRSS(pid)
			samples = append(samples, rssSample{edits, rss})
			fmt.Printf("%10s %10d %12d %12d %12s\n", el.Round(time.Second), edits, rss, peakRSS(pid), ms(pct(lat, 0.5)))
			lat = lat[:0]
			nextSample += dur / 10
		}
	}
	last := currentRSS(pid)
	fmt.Printf("RSS after opening %d KiB, after %d edits %d KiB, peak %d KiB\n", first, edits, last, peakRSS(pid))
	if len(samples) >= 5 {
		warm := samples[1:] // the first sample is taken while the heap still grows to its working size
		a, b := warm[:len(warm)/2], warm[len(warm)/2:]
		growth := meanRSS(b) - meanRSS(a)
		perK := growth * 1000 / float64(max(meanEdits(b)-meanEdits(a), 1))
		fmt.Printf("after warm-up: mean RSS %.0f KiB (first half) → %.0f KiB (second half): %+.1f KiB per 1,000 edits\n",
			meanRSS(a), meanRSS(b), perK)
	}
}

type rssSample struct{ edits, rssKiB int }

func meanRSS(s []rssSample) float64 {
	t := 0
	for _, x := range s {
		t += x.rssKiB
	}
	return float64(t) / float64(len(s))
}

func meanEdits(s []rssSample) float64 {
	t := 0
	for _, x := range s {
		t += x.edits
	}
	return float64(t) / float64(len(s))
}

func countLines(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			n++
		}
	}
	return n
}
