//go:build unix

// goose's skill commands over the SDK's client side: advertised after the recipe commands (a name a
// recipe or one of goose's own commands has is left out), and `/skill args` sending the skill's loaded
// text in place of the command, or goose's reply when its arguments do not parse.

package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"
)

// writeSkill writes dir/SKILL.md with front matter and body.
func writeSkill(t *testing.T, dir, front, body string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\n"+front+"---\n"+body+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// withoutTurnInfo is a user message's text without the per-turn <info-msg> goose puts before it.
func withoutTurnInfo(text string) string {
	if _, after, found := strings.Cut(text, "</info-msg>\n\n"); found && strings.HasPrefix(text, "<info-msg>") {
		return after
	}
	return text
}

func TestSkillCommandsComeAfterRecipes(t *testing.T) {
	m := newModel(text("done"))
	h := newHarness(t, m, harnessOptions{})
	review := filepath.Join(h.home, "review.yaml")
	os.WriteFile(review, []byte("title: Review\ndescription: Review a change\nprompt: review it\n"), 0o644)
	os.MkdirAll(filepath.Join(h.home, "config"), 0o755)
	os.WriteFile(filepath.Join(h.home, "config", "config.yaml"), []byte("slash_commands:\n  - command: review\n    recipe_path: "+review+"\n"), 0o644)
	os.WriteFile(filepath.Join(h.root, "notes.yaml"), []byte("title: Notes\ndescription: Take notes\nprompt: notes\n"), 0o644)

	project := filepath.Join(h.root, ".agents", "skills")
	writeSkill(t, filepath.Join(project, "code-review"), "name: Code-Review\ndescription: Review changed code\nmetadata:\n  argument-hint: \"<path>\"\n", "Review $ARGUMENTS carefully.")
	writeSkill(t, filepath.Join(project, "notes"), "name: Notes\ndescription: a skill a recipe's name hides\n", "n")
	writeSkill(t, filepath.Join(project, "review"), "name: REVIEW\ndescription: a skill goose's slash command hides\n", "r")
	writeSkill(t, filepath.Join(project, "compact"), "name: compact\ndescription: a skill goose's own command hides\n", "c")
	writeSkill(t, filepath.Join(h.home, ".agents", "skills", "lint"), "name: lint\ndescription: Lint the tree\n", "Run the linter.")
	writeSkill(t, filepath.Join(h.home, "config", "skills", "lint"), "name: Lint\ndescription: Lint, from the config folder\n", "Lint.")

	sess := h.newSession()
	h.client.awaitCommands()
	var cmds []sdk.AvailableCommand
	for _, n := range h.client.updates {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			cmds = u.AvailableCommands
		}
	}
	skill := map[string]any{"commandType": "Skill"}
	want := []sdk.AvailableCommand{
		{Name: "clear", Description: "Clear the conversation history", Meta: map[string]any{"commandType": "Builtin"}},
		{Name: "review", Description: "Review a change", Meta: map[string]any{"commandType": "Recipe", "sourcePath": review}},
		{Name: "notes", Description: "Notes: Take notes", Meta: map[string]any{"commandType": "Recipe", "sourcePath": filepath.Join(h.root, "notes.yaml")}},
		{Name: "code-review", Description: "Review changed code", Meta: skill,
			Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "<path>"}}},
		// goose does not merge skills with each other: two skills whose names differ in case are both listed
		{Name: "lint", Description: "Lint the tree", Meta: skill},
		{Name: "lint", Description: "Lint, from the config folder", Meta: skill},
	}
	if diff := cmp.Diff(want, cmds); diff != "" {
		t.Fatalf("commands (-want +got):\n%s", diff)
	}

	// `/name args`: the skill found ignoring case, its loaded text (load_skill's) sent as the user message
	h.prompt(sess.SessionId, sdk.TextBlock("/CODE-REVIEW  src/main.go "))
	wantText := "# Loaded Skill: Code-Review (skill)\n\nReview changed code\n\n## Content\n\nReview src/main.go carefully.\n"
	if got := withoutTurnInfo(m.lastUserText(t)); got != wantText {
		t.Fatalf("the model got %q, want %q", got, wantText)
	}
	calls := len(m.reqs)
	h.prompt(sess.SessionId, sdk.TextBlock(`/code-review "unclosed`))
	if len(m.reqs) != calls || !strings.HasSuffix(h.client.agentText(sess.SessionId), "Skill /code-review: Unmatched quote in command") {
		t.Fatalf("%d model calls, reply %q", len(m.reqs)-calls, h.client.agentText(sess.SessionId))
	}
	// a body without placeholders gets the arguments as an ARGUMENTS line; without arguments it is as it is
	h.prompt(sess.SessionId, sdk.TextBlock("/lint ./cmd/..."))
	if got := withoutTurnInfo(m.lastUserText(t)); got != "# Loaded Skill: lint (skill)\n\nLint the tree\n\n## Content\n\nRun the linter.\n\nARGUMENTS: ./cmd/...\n" {
		t.Fatalf("the model got %q", got)
	}
	h.prompt(sess.SessionId, sdk.TextBlock("/lint"))
	if got := withoutTurnInfo(m.lastUserText(t)); got != "# Loaded Skill: lint (skill)\n\nLint the tree\n\n## Content\n\nRun the linter.\n" {
		t.Fatalf("the model got %q", got)
	}
	// one of goose's own commands is not a skill's, and goose-ls does not run it: the text goes as it is
	h.prompt(sess.SessionId, sdk.TextBlock("/compact"))
	if got := withoutTurnInfo(m.lastUserText(t)); got != "/compact" {
		t.Fatalf("the model got %q", got)
	}
	// a recipe's command wins over a skill of the same name
	h.prompt(sess.SessionId, sdk.TextBlock("/notes"))
	if got := withoutTurnInfo(m.lastUserText(t)); got != "notes" {
		t.Fatalf("the model got %q", got)
	}
}
