// Every diagnostic code is documented in docs/diagnostics.md, and every documented code exists.

package recipe_test

import (
	"os"
	"regexp"
	"testing"
)

func TestDiagnosticCodesDocumented(t *testing.T) {
	src, err := os.ReadFile("diagnostic.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/diagnostics.md")
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, m := range regexp.MustCompile(`Code\w+\s+= "([A-Z0-9-]+)"`).FindAllSubmatch(src, -1) {
		codes[string(m[1])] = true
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^### ([A-Z0-9-]+)$`).FindAllSubmatch(doc, -1) {
		documented[string(m[1])] = true
	}
	if len(codes) < 30 {
		t.Fatalf("found only %d codes in diagnostic.go", len(codes))
	}
	for c := range codes {
		if !documented[c] {
			t.Errorf("code %s is not documented in docs/diagnostics.md", c)
		}
	}
	for c := range documented {
		if !codes[c] {
			t.Errorf("docs/diagnostics.md documents %s, which no rule reports", c)
		}
	}
}
