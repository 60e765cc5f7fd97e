// config.yaml as goose's `goose configure` leaves it (active_provider + providers.<name>, goose's flat-key
// migration), read back by goose-ls's own config reader; the user's keys and comments kept; files that
// are not a YAML mapping refused untouched.

package setup

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/agent/config"
)

// writeIn writes before (when not "") as config.yaml of a fresh config folder, applies ch and returns
// the folder and the file after.
func writeIn(t *testing.T, before string, ch Change) (dir, after string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "config")
	if before != "" {
		os.MkdirAll(dir, 0o755)
		if err := os.WriteFile(ConfigPath(dir), []byte(before), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path, err := Write(dir, ch)
	if err != nil {
		t.Fatal(err)
	}
	if path != ConfigPath(dir) {
		t.Errorf("wrote %s, want %s", path, ConfigPath(dir))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(data)
}

// active reads the provider and model back as goose-ls's runs read them (no environment).
func active(t *testing.T, dir string) (string, string) {
	t.Helper()
	root := filepath.Dir(dir) // GOOSE_PATH_ROOT/config
	cfg, err := config.Load(func(k string) (string, bool) {
		if k == "GOOSE_PATH_ROOT" {
			return root, true
		}
		return "", false
	})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := cfg.ActiveProvider()
	m, _ := cfg.ActiveModel()
	return p, m
}

func TestWriteCreatesGoosesProviderLayout(t *testing.T) {
	dir, after := writeIn(t, "", Change{Provider: "openai", Model: "gpt-4o"})
	want := "active_provider: openai\nproviders:\n  openai:\n    enabled: true\n    model: gpt-4o\n    configured: true\n"
	if after != want {
		t.Errorf("config.yaml:\n%s\nwant:\n%s", after, want)
	}
	if p, m := active(t, dir); p != "openai" || m != "gpt-4o" {
		t.Errorf("read back %s/%s", p, m)
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(ConfigPath(dir)); st.Mode().Perm() != 0o644 {
			t.Errorf("a new config.yaml is %v, want goose's 0644", st.Mode().Perm())
		}
	}
}

// The user's other keys, their order, comments and styles stay; a second provider is added beside the
// first, which keeps its entry (goose keeps every provider it configured).
func TestWriteKeepsTheUsersFile(t *testing.T) {
	before := `# my goose settings
GOOSE_MODE: smart_approve # ask for sensitive tools
extensions:
  developer:
    enabled: true   # always on
    type: builtin
slash_commands:
- command: review
  recipe_path: "/home/me/review.yaml"
active_provider: anthropic
providers:
  # the one I use at work
  anthropic:
    enabled: true
    model: claude-sonnet-4-5
    configured: true
GOOSE_TEMPERATURE: '0.2'
`
	dir, after := writeIn(t, before, Change{Provider: "groq", Model: "llama-3.3-70b-versatile"})
	want := `# my goose settings
GOOSE_MODE: smart_approve # ask for sensitive tools
extensions:
  developer:
    enabled: true # always on
    type: builtin
slash_commands:
  - command: review
    recipe_path: "/home/me/review.yaml"
active_provider: groq
providers:
  # the one I use at work
  anthropic:
    enabled: true
    model: claude-sonnet-4-5
    configured: true
  groq:
    enabled: true
    model: llama-3.3-70b-versatile
    configured: true
GOOSE_TEMPERATURE: '0.2'
`
	if d := cmp.Diff(want, after); d != "" {
		t.Errorf("config.yaml (-want +got):\n%s", d)
	}
	if p, m := active(t, dir); p != "groq" || m != "llama-3.3-70b-versatile" {
		t.Errorf("read back %s/%s", p, m)
	}
	// configuring the same provider again replaces its entry in place
	if _, err := Write(dir, Change{Provider: "anthropic", Model: "claude-opus-4-1"}); err != nil {
		t.Fatal(err)
	}
	if p, m := active(t, dir); p != "anthropic" || m != "claude-opus-4-1" {
		t.Errorf("read back %s/%s", p, m)
	}
	data, _ := os.ReadFile(ConfigPath(dir))
	if strings.Count(string(data), "anthropic:") != 1 || !strings.Contains(string(data), "groq:") {
		t.Errorf("entries after reconfiguring:\n%s", data)
	}
}

// goose's migration: the flat keys become providers entries (the active one with its model, each
// *_configured marker an entry of its own) and are removed, whatever the new choice.
func TestWriteMigratesFlatKeysAsGooseDoes(t *testing.T) {
	before := "GOOSE_PROVIDER: claude-acp\nGOOSE_MODEL: current\nclaude-acp_configured: true\nlmstudio_configured: true\nGOOSE_MODE: auto\n"
	dir, after := writeIn(t, before, Change{Provider: "openai", Model: "gpt-4o-mini"})
	want := `GOOSE_MODE: auto
providers:
  claude-acp:
    enabled: true
    model: current
    configured: true
  lmstudio:
    enabled: true
    model: ""
    configured: true
  openai:
    enabled: true
    model: gpt-4o-mini
    configured: true
active_provider: openai
`
	if d := cmp.Diff(want, after); d != "" {
		t.Errorf("config.yaml (-want +got):\n%s", d)
	}
	if p, m := active(t, dir); p != "openai" || m != "gpt-4o-mini" {
		t.Errorf("read back %s/%s", p, m)
	}
	// with a providers block already there, leftover flat keys are only dropped
	_, after = writeIn(t, "GOOSE_PROVIDER: ollama\nproviders: {}\nstale_configured: true\n", Change{Provider: "ollama", Model: "qwen3"})
	if strings.Contains(after, "GOOSE_PROVIDER") || strings.Contains(after, "stale") {
		t.Errorf("flat keys left:\n%s", after)
	}
}

// Settings are top-level keys (goose's set_param); values that would read as another type are quoted.
func TestWriteSettingsAndQuoting(t *testing.T) {
	dir, after := writeIn(t, "AZURE_OPENAI_ENDPOINT: old\n", Change{Provider: "azure_openai", Model: "true",
		Settings: map[string]string{"AZURE_OPENAI_ENDPOINT": "https://me.openai.azure.com", "AZURE_OPENAI_DEPLOYMENT_NAME": "0123"}})
	for _, want := range []string{"AZURE_OPENAI_ENDPOINT: https://me.openai.azure.com\n", "AZURE_OPENAI_DEPLOYMENT_NAME: \"0123\"\n", "model: \"true\"\n"} {
		if !strings.Contains(after, want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, after)
		}
	}
	if p, m := active(t, dir); p != "azure_openai" || m != "true" {
		t.Errorf("read back %s/%s", p, m)
	}
}

// Empty files, files of comments only and a null document are an empty config.
func TestWriteEmptyFiles(t *testing.T) {
	for _, before := range []string{"\n", "# nothing yet\n# really\n", "~\n", "---\n"} {
		dir, after := writeIn(t, before, Change{Provider: "ollama", Model: "qwen3"})
		if p, m := active(t, dir); p != "ollama" || m != "qwen3" {
			t.Errorf("%q: read back %s/%s:\n%s", before, p, m, after)
		}
		if strings.HasPrefix(before, "#") && !strings.HasPrefix(after, "# nothing yet\n# really\n") {
			t.Errorf("%q: comments lost:\n%s", before, after)
		}
	}
}

// A file that is not a YAML mapping is left as it is (goose would start afresh and lose it).
func TestWriteRefusesFilesItCannotRead(t *testing.T) {
	for _, before := range []string{"key: [unclosed\n", "- a list\n- of things\n", "a: 1\n---\nb: 2\n", "just text\n"} {
		dir := filepath.Join(t.TempDir(), "config")
		os.MkdirAll(dir, 0o755)
		os.WriteFile(ConfigPath(dir), []byte(before), 0o644)
		_, err := Write(dir, Change{Provider: "openai", Model: "gpt-4o"})
		if err == nil || !strings.Contains(err.Error(), "nothing was written") || !strings.Contains(err.Error(), ConfigPath(dir)) {
			t.Errorf("%q: %v", before, err)
		}
		if data, _ := os.ReadFile(ConfigPath(dir)); string(data) != before {
			t.Errorf("%q: the file changed to %q", before, data)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%q: files left behind: %v", before, entries)
		}
	}
}

// A symlinked config.yaml (dotfiles) stays a link; its target is written.
func TestWriteFollowsASymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "config")
	os.MkdirAll(dir, 0o755)
	target := filepath.Join(root, "dotfiles-goose.yaml")
	os.WriteFile(target, []byte("GOOSE_MODE: auto\n"), 0o600)
	if err := os.Symlink(target, ConfigPath(dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, Change{Provider: "ollama", Model: "qwen3"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Lstat(ConfigPath(dir)); st.Mode()&os.ModeSymlink == 0 {
		t.Error("config.yaml is no longer a link")
	}
	data, _ := os.ReadFile(target)
	if !strings.Contains(string(data), "active_provider: ollama") || !strings.Contains(string(data), "GOOSE_MODE: auto") {
		t.Errorf("target:\n%s", data)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("the target's permissions became %v", st.Mode().Perm())
	}
}
