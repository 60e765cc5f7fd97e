// TestMain bounds fuzz minimization for FuzzServerFrames, whose executions run a whole server.
package lsp_test

import (
	"flag"
	"os"
	"regexp"
	"testing"
)

// serverFramesMinimize is FuzzServerFrames's minimization budget unless -fuzzminimizetime is given.
// Go minimizes every new interesting input before it fuzzes on, in the worker and without reporting
// progress, and its minimizer tries on the order of n² candidates for an n-byte input: at about a
// millisecond per execution (a server starts and stops in each) and inputs of several hundred bytes,
// the default budget of 60 s per input was spent in full again and again, and fuzzing looked stalled.
const serverFramesMinimize = "3s"

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if fz := flag.Lookup("test.fuzz"); !given && fz != nil && fz.Value.String() != "" {
		if re, err := regexp.Compile(fz.Value.String()); err == nil && re.MatchString("FuzzServerFrames") {
			_ = flag.Set("test.fuzzminimizetime", serverFramesMinimize)
		}
	}
	os.Exit(m.Run())
}
