// CLI tests: exit codes, the exact JSON shape with UTF-16 columns, SARIF, folder discovery.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func init() {
	// an in-process test reaching goose-ls-agent would replace the test binary: fail it instead
	replaceProcess = func(bin string, args []string, stderr io.Writer) int {
		panic(fmt.Sprintf("test ran %s %v in process: run the built binary instead", bin, args))
	}
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckExamplesPass(t *testing.T) {
	code, out, errs := runCLI(t, "check", "../../examples")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "16 files checked: 0 errors, 0 warnings") {
		t.Errorf("summary: %q", out)
	}
}

func TestCheckJSONExact(t *testing.T) {
	dir := t.TempDir()
	// the emoji is two UTF-16 code units: `who` starts at UTF-16 character 18 of line 2 (it would be 17 counting code points)
	p := write(t, dir, "r.yaml", "title: T\ndescription: D\nprompt: \"😀 hi {{ who }}\"\n")
	code, out, _ := runCLI(t, "check", "--format", "json", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := `{"files":[{"path":"` + p + `","diagnostics":[{"range":{"start":{"line":2,"character":18},"end":{"line":2,"character":21}},"severity":"error","code":"PARAM-UNDEFINED","message":"Missing definitions for parameters in the recipe file: who."}]}]}` + "\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("json (-want +got):\n%s", diff)
	}
}

func TestCheckTextAndSARIF(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "r.yml", "title: T\ndescription: D\nprompt: hi\nparameters:\n  - key: x\n    input_type: string\n    requirement: optional\n    description: d\n")
	code, out, _ := runCLI(t, "check", p)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, line := range []string{
		p + ":1:1: warning: Recipe file r.yml is not a json or yaml file",
		p + ":5:5: error: Unnecessary parameter definitions: x. [PARAM-UNUSED]",
		p + ":7:5: error: Optional parameters missing default values in the recipe: x. Please provide defaults. [PARAM-OPTIONAL-NO-DEFAULT]",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("text output lacks %q:\n%s", line, out)
		}
	}
	code, out, _ = runCLI(t, "check", "--format", "sarif", p)
	if code != 1 {
		t.Fatalf("sarif exit %d", code)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine, StartColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("sarif is not JSON: %v", err)
	}
	if doc.Version != "2.1.0" || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name != "goose-ls" {
		t.Fatalf("sarif header: %+v", doc)
	}
	res := doc.Runs[0].Results
	if len(res) != 3 || len(doc.Runs[0].Tool.Driver.Rules) != 3 {
		t.Fatalf("want 3 results and rules, got %d and %d", len(res), len(doc.Runs[0].Tool.Driver.Rules))
	}
	for _, r := range res {
		if r.RuleID == "PARAM-UNUSED" && (r.Level != "error" || r.Locations[0].PhysicalLocation.Region.StartLine != 5 || r.Locations[0].PhysicalLocation.Region.StartColumn != 5) {
			t.Errorf("PARAM-UNUSED result: %+v", r)
		}
		if r.RuleID == "CLI-FILE-EXTENSION" && r.Level != "warning" {
			t.Errorf("extension warning level: %s", r.Level)
		}
	}
}

func TestFolderDiscoveryAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "title: T\ndescription: D\nprompt: hi\n")
	write(t, dir, "not-a-recipe.yaml", "name: ci\non: push\n")
	write(t, dir, "recipes/b.yaml", "title: T\ndescription: D\ninstructions: hi\n")
	write(t, dir, "node_modules/c.yaml", "title: T\ndescription: D\nprompt: {{ broken\n")
	code, out, _ := runCLI(t, "check", dir)
	if code != 0 || !strings.Contains(out, "2 files checked: 0 errors") {
		t.Errorf("exit %d, output %q", code, out)
	}
	if code, _, _ := runCLI(t, "check"); code != 2 {
		t.Errorf("no paths: exit %d, want 2", code)
	}
	if code, _, _ := runCLI(t, "check", "--format", "xml", dir); code != 2 {
		t.Errorf("bad format: exit %d, want 2", code)
	}
	if code, _, errs := runCLI(t, "check", filepath.Join(dir, "missing.yaml")); code != 2 || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runCLI(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, out, _ := runCLI(t, "schema")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["$schema"] != "http://json-schema.org/draft-07/schema#" {
		t.Fatalf("schema output invalid (exit %d)", code)
	}
}

// BenchmarkCheckCorpus is `goose-ls check` over the whole conformance corpus.
func BenchmarkCheckCorpus(b *testing.B) {
	var out, errb bytes.Buffer
	for b.Loop() {
		out.Reset()
		if code := run([]string{"check", "../../../shared/corpus/recipes"}, &out, &errb); code != 1 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
}

// TestCheckRelatedLocations: a diagnostic moved onto the construct to fix keeps the engine's place as
// relatedInformation in JSON and as a relatedLocation in SARIF.
func TestCheckRelatedLocations(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "r.yaml", "title: T\ndescription: D\nprompt: |\n  {% if true %}\n  text\n")
	code, out, _ := runCLI(t, "check", "--format", "json", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := `{"files":[{"path":"` + p + `","diagnostics":[{"range":{"start":{"line":3,"character":2},"end":{"line":3,"character":15}},"severity":"error","code":"TPL-SYNTAX",` +
		`"message":"syntax error: unexpected end of input, expected end of block (in recipe:4)",` +
		`"relatedInformation":[{"location":{"path":"` + p + `","range":{"start":{"line":5,"character":0},"end":{"line":5,"character":0}}},"message":"goose's template engine (minijinja) reaches the end of the text here"}]}]}]}` + "\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("json (-want +got):\n%s", diff)
	}

	code, out, _ = runCLI(t, "check", "--format", "sarif", p)
	if code != 1 {
		t.Fatalf("sarif exit %d", code)
	}
	type region struct{ StartLine, StartColumn, EndLine, EndColumn int }
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID           string `json:"ruleId"`
				RelatedLocations []struct {
					ID               *int `json:"id"`
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           region               `json:"region"`
					} `json:"physicalLocation"`
					Message struct{ Text string } `json:"message"`
				} `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("sarif is not JSON: %v", err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Results) != 1 || len(doc.Runs[0].Results[0].RelatedLocations) != 1 {
		t.Fatalf("want one result with one related location: %s", out)
	}
	rl := doc.Runs[0].Results[0].RelatedLocations[0]
	if rl.ID == nil || *rl.ID != 0 || rl.PhysicalLocation.ArtifactLocation.URI != filepath.ToSlash(p) ||
		rl.PhysicalLocation.Region != (region{6, 1, 6, 1}) || !strings.Contains(rl.Message.Text, "minijinja") {
		t.Errorf("related location: %+v", rl)
	}
}
