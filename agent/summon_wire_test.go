// summon over both vendors' wire formats: a sub-recipe's fixed `values` win over the parameters the
// model's `delegate` passes (goose reversed 1.38 here), a caller key the values do not set is kept, and
// load() lists a sub-recipe before a same-named file in the sections Subrecipes, Recipes, Agents.
package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// userTexts is the JSON of a request's messages (both vendors put the user's text there).
func userTexts(body map[string]any) string {
	b, _ := json.Marshal(body["messages"])
	return string(b)
}

func runOverWire(t *testing.T, v wiretest.Vendor, root string, script wiretest.Script) *wiretest.Server {
	t.Helper()
	srv := v.Serve(script)
	t.Cleanup(srv.Close)
	out, err := RunRecipe(context.Background(), RunOptions{RecipePath: filepath.Join(root, "parent.yaml"), Workspace: tools.Disk{Dir: root},
		Lookup: noLookup, Mode: ModeAuto,
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: v.Provider(srv.URL), Name: v.Name, Model: "m"}, nil
		}})
	if err != nil || out.Status != StatusCompleted {
		t.Fatalf("run: %v %s %v", err, out.Status, out.Err)
	}
	return srv
}

func TestSubRecipeValuesWinOverDelegateParameters(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "parent.yaml"), delegatingParent)
			writeFile(t, filepath.Join(root, "sub", "report.yaml"), reportChild)
			srv := runOverWire(t, v, root, func(n int, _ map[string]any) wiretest.Reply {
				switch n {
				case 0: // the parent delegates, trying to override the fixed topic
					return wiretest.Reply{Calls: []wiretest.Call{call("delegate", `{"source":"report","parameters":{"topic":"ducks","count":3,"style":"terse"}}`)}}
				case 1: // the sub-agent's first turn
					return wiretest.Reply{Text: "report written"}
				}
				return wiretest.Reply{Text: "Delegated."}
			})
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests", len(reqs))
			}
			child := userTexts(reqs[1])
			if !strings.Contains(child, "Write report.txt with one line about goose in terse style, 3 times.") || strings.Contains(child, "ducks") {
				t.Errorf("the sub-agent's prompt: %s", child)
			}
			if !strings.Contains(toolResultsText(reqs[2]), "report written") {
				t.Errorf("the delegate's result did not reach the parent: %s", toolResultsText(reqs[2]))
			}
		})
	}
}

func TestLoadListsSubRecipesBeforeFiles(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, "parent.yaml"), "title: Parent\ndescription: Lists.\nprompt: go\nsub_recipes:\n  - name: report\n    path: ./sub/report.yaml\n    description: The sub-recipe\n")
			writeFile(t, filepath.Join(root, "sub", "report.yaml"), reportChild)
			writeFile(t, filepath.Join(root, "report.yaml"), "title: Report file\ndescription: A recipe file of the same name.\nprompt: x\n")
			writeFile(t, filepath.Join(root, ".goose", "agents", "alpha.md"), "---\nname: alpha\ndescription: An agent.\n---\nBody.\n")
			srv := runOverWire(t, v, root, func(n int, _ map[string]any) wiretest.Reply {
				if n == 0 {
					return wiretest.Reply{Calls: []wiretest.Call{call("load", `{}`)}}
				}
				return wiretest.Reply{Text: "Listed."}
			})
			got := toolResultsText(srv.Requests()[1])
			var listing string
			if err := json.Unmarshal([]byte(strings.TrimSpace(jsonString(got, "Available sources"))), &listing); err != nil {
				t.Fatalf("no listing in %s", got)
			}
			want := "Available sources for load/delegate:\n\nSubrecipes:\n• report - The sub-recipe\n\nRecipes:\n• parent - Lists.\n\nAgents:\n• alpha - An agent.\n"
			if !strings.HasPrefix(listing, want) {
				t.Errorf("listing %q, want it to start with %q", listing, want)
			}
		})
	}
}

// jsonString is the JSON string literal in s that contains marker (with its quotes), or "".
func jsonString(s, marker string) string {
	i := strings.Index(s, marker)
	if i < 0 {
		return ""
	}
	start := strings.LastIndex(s[:i], `"`)
	for j := i; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == '"' {
			return s[start : j+1]
		}
	}
	return ""
}
