// Listing: every parseable *.yaml/*.json of each search folder, broken files skipped, names listed per folder.

package library

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestList(t *testing.T) {
	env, _ := testEnv(t)
	global := filepath.Join(env.Home, ".agents/recipes")
	project := filepath.Join(env.Cwd, ".goose/recipes")
	writeFile(t, filepath.Join(global, "review.yaml"), "title: Global review\ndescription: Reviews everything\nprompt: p\n")
	writeFile(t, filepath.Join(project, "review.yaml"), "title: Project review\ndescription: ''\nprompt: p\n")
	writeFile(t, filepath.Join(project, "deploy.json"), `{"title": "Deploy", "description": "Ships it", "prompt": "p"}`)
	writeFile(t, filepath.Join(project, "broken.yaml"), "title: [unclosed\n")
	writeFile(t, filepath.Join(project, "no-title.yaml"), "description: d\nprompt: p\n")
	writeFile(t, filepath.Join(project, "notes.md"), "# not a recipe\n")
	mkdir(t, filepath.Join(project, "folder.yaml"))
	got := Resolver{Env: env}.List()
	// goose keeps each folder's read_dir order; compare per folder as a set, folders in search order
	if len(got) != 3 || got[0].Path != filepath.Join(global, "review.yaml") {
		t.Fatalf("List = %+v", got)
	}
	rest := got[1:]
	sort.Slice(rest, func(i, j int) bool { return rest[i].Name < rest[j].Name })
	want := []Entry{
		{Name: "review", Source: "Local", Path: filepath.Join(global, "review.yaml"), Title: "Global review", Description: "Reviews everything"},
		{Name: "deploy", Source: "Local", Path: filepath.Join(project, "deploy.json"), Title: "Deploy", Description: "Ships it"},
		{Name: "review", Source: "Local", Path: filepath.Join(project, "review.yaml"), Title: "Project review", Description: ""},
	}
	if diff := cmp.Diff(want, append(got[:1:1], rest...)); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	wantJSON := `[{"name":"review","source":"Local","path":"` + want[0].Path + `","title":"Global review","description":"Reviews everything"}]`
	if j := EntriesJSON(want[:1]); j != wantJSON {
		t.Errorf("EntriesJSON = %s\nwant %s", j, wantJSON)
	}
}
