// Command alternate times commands run by run in turn (A, B, A, B, ...), so a shared machine's load
// falls on all of them alike (hyperfine runs all of one command's runs, then the next's), and reports
// each one's wall time and its ratio to the first command.
//
//	alternate -n 100 "bin/startup/readfile small.yaml" "bin/goose-ls check small.yaml"
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 100, "runs of each command")
	warmup := flag.Int("warmup", 5, "uncounted rounds first")
	flag.Parse()
	cmds := flag.Args()
	if len(cmds) < 2 {
		fmt.Fprintln(os.Stderr, "alternate: give at least two commands")
		os.Exit(2)
	}
	times := make([][]time.Duration, len(cmds))
	for round := 0; round < *warmup+*n; round++ {
		for i, c := range cmds {
			d := once(strings.Fields(c))
			if round >= *warmup {
				times[i] = append(times[i], d)
			}
		}
	}
	med := func(ds []time.Duration) time.Duration { return ds[len(ds)/2] }
	for i := range times {
		slices.Sort(times[i])
	}
	fmt.Printf("%-60s %10s %10s %10s %12s\n", "command", "min", "median", "p90", "median/1st")
	for i, c := range cmds {
		ds := times[i]
		fmt.Printf("%-60s %10s %10s %10s %11.1fx\n", c, ms(ds[0]), ms(med(ds)), ms(ds[len(ds)*9/10]),
			float64(med(ds))/float64(med(times[0])))
	}
	fmt.Printf("(%d runs each, alternating)\n", *n)
}

// once runs argv to its end and returns the wall time; a command that fails stops the benchmark.
func once(argv []string) time.Duration {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) { // `check` exits 1 on findings
		fmt.Fprintf(os.Stderr, "alternate: %s: %v\n", strings.Join(argv, " "), err)
		os.Exit(1)
	}
	return d
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }
