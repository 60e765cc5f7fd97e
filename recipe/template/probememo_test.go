// The probe memo changes how often goose's pre-processing parses a brace content, never its result.

package template

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestPreprocessWithMemoMatchesWithout(t *testing.T) {
	texts := []string{
		"a: {{ x | upper }} {{ 1 + }} {{ y }}\nb: {{ not valid( }} and {{ 1 + }} again\n",
		"a: {{ x | upper }} {{ y.z }}\nb: {{ ??? }}\n",
		"plain text, no braces\n",
	}
	memo := &ProbeMemo{}
	for round := 0; round < 2; round++ { // the second round answers from the memo
		for _, src := range texts {
			if got, want := PreprocessCached(src, memo), Preprocess(src); !reflect.DeepEqual(got, want) {
				t.Errorf("round %d, %q: with memo %+v, without %+v", round, src, got, want)
			}
		}
	}
	if len(memo.parses) == 0 || memo.parses[" 1 + "] || !memo.parses[" x | upper "] {
		t.Errorf("memo holds %v", memo.parses)
	}
}

func TestProbeMemoStaysBounded(t *testing.T) {
	memo := &ProbeMemo{}
	for i := 0; i < 3; i++ {
		var b strings.Builder
		for j := 0; j < maxProbeMemo/2+10; j++ {
			fmt.Fprintf(&b, "{{ v%d_%d | f }}\n", i, j)
		}
		PreprocessCached(b.String(), memo)
		if len(memo.parses) > maxProbeMemo {
			t.Fatalf("memo grew to %d answers", len(memo.parses))
		}
	}
}
