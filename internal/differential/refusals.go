// goose's template loader today refuses what mj-oracle's loader (goose 1.38's) still reads: a name that is
// absolute, has a `..` component, or whose real path (symlinks followed) leaves the recipe's folder
// (goose-today.md §2.2 item 4; crates/goose/src/recipe/template_recipe.rs, load_template_from_recipe_dir).
// The harness applies that rule to the templates the oracle's render loaded.

package differential

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// outsideMessage is goose's loader error (an InvalidOperation, so minijinja prints its kind first).
const outsideMessage = "invalid operation: template path must stay within the recipe directory"

// gooseRefuses reports whether goose's loader refuses name in dir before reading it.
func gooseRefuses(dir, name string) bool {
	if filepath.IsAbs(name) || slices.Contains(strings.Split(name, "/"), "..") {
		return true
	}
	real, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return false // missing or unreadable: goose answers as its loader always did
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(realDir, real)
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// refusal is goose's answer to a render that reached a load of a name goose refuses: the validation render
// fails at that statement. The loads are found in the text (the statements naming a literal template);
// one counts when the oracle's render ran it: a name the render loaded, or, when the render failed (the
// oracle then lists nothing loaded), a statement before the failing line (goose stops at the load first;
// a generated statement loads before it does anything else). Refused names are only in statements the
// generated recipes run. Nil when goose refuses nothing the render reached.
func refusal(dir, text string, o *MJAnswer) *MJError {
	if o.Syntax != nil || o.Crashed || o.Panic != nil || (o.LenientError != nil && o.LenientError.Line == nil) {
		return nil
	}
	for _, m := range loadStmtRE.FindAllStringSubmatchIndex(text, -1) {
		line := strings.Count(text[:m[0]], "\n") + 1
		if o.LenientError != nil && *o.LenientError.Line < line {
			return nil
		}
		for _, q := range quotedRE.FindAllString(text[m[2]:m[3]], -1) {
			name := q[1 : len(q)-1]
			if !gooseRefuses(dir, name) || (o.LenientError == nil && !slices.Contains(o.Loaded, name)) {
				continue
			}
			return &MJError{Kind: "InvalidOperation", Line: &line, Display: fmt.Sprintf("%s (in recipe:%d)", outsideMessage, line)}
		}
	}
	return nil
}

// loadStmtRE is a statement that loads templates by name; group 1 is what follows the keyword.
var loadStmtRE = regexp.MustCompile(`\{%[-+]?\s*(?:include|import|from|extends)\s([^%]*)%\}`)
