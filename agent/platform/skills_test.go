// Skills: discovery precedence across goose's folders, the instructions text, load_skill with arguments
// and supporting files, every error text, and the refusal of files resolving outside the skill folder.

package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, description, body string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body + "\n"
}

// skillsFixture lays out a workspace and a home with skills in several of goose's folders.
func skillsFixture(t *testing.T) (*Skills, string, string) {
	t.Helper()
	ws, home, cfg := t.TempDir(), t.TempDir(), t.TempDir()
	// the same name in three places: the workspace's .agents folder wins over .claude and the home
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/SKILL.md"), skillMD("deploy", "workspace agents deploy", "Deploy from .agents."))
	writeFile(t, filepath.Join(ws, ".claude/skills/deploy/SKILL.md"), skillMD("deploy", "workspace claude deploy", "Deploy from .claude."))
	writeFile(t, filepath.Join(home, ".agents/skills/deploy/SKILL.md"), skillMD("deploy", "home deploy", "Deploy from home."))
	// .goose beats the home; the home's .agents beats <config>; <config> beats ~/.claude
	writeFile(t, filepath.Join(ws, ".goose/skills/nested/deeper/review/SKILL.md"), skillMD("review", "workspace review", "Review $1 with $ARGUMENTS[1]; all: $ARGUMENTS."))
	writeFile(t, filepath.Join(home, ".claude/skills/review/SKILL.md"), skillMD("review", "home review", "Home review."))
	writeFile(t, filepath.Join(home, ".agents/skills/notes/SKILL.md"), skillMD("notes", "home agents notes", "Notes."))
	writeFile(t, filepath.Join(cfg, "skills/notes/SKILL.md"), skillMD("notes", "config notes", "Config notes."))
	writeFile(t, filepath.Join(cfg, "skills/migrate/SKILL.md"), "---\nname: migrate\ndescription: Migrate a component\nmetadata:\n  argument-hint: COMPONENT FROM TO\n  arguments: [component, from, to]\n---\nMigrate $component from $from to $to ($missing stays).\n")
	writeFile(t, filepath.Join(home, ".config/agents/skills/plain/SKILL.md"), skillMD("plain", "no placeholders", "Static text."))
	writeFile(t, filepath.Join(home, ".agents/plugins/p1/skills/plugged/SKILL.md"), skillMD("plugged", "from a plugin", "Plugin skill."))
	// supporting files, one in a nested skill folder that belongs to that skill
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/scripts/run.sh"), "echo deploying\n")
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/template.md"), "TEMPLATE BODY")
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/.git/config"), "vcs")
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/inner/SKILL.md"), skillMD("inner", "nested skill", "Inner."))
	writeFile(t, filepath.Join(ws, ".agents/skills/deploy/inner/own.txt"), "inner's file")
	// broken skills are skipped: no name, a name with '/', no frontmatter
	writeFile(t, filepath.Join(ws, ".agents/skills/bad1/SKILL.md"), "---\ndescription: nameless\n---\nx")
	writeFile(t, filepath.Join(ws, ".agents/skills/bad2/SKILL.md"), skillMD("a/b", "slash", "x"))
	writeFile(t, filepath.Join(ws, ".agents/skills/bad3/SKILL.md"), "just text")
	return &Skills{WorkDir: ws, Home: home, ConfigDir: cfg}, ws, home
}

func load(s *Skills, args string) (string, bool) {
	res := s.Call(context.Background(), "load_skill", json.RawMessage(args))
	return res.Text, res.IsError
}

