// The Neovim plugin (editors/nvim) end to end, set up as the README says, in headless Neovim 0.7.2
// (the host's), 0.10 and 0.12 (Debian root filesystems, `make e2e-rootfs`).
package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider/wiretest"
)

// readmeSnippet returns the README's first Lua block holding want, with the plugin's placeholder path
// pointing at the staged checkout.
func readmeSnippet(t *testing.T, want string) string {
	t.Helper()
	readme, err := os.ReadFile(staged(t, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```lua\n(.*?)```").FindAllStringSubmatch(string(readme), -1) {
		if strings.Contains(m[1], want) && strings.Contains(m[1], "/path/to/goose-ls/editors/nvim") {
			return strings.ReplaceAll(m[1], "/path/to/goose-ls", filepath.Dir(staged(t, "README.md")))
		}
	}
	t.Fatalf("README has no Lua block with %q and the runtimepath line", want)
	return ""
}

// cleanHome is an empty home and XDG folders (no user config, no plugins but the README's), with the
// README snippet holding want written as init.lua; it returns the folder and the environment.
func cleanHome(t *testing.T, want string) (string, string, []string) {
	t.Helper()
	home := t.TempDir()
	init := filepath.Join(home, "init.lua")
	if err := os.WriteFile(init, []byte(readmeSnippet(t, want)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache")}
	return home, init, env
}

// pluginWorkspace is a folder marked by .goosehints with notes.txt, TODO (no filetype) and
// recipes/write.yaml (using {{ topic }} without declaring it), and a model that answers by the last
// message: the recipe's prompt → read notes.txt → edit beta to gamma → "Done."; a question about a
// line → an answer; "continue please" → "Continued."; "hang" → a reply that never ends.
func pluginWorkspace(t *testing.T) (string, *wiretest.Server) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".goosehints":        "Notes live in notes.txt.\n",
		"notes.txt":          "alpha\nbeta\n",
		"TODO":               "nothing yet\n",
		"recipes/write.yaml": "title: Writer\ndescription: Writes about a topic\nprompt: \"Write about {{ topic }} in notes.txt\"\n",
		// found by name (goose's ./.goose/recipes folder) by :GooseRun hello
		".goose/recipes/hello.yaml": "title: Hello\ndescription: Says hello\nprompt: \"Say hello to {{ who }}\"\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: who\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := wiretest.OpenAI(func(n int, body map[string]any) wiretest.Reply {
		msgs, _ := body["messages"].([]any)
		tools, lastUser := 0, ""
		for i := len(msgs) - 1; i >= 0; i-- {
			m, _ := msgs[i].(map[string]any)
			if m["role"] == "tool" {
				tools++
				continue
			}
			if m["role"] == "user" {
				text, _ := json.Marshal(m["content"])
				lastUser = string(text)
				break
			}
		}
		switch {
		case strings.Contains(lastUser, "Write about agents") && tools == 0:
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "read", Args: `{"path":"notes.txt"}`}}}
		case strings.Contains(lastUser, "Write about agents") && tools == 1:
			return wiretest.Reply{Calls: []wiretest.Call{{Name: "edit", Args: `{"path":"notes.txt","before":"beta","after":"gamma"}`}}}
		case strings.Contains(lastUser, "What does this line do?"):
			return wiretest.Reply{Text: "It names the recipe."}
		case strings.Contains(lastUser, "continue please"):
			return wiretest.Reply{Text: "Continued."}
		case strings.Contains(lastUser, "hang"):
			return wiretest.Reply{Text: "Thinking", Hang: true}
		}
		return wiretest.Reply{Text: "Done."}
	})
	t.Cleanup(srv.Close)
	return root, srv
}

// requestAfter returns the JSON of the first model request whose messages hold marker.
func requestAfter(t *testing.T, srv *wiretest.Server, marker string) string {
	t.Helper()
	for _, r := range srv.Requests() {
		msgs, _ := json.Marshal(r["messages"])
		if strings.Contains(string(msgs), marker) {
			return string(msgs)
		}
	}
	t.Fatalf("no model request holds %q", marker)
	return ""
}

func TestNeovimPluginFromTheREADME(t *testing.T) {
	for _, nv := range neovims {
		t.Run(nv.name, func(t *testing.T) {
			nv.require(t)
			bin := buildServer(t)
			root, srv := pluginWorkspace(t)
			home, init, env := cleanHome(t, `require("goose_ls").setup(`)
			env = append(append(env, "WORK_DIR="+root), agentEnv(srv, home)...)
			out := nv.run(t, 120*time.Second, bin, home, env, "OK",
				"--headless", "-u", init, "-i", "NONE", "-n", "-c", "luafile "+staged(t, "e2e/nvim_plugin.lua"))
			for _, bad := range []string{"deprecated", "stack traceback", "E5108"} {
				if strings.Contains(out, bad) {
					t.Errorf("the output holds %q:\n%s", bad, out)
				}
			}
			checkTopicReachedModel(t, srv, "agents")
			// the read tool saw the text buffer's unsaved line: notes.txt reached the server (didOpen, didChange)
			if msgs := requestAfter(t, srv, `"tool_call_id"`); !strings.Contains(msgs, "unsaved line") {
				t.Errorf("the model's read of notes.txt lacks the unsaved line: %s", msgs)
			}
			// :GooseRun hello ran the recipe goose finds by that name, with the value given on the command line
			requestAfter(t, srv, "Say hello to geese")
			// the resumed session carried its history
			if msgs := requestAfter(t, srv, "continue please"); !strings.Contains(msgs, "What does this line do?") {
				t.Errorf("the resumed session lost its history: %s", msgs)
			}
		})
	}
}

func TestNeovimEnableWithoutThePlugin(t *testing.T) {
	for _, nv := range neovims {
		if !nv.registry {
			continue // vim.lsp.config and vim.lsp.enable are 0.11+
		}
		t.Run(nv.name, func(t *testing.T) {
			nv.require(t)
			bin := buildServer(t)
			root, _ := pluginWorkspace(t)
			home, init, env := cleanHome(t, `vim.lsp.enable("goose_ls")`)
			env = append(env, "WORK_DIR="+root)
			out := nv.run(t, 60*time.Second, bin, home, env, "OK",
				"--headless", "-u", init, "-i", "NONE", "-n", "-c", "luafile "+staged(t, "e2e/nvim_enable.lua"))
			if strings.Contains(out, "deprecated") {
				t.Errorf("the output holds a deprecation:\n%s", out)
			}
		})
	}
}

func TestNeovimPluginNarrowedToRecipes(t *testing.T) {
	for _, nv := range neovims {
		t.Run(nv.name, func(t *testing.T) {
			nv.require(t)
			bin := buildServer(t)
			root, _ := pluginWorkspace(t)
			home, init, env := cleanHome(t, `require("goose_ls").setup(`)
			snippet, err := os.ReadFile(init)
			if err != nil {
				t.Fatal(err)
			}
			narrowed := strings.Replace(string(snippet), `require("goose_ls").setup()`, `require("goose_ls").setup({ sync_all_buffers = false })`, 1)
			if narrowed == string(snippet) || os.WriteFile(init, []byte(narrowed), 0o644) != nil {
				t.Fatalf("cannot narrow the README snippet:\n%s", snippet)
			}
			nv.run(t, 60*time.Second, bin, home, append(env, "WORK_DIR="+root), "OK",
				"--headless", "-u", init, "-i", "NONE", "-n", "-c", "luafile "+staged(t, "e2e/nvim_narrow.lua"))
		})
	}
}
