// The differential test: goose-ls against mj-oracle and libyaml on fixed seeds, or on fresh seeds
// (`make differential SEEDS=n`, i.e. -args -fresh=n; -args -seeds=a,b to reproduce a fresh run).

package differential

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	freshSeeds = flag.Int("fresh", 0, "run this many fresh random seeds (printed) instead of the fixed ones, against issue 12's targets")
	givenSeeds = flag.String("seeds", "", "comma-separated seeds to run (reproduces a fresh run), against issue 12's targets")
	shrinkFlag = flag.Int("shrinkevals", 0, "candidate evaluations the shrinker may spend (0: 20,000 on the fixed seeds, no limit on fresh ones)")
)

// fixedSeeds are CI's: 5 × (1,000 template + 400 YAML) = 5,000 template and 2,000 YAML cases.
var fixedSeeds = []uint64{1, 2, 3, 4, 5}

const (
	templatesPerSeed = 1000
	yamlPerSeed      = 400
	// loadsPerSeed recipes include, import or extend templates that use variables (genloads.go)
	loadsPerSeed = 200
	// the shrink budget on the fixed seeds (candidate evaluations for the whole report, most frequent
	// classes first; the rest print their smallest case), and the batches per unit size of one input
	shrinkEvals  = 20000
	shrinkRounds = 40
)

// floors are the agreement measured on the fixed seeds on 2026-11-23 (percent, rounded down to 0.01),
// raised after issue 12's first fixes (recipe/template, recipe/render, recipe/yamltree) and again after
// the YAML verdict moved to libyaml's port (recipe/yamltree/verdict.go) and template syntax errors took
// minijinja's line and grammar, and again after the filters, operators, map order and iterators of
// minijinja 2.20 (every template dimension at 100 %), and re-measured after the generator started calling
// filters, tests and globals with random arguments (gencalls.go; minijinja's argument binding), and again
// when the reference moved to minijinja 2.24 (issue 28: what goose resolves today) and the generator added
// recipes that load templates using variables (genloads.go; the parameter verdict): the test fails when
// goose-ls agrees less often than this. They are below issue 12's targets; raise them to the new figures
// as fixes land (a fix can also move a case into a dimension it was not compared in before, so re-measure
// rather than add).
var floors = [numDims]float64{
	DimSyntax:       100.00, // 8000 of 8000
	DimSyntaxMsg:    100.00, // 1725 of 1725 (minijinja's line in ` (in recipe:N)`)
	DimRender:       100.00, // 6275 of 6275 (goose's loader refusing paths that leave the recipe's folder)
	DimRenderMsg:    100.00, // 1801 of 1801 (minijinja's words for filters on wrong input types)
	DimRenderOutput: 100.00, // 4474 of 4474 (True/False/None since minijinja 2.22)
	DimVars:         100.00, // 4474 of 4474
	DimVarsMain:     100.00, // 6275 of 6275
	DimRun:          100.00, // 4474 of 4474
	DimRunOutput:    100.00, // 2732 of 2732
	DimRunMsg:       100.00, // 1742 of 1742
	DimYAML:         100.00, // 4474 of 4474 (libyaml's verdict through yaml/v3, issue 12 §4)
	// 99.95: the pre-processed `{#{% raw %}{{}}{% endraw %}#}` read as YAML (goose-ls's placement, unfixed)
	DimYAMLMsg: 99.95,  // 2254 of 2255 (line-start marks, NEL/LS/PS, `...`, escapes, read-ahead corrected)
	DimParams:  100.00, // 672 of 672 (variables of included, imported and parent templates)
}

// targets are issue 12's: 100 % on verdicts, variables and outputs, 99 % on messages.
func target(d Dim) float64 {
	if d.IsMessage() {
		return 99
	}
	return 100
}

func TestDifferential(t *testing.T) {
	seeds, want, wantName, budget := fixedSeeds, func(d Dim) float64 { return floors[d] }, "today's floor", shrinkEvals
	switch {
	case *givenSeeds != "":
		seeds = parseSeeds(t, *givenSeeds)
		want, wantName, budget = target, "issue 12's target", math.MaxInt
	case *freshSeeds > 0:
		seeds = make([]uint64, *freshSeeds)
		for i := range seeds {
			seeds[i] = rand.Uint64()
		}
		want, wantName, budget = target, "issue 12's target", math.MaxInt
	}
	if *shrinkFlag > 0 {
		budget = *shrinkFlag
	}
	t.Logf("seeds: %s", joinSeeds(seeds))
	p, err := FindPaths()
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := LoadCorpus(p.CorpusDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, err := TempFixtureDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHarness(p, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()

	start := time.Now()
	var tally Tally
	var results []Result
	for _, seed := range seeds {
		r := h.Evaluate(append(Generate(seed, templatesPerSeed, yamlPerSeed, corpus), GenerateLoads(seed, loadsPerSeed)...))
		tally.Count(r)
		results = append(results, r...)
	}
	tally.Elapsed = time.Since(start)
	if tally.TemplateCases < 5000*len(seeds)/len(fixedSeeds) || tally.YAMLCases < 2000*len(seeds)/len(fixedSeeds) {
		t.Fatalf("only %d template and %d YAML cases", tally.TemplateCases, tally.YAMLCases)
	}
	classes := Classify(results)
	shrinkStart := time.Now()
	ShrinkAll(h, classes, budget, shrinkRounds)
	t.Logf("agreement (seeds %s):\n%s", joinSeeds(seeds), tally.Table())
	t.Logf("%d disagreement classes (shrunk in %s):%s", len(classes), time.Since(shrinkStart).Round(time.Millisecond), Report(classes))
	t.Logf("this run's figures as floors (to paste into floors after a fix, on the fixed seeds):\n%s", floorsBlock(&tally))
	// the budget is a bound for hostile input: if it stops more than one case in a thousand, goose-ls's
	// engine is doing too much work for ordinary templates
	if tally.BudgetStops*1000 > tally.Cases {
		t.Errorf("%d of %d cases stopped by goose-ls's evaluation budget", tally.BudgetStops, tally.Cases)
	}
	for d := range numDims {
		if got := tally.Percent(d); got < want(d) {
			t.Errorf("%s: %.2f %% agreement (%d of %d), below %s %.2f %%", d, got, tally.Agree[d], tally.Total[d], wantName, want(d))
		}
	}
}

// floorsBlock writes the tally as the body of floors (percent rounded down to 0.01, with the counts).
func floorsBlock(t *Tally) string {
	var b strings.Builder
	for d := range numDims {
		fmt.Fprintf(&b, "\t%s %.2f, // %d of %d\n", dimConst[d]+":", math.Floor(t.Percent(d)*100)/100, t.Agree[d], t.Total[d])
	}
	return b.String()
}

var dimConst = [numDims]string{"DimSyntax", "DimSyntaxMsg", "DimRender", "DimRenderMsg", "DimRenderOutput", "DimVars",
	"DimVarsMain", "DimRun", "DimRunOutput", "DimRunMsg", "DimYAML", "DimYAMLMsg", "DimParams"}

func parseSeeds(t *testing.T, s string) []uint64 {
	var seeds []uint64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			t.Fatalf("seed %q: %v", f, err)
		}
		seeds = append(seeds, n)
	}
	return seeds
}

func joinSeeds(seeds []uint64) string {
	parts := make([]string, len(seeds))
	for i, s := range seeds {
		parts[i] = fmt.Sprint(s)
	}
	return strings.Join(parts, ",")
}