func TestSkillsDiscoveryPrecedence(t *testing.T) {
	s, ws, _ := skillsFixture(t)
	defer s.Close()
	got := map[string]string{}
	for _, sk := range s.Discover() {
		got[sk.Name] = sk.Description
	}
	want := map[string]string{"deploy": "workspace agents deploy", "review": "workspace review", "notes": "home agents notes",
		"migrate": "Migrate a component", "plain": "no placeholders", "plugged": "from a plugin", "inner": "nested skill"}
	if len(got) != len(want) {
		t.Errorf("skills %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	wantIns := "\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:" +
		"\n• deploy - workspace agents deploy\n• inner - nested skill\n• migrate - Migrate a component\n• notes - home agents notes" +
		"\n• plain - no placeholders\n• plugged - from a plugin\n• review - workspace review"
	if ins := s.Instructions(); ins != wantIns {
		t.Errorf("instructions:\n%q\nwant\n%q", ins, wantIns)
	}
	text, isErr := load(s, `{"name":"deploy"}`)
	dir := filepath.Join(ws, ".agents/skills/deploy")
	want1 := "# Loaded Skill: deploy (skill)\n\nworkspace agents deploy\n\n## Content\n\nDeploy from .agents.\n" +
		"\n## Supporting Files\n\nSkill directory: " + dir + "\n\n" +
		"Relative paths in this skill resolve from the skill directory. The shell tool runs in the session working directory, so use the resolved path below or `cd` into the skill directory before running supporting scripts.\n\n" +
		"- scripts/run.sh → " + filepath.Join(dir, "scripts/run.sh") + " (load_skill(name: \"deploy/scripts/run.sh\"))\n" +
		"- template.md → " + filepath.Join(dir, "template.md") + " (load_skill(name: \"deploy/template.md\"))\n"
	if isErr || text != want1 {
		t.Errorf("load deploy:\n%q\nwant\n%q", text, want1)
	}
}

func TestLoadSkillArgumentsAndFiles(t *testing.T) {
	s, _, _ := skillsFixture(t)
	defer s.Close()
	cases := []struct {
		args, want string
		isErr      bool
	}{
		{`{"name":"review","args":"main.go \"deep check\""}`, "Review main.go with deep check; all: main.go \"deep check\".", false},
		{`{"name":"migrate","args":"Button old-lib new-lib"}`, "Migrate Button from old-lib to new-lib ($missing stays).", false},
		{`{"name":"plain","args":"src/foo.rs"}`, "Static text.\n\nARGUMENTS: src/foo.rs", false},
		{`{"name":"review","args":"\"open"}`, "Failed to parse skill arguments: Unmatched quote in command", true},
		{`{"name":"deploy/template.md"}`, "# Loaded: deploy/template.md\n\nTEMPLATE BODY\n\n---\nFile loaded into context.", false},
		{`{"name":"deploy/scripts\\run.sh"}`, "# Loaded: deploy/scripts\\run.sh\n\necho deploying\n\n\n---\nFile loaded into context.", false},
		{`{"name":"deploy/inner/own.txt"}`, "File 'deploy/inner/own.txt' not found. Available: scripts/run.sh, template.md", true},
		{`{"name":"deploy/.git/config"}`, "File 'deploy/.git/config' not found. Available: scripts/run.sh, template.md", true},
		{`{"name":"plain/x"}`, "Skill 'plain' has no supporting files.", true},
		{`{"name":"deplo"}`, "Skill 'deplo' not found. Did you mean: deploy?", true},
		{`{"name":"zzz"}`, "Skill 'zzz' not found.", true},
		{`{"name":"zzz/file"}`, "Skill 'zzz/file' not found.", true},
		{`{}`, "Missing required parameter: name", true},
		{`{"name":""}`, "Missing required parameter: name", true},
	}
	for _, c := range cases {
		text, isErr := load(s, c.args)
		if isErr != c.isErr || (c.isErr && text != c.want) || (!c.isErr && !strings.Contains(text, c.want)) {
			t.Errorf("%s:\n got %q (error %v)\nwant %q", c.args, text, isErr, c.want)
		}
	}
	// a hint for the editor's slash command
	for _, sk := range s.Discover() {
		if sk.Name == "migrate" && sk.ArgumentHint() != "COMPONENT FROM TO" {
			t.Errorf("argument hint %q", sk.ArgumentHint())
		}
	}
}

func TestLoadSkillRefusesFilesOutsideTheSkillFolder(t *testing.T) {
	s, ws, home := skillsFixture(t)
	defer s.Close()
	// inside the workspace, but outside the skill's folder
	writeFile(t, filepath.Join(ws, "secret.env"), "WORKSPACE SECRET")
	if err := os.Symlink(filepath.Join(ws, "secret.env"), filepath.Join(ws, ".agents/skills/deploy/link.txt")); err != nil {
		t.Fatal(err)
	}
	// a user-level skill linking anywhere
	outside := filepath.Join(t.TempDir(), "passwords.txt")
	writeFile(t, outside, "HOST SECRET")
	if err := os.Symlink(outside, filepath.Join(home, ".agents/skills/notes/creds.txt")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"deploy/link.txt", "notes/creds.txt"} {
		text, isErr := load(s, `{"name":"`+name+`"}`)
		if want := "Refusing to load '" + name + "': resolves outside the skill directory"; !isErr || text != want {
			t.Errorf("%s: %q", name, text)
		}
	}
	// a link that stays inside the skill folder is a supporting file like any other
	if err := os.Symlink("template.md", filepath.Join(ws, ".agents/skills/deploy/alias.md")); err != nil {
		t.Fatal(err)
	}
	if text, isErr := load(s, `{"name":"deploy/alias.md"}`); isErr || !strings.Contains(text, "TEMPLATE BODY") {
		t.Errorf("alias: %q", text)
	}
}

func TestWorkspaceSkillsStayInsideTheWorkspace(t *testing.T) {
	ws := t.TempDir()
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "evil/SKILL.md"), skillMD("evil", "outside the workspace", "x"))
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	// .agents/skills is a link out of the workspace: its skills are not read
	if err := os.Symlink(elsewhere, filepath.Join(ws, ".agents/skills")); err != nil {
		t.Fatal(err)
	}
	s := &Skills{WorkDir: ws}
	defer s.Close()
	if got := s.Discover(); len(got) != 0 {
		t.Errorf("a skill from outside the workspace was found: %+v", got[0])
	}
	if ins := s.Instructions(); ins != "" {
		t.Errorf("instructions %q", ins)
	}
}

