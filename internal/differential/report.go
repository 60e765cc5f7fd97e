// The disagreement report: classes by dimension, each with its count, its cases and a shrunk reproduction.

package differential

import (
	"fmt"
	"sort"
	"strings"
)

// Class is one kind of disagreement with every case that shows it.
type Class struct {
	Dim   Dim
	Key   string
	Cases []string // case names, in run order
	// Smallest is the shortest input of the class, Finding its disagreement there.
	Smallest Case
	Finding  Finding
	// Repro is Smallest shrunk (empty when the shrink budget ran out before this class).
	Repro string
}

// Classify groups the disagreements of results, the most frequent classes first.
func Classify(results []Result) []*Class {
	byKey := map[string]*Class{}
	var order []*Class
	for _, r := range results {
		for _, f := range r.Findings {
			if f.Agree {
				continue
			}
			k := f.Dim.String() + "\x00" + f.Class
			c := byKey[k]
			if c == nil {
				c = &Class{Dim: f.Dim, Key: f.Class, Smallest: r.Case, Finding: f}
				byKey[k] = c
				order = append(order, c)
			}
			c.Cases = append(c.Cases, r.Case.Name)
			if len(r.Case.Text) < len(c.Smallest.Text) {
				c.Smallest, c.Finding = r.Case, f
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return len(order[i].Cases) > len(order[j].Cases) })
	return order
}

// ShrinkAll shrinks the smallest input of each class, the most frequent first, until maxEvals candidate
// evaluations are spent (a deterministic budget, so a run on fixed seeds always prints the same report).
func ShrinkAll(h *Harness, classes []*Class, maxEvals, maxRounds int) {
	s := NewShrinker(h, maxRounds)
	for _, c := range classes {
		if s.Evals >= maxEvals {
			return
		}
		c.Repro = s.Shrink(c.Smallest, c.Finding)
	}
}

// Report prints every class: the dimension, what each side says, how many cases and which, and the
// reproduction (shrunk, or the smallest case when the budget ran out), with the values given.
func Report(classes []*Class) string {
	var b strings.Builder
	for i, c := range classes {
		fmt.Fprintf(&b, "\n#%d %s — %s — %d case(s)\n", i+1, c.Dim, c.Key, len(c.Cases))
		fmt.Fprintf(&b, "   goose:    %q\n   goose-ls: %q\n", clip(c.Finding.Goose, 300), clip(c.Finding.GooseLS, 300))
		names := c.Cases
		if len(names) > 8 {
			names = append(append([]string{}, names[:8]...), fmt.Sprintf("… %d more", len(c.Cases)-8))
		}
		fmt.Fprintf(&b, "   cases: %s\n", strings.Join(names, ", "))
		repro, how := c.Repro, "shrunk"
		if repro == "" {
			repro, how = c.Smallest.Text, "not shrunk (budget spent; -shrinkevals), smallest case "+c.Smallest.Name
			if len(repro) > 400 {
				how += fmt.Sprintf(", first 400 of %d bytes", len(repro))
				repro = clip(repro, 400)
			}
		}
		fmt.Fprintf(&b, "   reproduction (%s): %q\n", how, repro)
		if c.Dim == DimRun || c.Dim == DimRunOutput || c.Dim == DimRunMsg {
			fmt.Fprintf(&b, "   values: %s\n", formatValues(c.Smallest.Values))
		}
	}
	return b.String()
}

func formatValues(v map[string]string) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%q", k, v[k])
	}
	return strings.Join(parts, " ")
}
