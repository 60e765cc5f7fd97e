// goose's load-time rewriting (analyze next to a builtin developer, summon for sub_recipes), the default
// profile, and tools sent sorted by name.
package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/tools"
)

func extensionNames(doc *Doc) []string {
	var out []string
	for _, e := range doc.Extensions {
		out = append(out, e.Type+":"+e.Name)
	}
	return out
}

func TestLoadTimeRewriting(t *testing.T) {
	const head = "title: T\ndescription: D\nprompt: p\n"
	cases := []struct {
		name, yaml string
		want       []string // nil: no extensions key after rewriting (the default profile)
	}{
		{"no extensions, no sub_recipes", "", nil},
		{"builtin developer gets analyze", "extensions:\n  - {type: builtin, name: developer}\n",
			[]string{"builtin:developer", "platform:analyze"}},
		{"analyze of any type already there", "extensions:\n  - {type: builtin, name: developer}\n  - {type: stdio, name: analyze, cmd: x}\n",
			[]string{"builtin:developer", "stdio:analyze"}},
		{"platform developer does not count", "extensions:\n  - {type: platform, name: developer}\n",
			[]string{"platform:developer"}},
		{"stdio named developer does not count", "extensions:\n  - {type: stdio, name: developer, cmd: x}\n",
			[]string{"stdio:developer"}},
		{"name is case-sensitive", "extensions:\n  - {type: builtin, name: Developer}\n",
			[]string{"builtin:Developer"}},
		{"sub_recipes without extensions: summon only", "sub_recipes:\n  - {name: a, path: a.yaml}\n",
			[]string{"platform:summon"}},
		{"empty sub_recipes list counts", "sub_recipes: []\n", []string{"platform:summon"}},
		{"null sub_recipes does not", "sub_recipes:\n", nil},
		{"summon appended to a list", "extensions:\n  - {type: stdio, name: x, cmd: x}\nsub_recipes: []\n",
			[]string{"stdio:x", "platform:summon"}},
		{"a summon of any type is kept", "extensions:\n  - {type: builtin, name: summon}\nsub_recipes: []\n",
			[]string{"builtin:summon"}},
		{"both, analyze first", "extensions:\n  - {type: builtin, name: developer}\nsub_recipes: []\n",
			[]string{"builtin:developer", "platform:analyze", "platform:summon"}},
		{"empty extensions list stays empty", "extensions: []\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := decodeDoc(head + c.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, extensionNames(doc)); diff != "" {
				t.Errorf("extensions (-want +got):\n%s", diff)
			}
			for _, e := range doc.Extensions {
				if e.Type == "platform" && (e.Name == "summon" || e.Name == "analyze") && (e.AvailableTools == nil || len(e.AvailableTools) != 0) {
					t.Errorf("appended %s: available_tools %#v, want []", e.Name, e.AvailableTools)
				}
			}
		})
	}
	doc, _ := decodeDoc(head + "extensions: []\n")
	if !doc.hasExtensions {
		t.Errorf("`extensions: []` must replace the profile (no extensions at all)")
	}
	doc, _ = decodeDoc(head + "extensions:\n")
	if doc.hasExtensions {
		t.Errorf("`extensions:` (null) is no list: the profile applies")
	}
}

// toolNames are the tool names of a request, in the order sent.
func toolNames(req provider.Request) []string {
	var out []string
	for _, t := range req.Tools {
		out = append(out, t.Name)
	}
	return out
}

func noticeTexts(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		if e.Kind == EventNotice {
			b.WriteString(e.Text + "\n")
		}
	}
	return b.String()
}

func TestDefaultProfileWithoutExtensionsKey(t *testing.T) {
	root := t.TempDir()
	model := &scriptedModel{reply: func(int, provider.Request) provider.Message { return provider.Message{Text: "Done."} }}
	rec := &recorder{}
	opts := RunOptions{
		Workspace: tools.Disk{Dir: root},
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
		},
		Lookup: func(string) (string, bool) { return "", false },
		Events: rec.add,
	}
	if _, err := RunDoc(context.Background(), &Doc{Prompt: "go"}, opts); err != nil {
		t.Fatal(err)
	}
	names := strings.Join(toolNames(model.requests()[0]), " ")
	for _, want := range []string{"write", "edit", "shell", "tree", "load", "delegate"} {
		if !strings.Contains(" "+names+" ", " "+want+" ") {
			t.Errorf("default profile lacks %s: %s", want, names)
		}
	}
	var missing []string
	for _, name := range []string{"analyze", "skills", "todo", "tom"} {
		if _, known := platformExtension(name, &opts); !known {
			missing = append(missing, name)
		}
	}
	want := "goose's default extensions: running without apps, extensionmanager (goose Desktop extensions, not available in goose-ls)"
	if len(missing) > 0 {
		want += " and " + strings.Join(missing, ", ") + " (goose-ls has no builtin for them)"
	}
	if diff := cmp.Diff(want+"\n", noticeTexts(rec.events)); diff != "" {
		t.Errorf("one notice for the default profile (-want +got):\n%s", diff)
	}
}