func TestSkillArguments(t *testing.T) {
	cases := []struct{ content, args, want string }{
		{"Run $ARGUMENTS now.", "alpha beta", "Run alpha beta now."},
		{"first=$1, second=$2, third=$3", "alpha beta gamma", "first=alpha, second=beta, third=gamma"},
		{"[$5]", "only-one", "[]"},
		{"a=$ARGUMENTS[0], b=$ARGUMENTS[1]", "one two", "a=one, b=two"},
		{"[$ARGUMENTS[9]]", "one two", "[]"},
		{"author=$1, contraction=$2", "O'Reilly don't", "author=O'Reilly, contraction=don't"},
		{"raw=$ARGUMENTS pos=$1", `"hello world" tail`, `raw="hello world" tail pos=hello world`},
		{"Just $missing here.", "src/foo.rs", "Just $missing here.\n\nARGUMENTS: src/foo.rs"},
		{"no placeholders", `"unterminated`, "no placeholders\n\nARGUMENTS: \"unterminated"},
		{"$ARGUMENTS[abc]", "x y", "x y[abc]"},
		{"$1$2", "alpha beta", "alphabeta"},
		{"Run $ARGUMENTS done.", "", "Run  done."},
		{"price is $100USD or $$ or $", "ignored", "price is USD or $$ or $"},
	}
	for _, c := range cases {
		got, err := applySkillArguments(c.content, c.args, nil)
		if err != nil || got != c.want {
			t.Errorf("%q with %q: %q (%v), want %q", c.content, c.args, got, err, c.want)
		}
	}
	got, err := applySkillArguments("$my-arg / $_internal / $3", "foo bar baz", []string{"my-arg", "_internal"})
	if err != nil || got != "foo / bar / baz" {
		t.Errorf("named: %q %v", got, err)
	}
	if _, err := applySkillArguments("$1", `"open`, nil); err == nil {
		t.Error("an unmatched quote was accepted")
	}
}

// DiscoverSkills finds what the extension finds, in the same order, and LoadedContext is load_skill's text.
func TestDiscoverSkillsIsTheExtensionsDiscovery(t *testing.T) {
	s, _, _ := skillsFixture(t)
	defer s.Close()
	found := DiscoverSkills(s.WorkDir, s.Home, s.ConfigDir)
	want := s.Discover()
	if len(found) != len(want) || len(found) < 6 {
		t.Fatalf("found %d skills, the extension %d", len(found), len(want))
	}
	for i, sk := range found {
		if sk.Name != want[i].Name || sk.Dir != want[i].Dir || sk.Description != want[i].Description {
			t.Errorf("skill %d: %s in %s, the extension has %s in %s", i, sk.Name, sk.Dir, want[i].Name, want[i].Dir)
		}
		args := `Button "old lib" new`
		text, err := sk.LoadedContext(&args)
		tool, isErr := load(s, fmt.Sprintf(`{"name":%q,"args":%q}`, sk.Name, args))
		if err != nil || isErr || text != tool {
			t.Errorf("%s: LoadedContext %q (%v), load_skill %q", sk.Name, text, err, tool)
		}
	}
}
