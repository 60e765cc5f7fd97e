// Conformance against the corpus of real recipes: goose's verdicts (SOURCES.md) must match ours.

package recipe_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

const corpusDir = "../../shared/corpus"

type verdict struct {
	file   string
	reject bool
	text   string
}

// corpusVerdicts reads the verdict table of SOURCES.md.
func corpusVerdicts(t *testing.T) []verdict {
	t.Helper()
	fh, err := os.Open(filepath.Join(corpusDir, "SOURCES.md"))
	if err != nil {
		t.Fatalf("corpus not found (expected ../shared beside the checkout): %v", err)
	}
	defer fh.Close()
	row := regexp.MustCompile("^\\| ([^|]+) \\| `([^`]+)` \\| ([^|]+) \\| [^|]+ \\| (.+) \\|$")
	var out []verdict
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		repo := strings.ReplaceAll(strings.TrimSpace(m[1]), "/", "__")
		dir := filepath.Join(corpusDir, "recipes", repo)
		v := verdict{text: m[4], reject: strings.HasPrefix(m[4], "REJECT")}
		if strings.HasPrefix(m[4], "Historical version") {
			commit := regexp.MustCompile(`@([0-9a-f]{7})`).FindStringSubmatch(m[3])
			dir = filepath.Join(dir, "history", commit[1])
		}
		v.file = filepath.Join(dir, m[2])
		out = append(out, v)
	}
	return out
}

// expectedRule maps a REJECT verdict's reason to the rule code we must report.
func expectedRule(text string) string {
	switch {
	case strings.Contains(text, "Optional parameters missing default"), strings.Contains(text, "optional with no `default`"), strings.Contains(text, "optional parameter without default"):
		return recipe.CodeParamOptionalNoDefault
	case strings.Contains(text, "Unnecessary parameter"):
		return recipe.CodeParamUnused
	case strings.Contains(text, "no parameter of that name"):
		return recipe.CodeParamUndefined
	case strings.Contains(text, "YAML error"):
		return recipe.CodeYAMLSyntax
	}
	return ""
}

func TestCorpusConformance(t *testing.T) {
	verdicts := corpusVerdicts(t)
	if len(verdicts) < 190 {
		t.Fatalf("read only %d verdicts from SOURCES.md", len(verdicts))
	}
	for _, v := range verdicts {
		rel, _ := filepath.Rel(corpusDir, v.file)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(v.file)
			if err != nil {
				t.Fatal(err)
			}
			f := recipe.Check(v.file, data, nil)
			codes := map[string]bool{}
			for _, d := range f.Diags {
				if d.Severity == recipe.SeverityError {
					codes[d.Code] = true
				}
			}
			if !v.reject {
				for _, d := range f.Diags {
					if d.Severity == recipe.SeverityError {
						t.Errorf("goose accepts this file but we report %s at %v: %s", d.Code, f.Lines.RunePos(d.R.Start), d.Message)
					}
				}
				return
			}
			if len(codes) == 0 {
				t.Fatalf("goose rejects this file (%s) but we report no error", v.text)
			}
			if want := expectedRule(v.text); want != "" && !codes[want] {
				t.Errorf("want rule %s for %q, got %v", want, v.text, codes)
			}
		})
	}
}