func TestListedPlatformExtensionsGooseLsLacksAreNotices(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "r.yaml")
	writeFile(t, path, "title: T\ndescription: D\nprompt: go\nextensions:\n  - {type: platform, name: apps}\n  - {type: builtin, name: Extension Manager}\n  - {type: builtin, name: memory}\n")
	model := &scriptedModel{reply: func(int, provider.Request) provider.Message { return provider.Message{Text: "Done."} }}
	rec := &recorder{}
	_, err := RunRecipe(context.Background(), RunOptions{RecipePath: path, Workspace: tools.Disk{Dir: root}, Lookup: noLookup, Events: rec.add,
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	want := "extension apps: not available in goose-ls, a goose Desktop extension (its apps are HTML windows that only goose Desktop can display); running without it\n" +
		"extension Extension Manager: not available in goose-ls, a goose Desktop extension (it searches for and enables extensions in goose Desktop's configuration while a session runs); running without it\n" +
		"extension memory: goose-ls has no builtin \"memory\"; running without it\n"
	if diff := cmp.Diff(want, noticeTexts(rec.events)); diff != "" {
		t.Errorf("notices (-want +got):\n%s", diff)
	}
	if tools := toolNames(model.requests()[0]); len(tools) != 0 {
		t.Errorf("tools %v", tools)
	}
}

// named is an extension with fixed tool names.
type named struct {
	name  string
	tools []string
}

func (n named) Name() string         { return n.name }
func (n named) Unprefixed() bool     { return true }
func (n named) Instructions() string { return "" }
func (n named) Close() error         { return nil }
func (n named) Call(context.Context, string, json.RawMessage) tools.Result {
	return tools.Result{}
}
func (n named) Tools() []tools.Spec {
	var out []tools.Spec
	for _, t := range n.tools {
		out = append(out, tools.Spec{Name: t})
	}
	return out
}

func TestToolsAreSentSortedByName(t *testing.T) {
	box := NewToolbox(Mount{Ext: named{"z", []string{"zeta", "alpha"}}}, Mount{Ext: named{"a", []string{"mid", "beta"}}})
	var got []string
	for _, tool := range box.Tools() {
		got = append(got, tool.Name)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "mid", "zeta"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestRewrittenRecipesRunWithTheirExtensions(t *testing.T) {
	const head = "title: T\ndescription: D\nprompt: go\n"
	developerTools := []string{"edit", "read", "shell", "tree", "write"}
	cases := []struct {
		name, yaml string
		want       []string // the tools sent; analyze's joins them when goose-ls builds it
		analyze    bool
	}{
		{"sub_recipes without extensions: summon only", "sub_recipes:\n  - {name: a, path: a.yaml}\n", []string{"delegate", "load"}, false},
		{"builtin developer and sub_recipes", "extensions:\n  - {type: builtin, name: developer}\nsub_recipes: []\n",
			append([]string{"delegate", "load"}, developerTools...), true},
		{"an empty list: no tools", "extensions: []\n", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "r.yaml")
			writeFile(t, path, head+c.yaml)
			model := &scriptedModel{reply: func(int, provider.Request) provider.Message { return provider.Message{Text: "Done."} }}
			rec := &recorder{}
			opts := RunOptions{RecipePath: path, Workspace: tools.Disk{Dir: root}, Lookup: noLookup, Events: rec.add,
				Providers: func(provider.Settings) (provider.Setup, error) {
					return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
				}}
			if _, err := RunRecipe(context.Background(), opts); err != nil {
				t.Fatal(err)
			}
			got := toolNames(model.requests()[0])
			want := append([]string(nil), c.want...)
			if _, known := platformExtension(extAnalyze, &opts); c.analyze && known {
				var filtered []string
				for _, n := range got {
					if n == "analyze" {
						continue
					}
					filtered = append(filtered, n)
				}
				if len(filtered) == len(got) {
					t.Errorf("analyze is known but not offered: %v", got)
				}
				got = filtered
			} else if c.analyze && !strings.Contains(noticeTexts(rec.events), `extension analyze: goose-ls has no builtin "analyze"; running without it`) {
				t.Errorf("no notice for the appended analyze:\n%s", noticeTexts(rec.events))
			}
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}
