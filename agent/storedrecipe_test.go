// The recipe stored with a session is goose's: parsed, with the load-time additions goose makes.

package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// recipeKeeper is a Recorder that keeps what a run hands it as the session's recipe.
type recipeKeeper struct{ recipe string }

func (k *recipeKeeper) SetProvider(string, string) {}
func (k *recipeKeeper) Record(provider.Message)    {}
func (k *recipeKeeper) Usage(provider.Usage)       {}
func (k *recipeKeeper) SetRecipe(rendered string)  { k.recipe = rendered }

func TestStoredRecipeCarriesTheLoadTimeAdditions(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "main.yaml")
	text := "title: Main\ndescription: d\nprompt: go\nextensions:\n  - type: builtin\n    name: developer\nsub_recipes:\n  - name: child\n    path: ./child.yaml\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	keeper := &recipeKeeper{}
	model := &capture{}
	_, err := RunRecipe(context.Background(), RunOptions{RecipePath: path, Workspace: tools.Disk{Dir: root}, Lookup: noLookup,
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
		},
		Recorder: keeper})
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Title      string `json:"title"`
		Extensions []struct {
			Type, Name string
		} `json:"extensions"`
	}
	if err := json.Unmarshal([]byte(keeper.recipe), &stored); err != nil {
		t.Fatalf("stored recipe is not JSON: %v\n%s", err, keeper.recipe)
	}
	var names []string
	for _, e := range stored.Extensions {
		names = append(names, e.Type+":"+e.Name)
	}
	if stored.Title != "Main" || len(names) != 3 || names[0] != "builtin:developer" || names[1] != "platform:analyze" || names[2] != "platform:summon" {
		t.Errorf("stored recipe %s: extensions %v, want developer, analyze, summon", keeper.recipe, names)
	}
}
