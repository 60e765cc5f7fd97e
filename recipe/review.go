// Review: a recipe file's errors and warnings as one text for an agent that just wrote it (appended to
// the write's tool result by the front ends whose workspaces implement tools.Reviewer).

package recipe

import (
	"fmt"
	"strings"
)

// Review checks data as the recipe at abs and lists its errors and warnings (at most 20), or returns ""
// when the file is not a recipe or has none.
func Review(abs string, data []byte) string {
	if !LooksLikeRecipe(abs, data) {
		return ""
	}
	f := Check(abs, data, nil)
	var b strings.Builder
	n := 0
	for _, d := range f.Diags {
		if d.Severity > SeverityWarning {
			continue
		}
		if n == 0 {
			b.WriteString("goose-ls found problems in this recipe:")
		}
		if n == 20 {
			b.WriteString("\n  …")
			break
		}
		p := f.Lines.RunePos(d.R.Start)
		sev := "error"
		if d.Severity == SeverityWarning {
			sev = "warning"
		}
		fmt.Fprintf(&b, "\n  %d:%d: %s: %s [%s]", p.Line+1, p.Col+1, sev, d.Message, d.Code)
		n++
	}
	return b.String()
}
