// Where diagnostics point: each broken recipe of ranges_cases_test.go must be reported on the text its author must fix.

package recipe_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

// splitMarks removes the marks from src: «…» around the construct to fix, and ‹…› (optional) around the
// place a related location must point at. It returns the text and the two ranges (related: -1 when absent).
func splitMarks(t *testing.T, src string) (text string, mark, related recipe.Range) {
	t.Helper()
	var b strings.Builder
	mark, related = recipe.Range{Start: -1, End: -1}, recipe.Range{Start: -1, End: -1}
	for _, r := range src {
		switch r {
		case '«':
			mark.Start = b.Len()
		case '»':
			mark.End = b.Len()
		case '‹':
			related.Start = b.Len()
		case '›':
			related.End = b.Len()
		default:
			b.WriteRune(r)
		}
	}
	if mark.Start < 0 || mark.End < mark.Start {
		t.Fatalf("case has no «…» mark")
	}
	return b.String(), mark, related
}

// onConstruct reports whether d points at the marked construct: it starts inside it (or at it, for an
// empty mark) and ends before the end of the construct's last line.
func onConstruct(text string, d, mark recipe.Range) bool {
	if d.Start < mark.Start || d.Start > mark.End || (d.Start == mark.End && mark.End > mark.Start) {
		return false
	}
	lineEnd := strings.IndexByte(text[mark.End:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text) - mark.End
	}
	return d.End <= mark.End+lineEnd
}

func TestRangesPointWhereTheUserActs(t *testing.T) {
	away := 0
	for _, c := range rangeCases {
		text, mark, related := splitMarks(t, c.src)
		dir := t.TempDir()
		for name, content := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		name := c.file
		if name == "" {
			name = "recipe.yaml"
		}
		f := recipe.Check(filepath.Join(dir, name), []byte(text), nil)
		var found *recipe.Diagnostic
		for i := range f.Diags {
			if f.Diags[i].Code == c.code {
				found = &f.Diags[i]
				break
			}
		}
		if found == nil {
			t.Errorf("%s: no %s diagnostic; got:", c.name, c.code)
			for _, d := range f.Diags {
				t.Logf("  %s: %s", diagLine(f, d), d.Message)
			}
			away++
			continue
		}
		if !onConstruct(text, found.R, mark) {
			away++
			ms, me := f.Lines.RunePos(mark.Start), f.Lines.RunePos(mark.End)
			t.Errorf("%s: %s (%s) is away from the construct at %d:%d-%d:%d", c.name, diagLine(f, *found), found.Message,
				ms.Line+1, ms.Col+1, me.Line+1, me.Col+1)
		}
		if related.Start >= 0 && !hasRelatedAt(found.Related, related) {
			t.Errorf("%s: %s has no related location at %v: %+v", c.name, diagLine(f, *found), related, found.Related)
		}
	}
	t.Logf("%d of %d ranges away from the construct to fix", away, len(rangeCases))
}

// hasRelatedAt: one of rel starts inside want (at it, for an empty want).
func hasRelatedAt(rel []recipe.Related, want recipe.Range) bool {
	for _, r := range rel {
		if r.R.Start >= want.Start && (r.R.Start < want.End || r.R.Start == want.Start) {
			return true
		}
	}
	return false
}
