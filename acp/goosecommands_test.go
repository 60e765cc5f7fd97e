//go:build unix

// Slash commands as goose advertises them: config.yaml's slash_commands first (goose's hint and
// arguments), then the recipe folders' recipes, each with _meta.commandType and sourcePath; and the
// provider option goose lists first.

package acp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
)

func TestGooseSlashCommandsComeFirstWithTheirMeta(t *testing.T) {
	m := newModel(text("reviewed"))
	h := newHarness(t, m, harnessOptions{})
	review := filepath.Join(h.home, "review.yaml")
	os.WriteFile(review, []byte(`title: Review
description: Review a component
prompt: Review {{ component }} against {{ to }}
parameters:
  - key: component
    input_type: string
    requirement: required
    description: what
  - key: to
    input_type: string
    requirement: optional
    default: main
    description: base
`), 0o644)
	local := filepath.Join(h.root, "review.yaml") // the same name from the session's folder loses
	os.WriteFile(local, []byte("title: Local\ndescription: d\nprompt: local\n"), 0o644)
	os.WriteFile(filepath.Join(h.root, "notes.yaml"), []byte("title: Notes\ndescription: Take notes\nprompt: notes\n"), 0o644)
	os.MkdirAll(filepath.Join(h.home, "config"), 0o755)
	os.WriteFile(filepath.Join(h.home, "config", "config.yaml"), []byte("slash_commands:\n  - command: /Review\n    recipe_path: "+review+
		"\n  - command: gone\n    recipe_path: "+filepath.Join(h.home, "missing.yaml")+"\n"), 0o644)
	sess := h.newSession()
	h.client.awaitCommands()
	var cmds []sdk.AvailableCommand
	for _, n := range h.client.updates {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			cmds = u.AvailableCommands
		}
	}
	want := []sdk.AvailableCommand{
		{Name: "clear", Description: "Clear the conversation history", Meta: map[string]any{"commandType": "Builtin"}},
		{Name: "review", Description: "Review a component", Meta: map[string]any{"commandType": "Recipe", "sourcePath": review},
			Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "<component> [--to <to>]"}}},
		{Name: "notes", Description: "Notes: Take notes", Meta: map[string]any{"commandType": "Recipe", "sourcePath": filepath.Join(h.root, "notes.yaml")}},
	}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Fatalf("commands (-want +got):\n%s", diff)
	}
	h.prompt(sess.SessionId, sdk.TextBlock(`/REVIEW "Button Group" --to v2`))
	if got := m.lastUserText(t); !strings.HasSuffix(got, "Review Button Group against v2") {
		t.Fatalf("the model got %q", got)
	}
	calls := len(m.reqs)
	h.prompt(sess.SessionId, sdk.TextBlock(`/review Button --scope all`))
	if len(m.reqs) != calls || !strings.HasSuffix(h.client.agentText(sess.SessionId), "Recipe /review: Unknown parameter: --scope") {
		t.Fatalf("reply %q", h.client.agentText(sess.SessionId))
	}
}

func TestGooseCommandArguments(t *testing.T) {
	two := &gooseCommand{required: []string{"component", "from"}, optional: []string{"to", "scope"}}
	one := &gooseCommand{required: []string{"location"}, optional: []string{"theme"}}
	only := &gooseCommand{required: []string{"topic"}}
	for _, c := range []struct {
		g    *gooseCommand
		in   string
		want map[string]string
		err  string
	}{
		{two, `"Button Group" old-lib --to new-lib`, map[string]string{"component": "Button Group", "from": "old-lib", "to": "new-lib"}, ""},
		{one, "Melbourne weather --theme culture", map[string]string{"location": "Melbourne weather", "theme": "culture"}, ""},
		{one, "--theme culture Melbourne weather", map[string]string{"location": "Melbourne weather", "theme": "culture"}, ""},
		{one, "O'Reilly's guide --theme author's-pick", map[string]string{"location": "O'Reilly's guide", "theme": "author's-pick"}, ""},
		{only, `everything "as is" --x`, map[string]string{"topic": `everything "as is" --x`}, ""},
		{two, "Button old-lib --to --scope all", nil, "Missing value for --to"},
		{two, "Button old-lib extra", nil, "Unexpected positional argument: extra"},
		{one, "Button --unknown value", nil, "Unknown parameter: --unknown"},
		{two, "", map[string]string{}, ""},
	} {
		got, err := c.g.args(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !cmp.Equal(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.in, got, err, c.want)
		}
	}
	if two.hint() != "<component> <from> [--to <to>] [--scope <scope>]" {
		t.Fatalf("hint %q", two.hint())
	}
}

func TestProviderOptionIsGoosesList(t *testing.T) {
	m := newModel(text("x"))
	h := newHarness(t, m, harnessOptions{})
	sess := h.newSession()
	p := sess.ConfigOptions[0].Select
	opts := *p.Options.Ungrouped
	if p.Id != optionProvider || p.CurrentValue != "scripted" || opts[0].Value != "goose" || opts[0].Name != "Goose (Default)" {
		t.Fatalf("provider option %+v %+v", p, opts[:1])
	}
	var ids []string
	for _, o := range opts[1:] {
		ids = append(ids, string(o.Value))
	}
	if !slices.IsSorted(ids) || !strings.Contains(strings.Join(ids, ","), "anthropic") || !strings.Contains(strings.Join(ids, ","), "scripted") {
		t.Fatalf("providers %v", ids)
	}
	mode := sess.ConfigOptions[1].Select
	if m0 := (*mode.Options.Ungrouped)[0]; m0.Name != "auto" || *m0.Description != "Automatically approve tool calls" || *sess.Modes.AvailableModes[3].Description != "Chat only, no tool calls" {
		t.Fatalf("modes %+v", *mode.Options.Ungrouped)
	}
	resp, err := h.conn.SetSessionConfigOption(context.Background(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: sess.SessionId, ConfigId: optionProvider, Value: "anthropic"}})
	if err != nil || resp.ConfigOptions[0].Select.CurrentValue != "anthropic" {
		t.Fatalf("set provider: %+v %v", resp, err)
	}
}
