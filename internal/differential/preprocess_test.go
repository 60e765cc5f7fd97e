// goose's literal-brace pre-processing against mj-oracle's (goose's own code path): random texts dense in
// braces, overlapping unparseable `{{…}}` texts and repeats, the pre-processed text compared byte for byte.

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe/template"
)

func TestPreprocessAgreesWithOracle(t *testing.T) {
	p, err := FindPaths()
	if err != nil {
		t.Fatal(err)
	}
	mj, err := StartMiniJinja(p.Oracle())
	if err != nil {
		t.Fatal(err)
	}
	defer mj.Close()
	pieces := []string{"{", "{{", "}}", "}", " ", "a", "b", " a b ", "\n", "x", "%", "-", "{% raw %}", "% raw %}",
		"{% endraw %}", "'", "{{ a b }}", "{{{ a b }}", "{{ x y }}", "{{{{ x y }}", "{{ 1 + }}", "{#", "#}", ": \"\""}
	rng := rand.New(rand.NewPCG(12, 0))
	var reqs []MJRequest
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for k := rng.IntN(20); k >= 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		reqs = append(reqs, MJRequest{ID: fmt.Sprint(i), Text: b.String(), WantPre: true})
	}
	changed, disagree := 0, 0
	for i, a := range mj.AskAll(reqs) {
		if a.Crashed || a.Pre == nil {
			t.Fatalf("mj-oracle gave no pre-processed text for %q", reqs[i].Text)
		}
		got := template.Preprocess(reqs[i].Text)
		if got.Err != nil {
			t.Fatalf("%q: %v", reqs[i].Text, got.Err)
		}
		if a.PreChanged {
			changed++
		}
		if got.Text != *a.Pre {
			if disagree++; disagree <= 5 {
				t.Errorf("Preprocess(%q)\n = %q\ngoose %q", reqs[i].Text, got.Text, *a.Pre)
			}
		}
	}
	// the texts must exercise the rewrite, not only pass through unchanged
	if changed < len(reqs)/4 {
		t.Fatalf("only %d of %d texts were changed by goose's pre-processing", changed, len(reqs))
	}
	t.Logf("%d texts, %d changed by goose, %d disagreements", len(reqs), changed, disagree)
}
