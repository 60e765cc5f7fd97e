// The harness: runs cases through the references and goose-ls, and tallies agreement per dimension.

package differential

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// engineWorkers check cases at once (the machine CI runs on has two cores; the references run beside).
const engineWorkers = 2

// Harness owns the reference processes and the fixture folder.
type Harness struct {
	mj   *MiniJinja
	yaml *LibYAML
	// Dir is the recipe's folder (fixtures inside), shared by the references and goose-ls.
	Dir string
}

// NewHarness starts the references; dir receives the fixture templates.
func NewHarness(p Paths, dir string) (*Harness, error) {
	if err := WriteFixtures(dir); err != nil {
		return nil, err
	}
	mj, err := StartMiniJinja(p.Oracle())
	if err != nil {
		return nil, err
	}
	y, err := StartLibYAML()
	if err != nil {
		mj.Close()
		return nil, err
	}
	return &Harness{mj: mj, yaml: y, Dir: dir}, nil
}

// Close stops the references.
func (h *Harness) Close() {
	h.mj.Close()
	h.yaml.Close()
}

// Result is one case with its findings.
type Result struct {
	Case     Case
	Findings []Finding
	// RefFailed: a reference could not answer this case.
	RefFailed bool
	// BudgetStop: goose-ls stopped the render on its evaluation budget (a value past 1 MiB, too many
	// steps), a deliberate bound for untrusted input that goose does not have: a listed exception, left
	// out of every dimension and counted.
	BudgetStop bool
}

// budgetStopped reports a render goose-ls stopped on its budget (template.ErrBudget's words).
func budgetStopped(e *EngineResult) bool {
	for _, m := range []*string{e.Runtime, e.StrictErr} {
		if m != nil && strings.Contains(*m, "template evaluation stopped: ") {
			return true
		}
	}
	return false
}

// Evaluate runs every case: the oracle answers in its own process while goose-ls checks.
func (h *Harness) Evaluate(cases []Case) []Result {
	reqs := make([]MJRequest, len(cases))
	for i, c := range cases {
		reqs[i] = MJRequest{Text: c.Text, Dir: h.Dir, Values: c.Values, WantPre: true}
	}
	answersCh := make(chan []MJAnswer, 1)
	go func() { answersCh <- h.mj.AskAll(reqs) }()
	engine := make([]EngineResult, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for range engineWorkers {
		wg.Go(func() {
			for i := range next {
				engine[i] = RunEngine(h.Dir, cases[i].Text, cases[i].Values)
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	answers := <-answersCh
	for i := range answers {
		answers[i].Refused = refusal(h.Dir, cases[i].Text, &answers[i])
	}
	var texts []string
	var at []int
	for i := range cases {
		if t, ok := yamlInput(&answers[i]); ok {
			texts = append(texts, t)
			at = append(at, i)
		}
	}
	yamlAnswers := make([]*YAMLAnswer, len(cases))
	for k, a := range h.yaml.AskAll(texts) {
		yamlAnswers[at[k]] = &a
	}
	results := make([]Result, len(cases))
	for i := range cases {
		a := &answers[i]
		refFailed := a.Crashed || a.Panic != nil || (yamlAnswers[i] != nil && yamlAnswers[i].Crashed)
		if budgetStopped(&engine[i]) {
			results[i] = Result{Case: cases[i], BudgetStop: true}
			continue
		}
		results[i] = Result{Case: cases[i], Findings: Compare(&cases[i], a, &engine[i], yamlAnswers[i]), RefFailed: refFailed}
	}
	return results
}

// Tally is the agreement per dimension.
type Tally struct {
	Cases, TemplateCases, YAMLCases int
	// RefFailures counts cases a reference could not answer (mj-oracle crashed or panicked on the whole
	// input, or python died): they are left out of every dimension.
	RefFailures int
	// BudgetStops counts the cases goose-ls's evaluation budget stopped (Result.BudgetStop).
	BudgetStops  int
	Agree, Total [numDims]int
	Elapsed      time.Duration
}

// Percent is the agreement of d in percent (100 when nothing was compared).
func (t *Tally) Percent(d Dim) float64 {
	if t.Total[d] == 0 {
		return 100
	}
	return 100 * float64(t.Agree[d]) / float64(t.Total[d])
}

// Count adds results to the tally.
func (t *Tally) Count(results []Result) {
	for _, r := range results {
		t.Cases++
		if r.Case.IsTemplate() {
			t.TemplateCases++
		} else {
			t.YAMLCases++
		}
		if r.RefFailed {
			t.RefFailures++
		}
		if r.BudgetStop {
			t.BudgetStops++
		}
		for _, f := range r.Findings {
			t.Total[f.Dim]++
			if f.Agree {
				t.Agree[f.Dim]++
			}
		}
	}
}

// Table prints the agreement table.
func (t *Tally) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d cases (%d template, %d YAML) in %s; %d left out (a reference failed), %d stopped by goose-ls's evaluation budget (listed exception)\n",
		t.Cases, t.TemplateCases, t.YAMLCases, t.Elapsed.Round(time.Millisecond), t.RefFailures, t.BudgetStops)
	fmt.Fprintf(&b, "| %-27s | %8s | %8s | %8s | %6s |\n", "dimension", "agree", "compared", "percent", "target")
	for d := range numDims {
		target := "100 %"
		if d.IsMessage() {
			target = "99 %"
		}
		fmt.Fprintf(&b, "| %-27s | %8d | %8d | %7.2f%% | %6s |\n", d, t.Agree[d], t.Total[d], t.Percent(d), target)
	}
	return b.String()
}

// TempFixtureDir makes a folder for the fixtures under base (the recipe's folder is a child, so a path
// that leaves it leaves the fixtures too).
func TempFixtureDir(base string) (string, error) {
	dir := filepath.Join(base, "recipes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("fixture folder: %w", err)
	}
	return dir, nil
}
