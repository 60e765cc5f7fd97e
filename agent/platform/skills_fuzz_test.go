// FuzzSkillText: any SKILL.md text and any arguments are parsed and substituted without a panic, and a
// loaded skill's text always starts with goose's heading.

package platform

import (
	"strings"
	"testing"
)

func FuzzSkillText(f *testing.F) {
	f.Add("---\nname: s\ndescription: d\nmetadata:\n  arguments: [a, b]\n---\nUse $a and $1 and $ARGUMENTS[0] and $ARGUMENTS.", `x "y z"`)
	f.Add("---\n---\n---", "'")
	f.Add("no frontmatter $1", `"`)
	f.Fuzz(func(t *testing.T, text, args string) {
		s, err := parseSkill(text)
		if err != nil || s == nil {
			return
		}
		if s.Name == "" || strings.Contains(s.Name, "/") {
			t.Fatalf("accepted name %q", s.Name)
		}
		out, err := loadedSkill(s, &args)
		if err == nil && !strings.HasPrefix(out, "# Loaded Skill: "+s.Name+" (skill)\n\n") {
			t.Fatalf("loaded text %q", out)
		}
	})
}
