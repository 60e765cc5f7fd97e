// The render behind --render-recipe and goose.render equals goose's own template engine (mj-oracle, the
// minijinja goose builds, driven as goose drives it) on every corpus recipe, with generated values.

package library

import (
	"bufio"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

const (
	oracleBin = "../../../shared/tools/minijinja-oracle-2.24/mj-oracle"
	corpusDir = "../../../shared/corpus/recipes"
)

type oracleRequest struct {
	ID     string            `json:"id"`
	Text   string            `json:"text"`
	Dir    string            `json:"dir"`
	Values map[string]string `json:"values"`
}

type oracleAnswer struct {
	ID           string          `json:"id"`
	StrictOutput *string         `json:"strict_output"`
	StrictError  json.RawMessage `json:"strict_error"`
	Panic        json.RawMessage `json:"panic"`
}

// generatedValues gives every declared parameter a value of its type (file parameters get text, as if the
// file had been read), plus recipe_dir.
func generatedValues(f *recipe.File) map[string]string {
	values := map[string]string{recipe.BuiltinRecipeDir: f.Dir()}
	if f.Recipe == nil {
		return values
	}
	for _, p := range f.Recipe.Parameters {
		v := "value of " + p.Key
		switch p.InputType {
		case "number":
			v = "3"
		case "boolean":
			v = "true"
		case "date":
			v = "2026-01-02"
		case "file":
			v = "line one\nline two"
		case "select":
			if p.Options != nil && len(p.Options.Items) > 0 {
				v = p.Options.Items[0].Value
			}
		}
		values[p.Key] = v
	}
	return values
}

func TestRenderMatchesOracle(t *testing.T) {
	if _, err := os.Stat(oracleBin); err != nil {
		t.Fatalf("mj-oracle not found (expected ../shared/tools beside the checkout): %v", err)
	}
	var paths []string
	err := filepath.WalkDir(corpusDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".json")) {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil || len(paths) < 100 {
		t.Fatalf("corpus: %d files, %v", len(paths), err)
	}
	type item struct {
		file   *recipe.File
		values map[string]string
	}
	items := map[string]item{}
	var reqs []oracleRequest
	for _, p := range paths {
		abs, _ := filepath.Abs(p)
		text, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		f := recipe.Check(abs, text, &recipe.Options{NoSubRecipes: true})
		values := generatedValues(f)
		items[p] = item{f, values}
		reqs = append(reqs, oracleRequest{ID: p, Text: string(text), Dir: f.Dir(), Values: values})
	}
	answers := runOracle(t, reqs)
	rendered, bothFailed := 0, 0
	for _, p := range paths {
		a, ok := answers[p]
		if !ok {
			t.Errorf("%s: no answer from the oracle", p)
			continue
		}
		if a.Panic != nil {
			continue // minijinja itself panicked: nothing to compare
		}
		it := items[p]
		out, err := Render(context.Background(), it.file, it.values, nil)
		switch {
		case a.StrictOutput != nil && err != nil && out == nil:
			t.Errorf("%s: goose renders it, goose-ls fails: %v", p, err)
		case a.StrictOutput != nil:
			rendered++
			if out.Text != *a.StrictOutput {
				t.Errorf("%s: render differs from goose's\n--- goose\n%s\n--- goose-ls\n%s", p, *a.StrictOutput, out.Text)
			}
		case out != nil:
			t.Errorf("%s: goose fails (%s), goose-ls renders it", p, a.StrictError)
		default:
			bothFailed++
		}
	}
	t.Logf("%d corpus recipes rendered identically, %d fail in both", rendered, bothFailed)
	if rendered < len(paths)/2 {
		t.Errorf("only %d of %d corpus recipes rendered", rendered, len(paths))
	}
}

// runOracle sends every request to one mj-oracle process and reads one answer per request.
func runOracle(t *testing.T, reqs []oracleRequest) map[string]oracleAnswer {
	t.Helper()
	cmd := exec.Command(oracleBin)
	var in strings.Builder
	enc := json.NewEncoder(&in)
	for _, r := range reqs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	cmd.Stdin = strings.NewReader(in.String())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answers := map[string]oracleAnswer{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var a oracleAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("oracle answer: %v", err)
		}
		answers[a.ID] = a
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mj-oracle: %v", err)
	}
	return answers
}
