// Delta debugging: cut an input down while its disagreement (same dimension, same class) persists.

package differential

import (
	"strings"
	"unicode/utf8"
)

// shrinkBatch is how many candidates go to the references at once.
const shrinkBatch = 8

// Shrinker reduces inputs through the harness; Evals counts the candidate evaluations spent.
type Shrinker struct {
	h     *Harness
	Evals int
	// MaxRounds bounds the batches tried per unit size (lines, then characters) of one input.
	MaxRounds int
}

// NewShrinker returns a shrinker with a bound of rounds per unit size.
func NewShrinker(h *Harness, maxRounds int) *Shrinker { return &Shrinker{h: h, MaxRounds: maxRounds} }

// Shrink returns the smallest text found that still shows the disagreement f on c (values kept).
func (s *Shrinker) Shrink(c Case, f Finding) string {
	holds := func(texts []string) int {
		// a few candidates per batch: the first that keeps the disagreement ends the round
		for from := 0; from < len(texts); from += shrinkBatch {
			cases := make([]Case, 0, shrinkBatch)
			for _, t := range texts[from:min(from+shrinkBatch, len(texts))] {
				k := c
				k.Text = t
				cases = append(cases, k)
			}
			s.Evals += len(cases)
			for i, r := range s.h.Evaluate(cases) {
				for _, g := range r.Findings {
					if !g.Agree && g.Dim == f.Dim && g.Class == f.Class {
						return from + i
					}
				}
			}
		}
		return -1
	}
	units := splitLines(c.Text)
	units = s.reduce(units, holds)
	units = splitRunes(strings.Join(units, ""))
	units = s.reduce(units, holds)
	return strings.Join(units, "")
}

// reduce is ddmin's complement pass: remove one chunk at a time (all chunks of a size tried in one
// batch), halving the chunk size when none can go.
func (s *Shrinker) reduce(units []string, holds func([]string) int) []string {
	n := 2
	for rounds := 0; len(units) >= 2 && rounds < s.MaxRounds; rounds++ {
		chunk := (len(units) + n - 1) / n
		var cands []string
		var kept [][]string
		for i := 0; i < len(units); i += chunk {
			rest := append(append([]string{}, units[:i]...), units[min(i+chunk, len(units)):]...)
			kept = append(kept, rest)
			cands = append(cands, strings.Join(rest, ""))
		}
		if k := holds(cands); k >= 0 {
			units = kept[k]
			n = max(n-1, 2)
			continue
		}
		if n >= len(units) {
			break
		}
		n = min(2*n, len(units))
	}
	return units
}

func splitLines(s string) []string { return strings.SplitAfter(s, "\n") }

func splitRunes(s string) []string {
	out := make([]string, 0, len(s))
	for len(s) > 0 {
		_, size := utf8.DecodeRuneInString(s)
		out = append(out, s[:size])
		s = s[size:]
	}
	return out
}
