//go:build !windows

// Whole runs with the scripted provider: hint files pointing outside never reach the provider, a link
// made with shell is not written through, and saved shell output is gone when the run ends.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/provider/scripted"
	"github.com/goose-ls/goose-ls/agent/tools"
)

const outsideText = "OUTSIDE-ONLY-TEXT"

// runIn runs a plain prompt in root with the builtin developer tools and the scripted model.
func runIn(t *testing.T, root string, model *capture) Outcome {
	t.Helper()
	out, err := RunDoc(context.Background(), &Doc{Prompt: "go"}, RunOptions{
		Workspace: tools.Disk{Dir: root},
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model.provider(), Name: "scripted", Model: "m"}, nil
		},
		Lookup: func(string) (string, bool) { return "", false },
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusCompleted {
		t.Fatalf("status %s: %v", out.Status, out.Err)
	}
	return out
}

func outsideFolder(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte(outsideText), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func TestHintFilePointingOutsideIsNotSent(t *testing.T) {
	root, outside := outsideFolder(t)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, ".goosehints")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("Inside hint: use tabs."), 0o644); err != nil {
		t.Fatal(err)
	}
	model := &capture{}
	runIn(t, root, model)
	sent := model.sent()
	if strings.Contains(sent, outsideText) {
		t.Errorf("the provider received the outside file's text")
	}
	if !strings.Contains(sent, "### Project Hints (AGENTS.md)\nInside hint: use tabs.") {
		t.Errorf("the hint inside the workspace was not sent: %.500q", sent)
	}
}

func TestLinkMadeByShellIsNotWrittenThroughInARun(t *testing.T) {
	root, outside := outsideFolder(t)
	secret := filepath.Join(outside, "secret.md")
	model := &capture{calls: []provider.ToolCall{
		toolCall("shell", map[string]any{"command": "ln -s " + secret + " notes.md"}),
		toolCall("write", map[string]any{"path": "notes.md", "content": "overwritten"}),
		toolCall("read", map[string]any{"path": "notes.md"}),
	}}
	runIn(t, root, model)
	if data, _ := os.ReadFile(secret); string(data) != outsideText {
		t.Errorf("the file outside was written: %q", data)
	}
	sent := model.sent()
	if strings.Contains(sent, outsideText) {
		t.Errorf("the provider received the outside file's text")
	}
	for _, want := range []string{"Failed to write notes.md: ", "Failed to read notes.md: ", "outside the workspace"} {
		if !strings.Contains(sent, want) {
			t.Errorf("the model was not told %q: %.800q", want, sent)
		}
	}
}

func TestSavedShellOutputIsRemovedWhenTheRunEnds(t *testing.T) {
	root := t.TempDir()
	model := &capture{calls: []provider.ToolCall{toolCall("shell", map[string]any{"command": "seq 1 3000"})}}
	runIn(t, root, model)
	m := regexp.MustCompile(`Full output saved to (\S+)\. Read`).FindStringSubmatch(model.sent())
	if m == nil {
		t.Fatalf("no saved output in the tool result: %.800q", model.sent())
	}
	if _, err := os.Stat(m[1]); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("saved output %s survived the run: %v", m[1], err)
	}
	if _, err := os.Stat(filepath.Dir(m[1])); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the run's output folder survived the run: %v", err)
	}
}

func TestSavedShellOutputIsRedacted(t *testing.T) {
	const secret = "sk-overflow-<&>+/=-0123456789"
	root := t.TempDir()
	var saved string
	var readErr error
	savedRE := regexp.MustCompile(`Full output saved to (\S+)\. Read`)
	model := &scripted.Provider{Script: func(n int, req provider.Request) provider.Message {
		if n == 0 {
			return provider.Message{ToolCalls: []provider.ToolCall{{ID: "c0", Name: "shell",
				Arguments: mustJSON(map[string]any{"command": "for i in $(seq 1 3000); do echo 'line " + secret + "'; done"})}}}
		}
		b, _ := json.Marshal(req.Messages)
		if m := savedRE.FindStringSubmatch(string(b)); m != nil {
			var data []byte
			data, readErr = os.ReadFile(m[1])
			saved = string(data)
		}
		return provider.Message{Text: "Done."}
	}}
	red := &Redactor{}
	red.Add(secret)
	out, err := RunDoc(context.Background(), &Doc{Prompt: "go"}, RunOptions{
		Workspace: tools.Disk{Dir: root},
		Providers: func(provider.Settings) (provider.Setup, error) {
			return provider.Setup{Provider: model, Name: "scripted", Model: "m"}, nil
		},
		Lookup:   func(string) (string, bool) { return "", false },
		Redactor: red,
	})
	if err != nil || out.Status != StatusCompleted {
		t.Fatalf("run: %v %s", err, out.Status)
	}
	if readErr != nil || saved == "" {
		t.Fatalf("the saved output was not readable during the run: %v", readErr)
	}
	if strings.Contains(saved, secret) || strings.Contains(saved, "sk-overflow") {
		t.Errorf("the saved shell output holds the secret: %.200q", saved)
	}
	if !strings.Contains(saved, "[REDACTED]") {
		t.Errorf("the saved output does not show the redaction: %.200q", saved)
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
