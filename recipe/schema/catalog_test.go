// The schema is ready for SchemaStore: a stable $id equal to the catalog entry's url, a title, and the
// catalog's fileMatch patterns named in its documentation.

package schema

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestCatalogEntry(t *testing.T) {
	var sch struct {
		ID          string `json:"$id"`
		Schema      string `json:"$schema"`
		Title       string `json:"title"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(JSON(), &sch); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../schemastore/catalog-entry.json")
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Name, Description, URL string
		FileMatch              []string `json:"fileMatch"`
	}
	if err := json.Unmarshal(data, &entry); err != nil {
		t.Fatal(err)
	}
	if sch.ID != "https://json.schemastore.org/goose-recipe.json" || entry.URL != sch.ID {
		t.Errorf("$id %q and catalog url %q must both be https://json.schemastore.org/goose-recipe.json", sch.ID, entry.URL)
	}
	if sch.Title != "goose recipe" || entry.Name == "" || entry.Description == "" {
		t.Errorf("title %q, catalog name %q, description %q", sch.Title, entry.Name, entry.Description)
	}
	for _, want := range []string{"**/.goose/recipes/*.yaml", "**/.agents/recipes/*.yaml", "*.recipe.yaml"} {
		found := false
		for _, m := range entry.FileMatch {
			found = found || m == want
		}
		if !found {
			t.Errorf("catalog fileMatch lacks %s: %v", want, entry.FileMatch)
		}
		if !strings.Contains(sch.Description, want) {
			t.Errorf("schema description does not name %s", want)
		}
	}
}
