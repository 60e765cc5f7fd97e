// Split mappings parse to the same tree as one parse of the whole text.

package yamltree

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe/source"
)

func TestSplitAgrees(t *testing.T) {
	var many strings.Builder
	for i := range 23 {
		fmt.Fprintf(&many, "k%d: v%d # c\n", i, i)
	}
	for _, src := range []string{
		many.String(),
		"a: 1\nb:\n  x: 1\n  y: [1, 2]\n  z: {q: r}\nc: |\n  text\n   more\n\nd: >-\n  f\n# comment\ne: &anc\n  - 1\n  - 2\nf: *anc\ng:\n- s1\n- s2\nh: 'q # not'\ni: \"multi\n  line\"\nj: plain\n  continued\nk: last",
		"list:\n  - name: a\n    k1: 1\n    k2: 2\n    k3: 3\n    k4: 4\n  - name: b\n    k1: 1\n    k2: 2\nafter: 1\n",
		"outer:\n  in1: 1\n  in2:\n    d1: 1\n    d2: 2\n    d3: 3\n    d4: 4\n  in3: 3\n  in4: 4\n  in5: 5\ntail: t\n",
		"a: 1\r\nb: 2\r\nc: |\r\n  x\r\nd: 4\r\ne: 5\r\n",
		"\"q1\": 1\n'q2': 2\nk3: 3\nk4: 4\nk5: 5\n---\nx: 1\n",
	} {
		li := source.NewLineIndex([]byte(src))
		sh := precheckShapeN(li, 2)
		if sh.err != nil {
			t.Fatalf("%q: %v", src, sh.err)
		}
		if len(sh.splits) == 0 {
			t.Fatalf("nothing split in %q", src)
		}
		want, _ := parse(li, nil, nil, nil, nil)
		got, _ := parse(li, nil, nil, sh.splits, nil)
		if want.err != nil || got.err != nil {
			t.Fatalf("%q: errors %v / %v", src, want.err, got.err)
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(Document{})); d != "" {
			t.Errorf("split parse differs for %q (-want +got):\n%s", src, d)
		}
	}
}

// TestSplitErrorLine: a syntax error after a mapping long enough to be split is libyaml's, where
// libyaml reports it (the unclosed flow sequence: at the end of the text), whatever goccy's runs say.
func TestSplitErrorLine(t *testing.T) {
	var sb strings.Builder
	for i := range 250 {
		fmt.Fprintf(&sb, "k%d: v\n", i)
	}
	sb.WriteString("bad: [unclosed\n")
	src := sb.String()
	_, err := Parse(source.NewLineIndex([]byte(src)))
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("want *Error, got %v", err)
	}
	// the bracket is what to fix (construct.go)
	open := strings.Index(src, "[unclosed")
	want := Error{Offset: len(src), Msg: "did not find expected ',' or ']'",
		ContextMsg: "while parsing a flow sequence", Context: open, Construct: open, HasConstruct: true, AtEnd: true}
	if *e != want {
		t.Errorf("split parse error %+v, want %+v", *e, want)
	}
}
