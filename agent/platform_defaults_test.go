// The default extensions of a run without `extensions`, over both vendors' wire formats: a fresh goose
// config no longer enables todo, and config.yaml's entries keep their state (todo on where it was on).
package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
	"github.com/goose-ls/goose-ls/agent/tools"
)

// requestToolNames are the tool names a vendor request body offers, sorted.
func requestToolNames(body map[string]any) []string {
	var out []string
	list, _ := body["tools"].([]any)
	for _, item := range list {
		tool, _ := item.(map[string]any)
		if fn, ok := tool["function"].(map[string]any); ok {
			tool = fn // chat completions nests the function
		}
		if name, ok := tool["name"].(string); ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// runPlain runs a prompt without a recipe against vendor v with goose's config folder root, and returns
// the tools of the first request and the notices.
func runPlain(t *testing.T, v wiretest.Vendor, root string) ([]string, string) {
	t.Helper()
	srv := v.Serve(wiretest.Replies(wiretest.Reply{Text: "Done."}))
	defer srv.Close()
	rec := &recorder{}
	_, err := RunDoc(context.Background(), &Doc{Prompt: "go"}, RunOptions{
		Workspace: tools.Disk{Dir: t.TempDir()},
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: v.Provider(srv.URL), Name: v.Name, Model: "m"}, nil
		},
		Lookup: func(k string) (string, bool) {
			if k == "GOOSE_PATH_ROOT" {
				return root, true
			}
			return "", false
		},
		Events: rec.add,
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request")
	}
	return requestToolNames(reqs[0]), noticeTexts(rec.events)
}

func writeGooseConfig(t *testing.T, root, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, "config"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "config", "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestFreshConfigHasNoTodo(t *testing.T) {
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			names, notices := runPlain(t, v, t.TempDir())
			for _, want := range []string{"analyze", "delegate", "edit", "load", "load_skill", "shell", "tree", "write"} {
				if !slices.Contains(names, want) {
					t.Errorf("default profile lacks %s: %v", want, names)
				}
			}
			if slices.Contains(names, "todo__todo_write") {
				t.Errorf("todo on a fresh config: %v", names)
			}
			want := "goose's default extensions: running without apps, extensionmanager (goose Desktop extensions, not available in goose-ls)\n"
			if diff := cmp.Diff(want, notices); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
		})
	}
}

// An existing config keeps each entry's state: todo enabled by an older goose stays on, summon turned off
// stays off, an extension goose-ls lacks is named, an entry without a boolean `enabled` takes the default.
func TestConfigEntriesKeepTheirState(t *testing.T) {
	root := t.TempDir()
	writeGooseConfig(t, root, `GOOSE_PROVIDER: openai
extensions:
  todo:
    enabled: true
    type: platform
    name: todo
    description: Enable a todo list for goose so it can keep track of what it is doing
    bundled: true
    available_tools: []
  summon:
    enabled: false
    type: platform
    name: summon
  chatrecall:
    enabled: true
    type: platform
    name: chatrecall
  analyze:
    enabled: "yes"
    type: platform
    name: analyze
  github:
    enabled: true
    type: stdio
    name: github
    cmd: never-started
`)
	for _, v := range wiretest.Vendors {
		t.Run(v.Name, func(t *testing.T) {
			names, notices := runPlain(t, v, root)
			for _, want := range []string{"todo__todo_write", "analyze", "write"} {
				if !slices.Contains(names, want) {
					t.Errorf("lacks %s: %v", want, names)
				}
			}
			if slices.Contains(names, "load") || slices.Contains(names, "delegate") {
				t.Errorf("summon is off in the config: %v", names)
			}
			if !strings.Contains(notices, "chatrecall (goose-ls has no builtin for them)") {
				t.Errorf("notices %q", notices)
			}
		})
	}
}
