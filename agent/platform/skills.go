// The skills platform extension: `load_skill` loads a discovered skill (with its arguments substituted) or
// one of its supporting files, with goose 1.38's texts; the system prompt lists the skills.

package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/agent/tools"
)

const loadSkillDescription = "Load a skill's full content into your context so you can follow its instructions.\n\n" +
	"Skills are listed in your system instructions. When you need to use one, load it first to get the detailed instructions.\n\n" +
	"Examples:\n" +
	"- load_skill(name: \"gdrive\") → Loads the gdrive skill instructions\n" +
	"- load_skill(name: \"my-skill\", args: \"the arguments for the skill\") → Loads a skill with arguments\n" +
	"- load_skill(name: \"my-skill/template.md\") → Loads a supporting file"

const loadSkillSchema = `{"type":"object","required":["name"],"properties":{"name":{"type":"string","description":"Name of the skill to load. Use \"skill-name/path\" to load a supporting file."},"args":{"type":"string","description":"Optional arguments to provide when loading the skill."}}}`

// maxSupportingFileBytes bounds a supporting file load_skill reads.
const maxSupportingFileBytes = tools.MaxReadBytes

// Skills is the skills extension of one run.
type Skills struct {
	// WorkDir is the run's workspace folder: its skills folders are read through an os.Root of it.
	WorkDir string
	// Home and ConfigDir place the user's folders ("" leaves them out).
	Home, ConfigDir string

	mu       sync.Mutex
	files    *tools.Files
	filesErr error
}

// Name is goose's config key.
func (s *Skills) Name() string { return "skills" }

// Unprefixed is true: the tool is load_skill.
func (s *Skills) Unprefixed() bool { return true }

// Tools lists load_skill.
func (s *Skills) Tools() []tools.Spec {
	return []tools.Spec{{Name: "load_skill", Description: loadSkillDescription, InputSchema: json.RawMessage(loadSkillSchema)}}
}

// Close releases the workspace handle.
func (s *Skills) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files != nil {
		err := s.files.Close()
		s.files = nil
		return err
	}
	return nil
}

// workspace opens the workspace once.
func (s *Skills) workspace() (*tools.Files, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil && s.filesErr == nil && s.WorkDir != "" {
		s.files, s.filesErr = tools.OpenFiles(s.WorkDir)
	}
	return s.files, s.filesErr
}

// Discover finds the skills now (goose looks again at every call).
func (s *Skills) Discover() []*Skill {
	files, _ := s.workspace()
	return discoverSkills(SkillFolders(s.WorkDir, s.Home, s.ConfigDir), func(dir string) skillReader {
		if files != nil {
			if _, err := files.Local(dir); err == nil {
				return workspaceReader{files}
			}
		}
		if s.WorkDir != "" && inside(s.WorkDir, dir) {
			return nil // the workspace could not be opened: its folders are not read around the os.Root
		}
		return hostReader{}
	})
}

func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && filepath.IsLocal(rel)
}

// Instructions list the skills, sorted by name (none: no instructions).
func (s *Skills) Instructions() string {
	skills := s.Discover()
	if len(skills) == 0 {
		return ""
	}
	sort.SliceStable(skills, func(i, j int) bool {
		if skills[i].Name != skills[j].Name {
			return skills[i].Name < skills[j].Name
		}
		return skills[i].Dir < skills[j].Dir
	})
	var b strings.Builder
	b.WriteString("\n\nYou have these skills at your disposal, when it is clear they can help you solve a problem or you are asked to use them:")
	for _, sk := range skills {
		fmt.Fprintf(&b, "\n• %s - %s", sk.Name, sk.Description)
	}
	return b.String()
}

// Call runs load_skill.
func (s *Skills) Call(_ context.Context, tool string, args json.RawMessage) tools.Result {
	if tool != "load_skill" {
		return errorResult("Unknown tool: %s", tool)
	}
	m := objectArgs(args)
	name, _ := stringArg(m, "name")
	if name == "" {
		return errorResult("Missing required parameter: name")
	}
	var skillArgs *string
	if a, ok := stringArg(m, "args"); ok {
		skillArgs = &a
	}
	skills := s.Discover()
	for _, sk := range skills {
		if sk.Name == name {
			text, err := loadedSkill(sk, skillArgs)
			if err != nil {
				return errorResult("Failed to parse skill arguments: %v", err)
			}
			return tools.Result{Text: text}
		}
	}
	if parent, rel, ok := strings.Cut(name, "/"); ok {
		rel = strings.ReplaceAll(rel, `\`, "/")
		for _, sk := range skills {
			if sk.Name == parent {
				return loadSupportingFile(sk, name, rel)
			}
		}
	}
	var suggestions []string
	lower := strings.ToLower(name)
	for _, sk := range skills {
		if l := strings.ToLower(sk.Name); strings.Contains(l, lower) || strings.Contains(lower, l) {
			suggestions = append(suggestions, sk.Name)
			if len(suggestions) == 3 {
				break
			}
		}
	}
	if len(suggestions) == 0 {
		return errorResult("Skill '%s' not found.", name)
	}
	return errorResult("Skill '%s' not found. Did you mean: %s?", name, strings.Join(suggestions, ", "))
}

// LoadedContext is the text load_skill returns for the skill: goose's loaded_skill_context, with args
// substituted when not nil (an unmatched quote is ErrUnmatchedQuote).
func (s *Skill) LoadedContext(args *string) (string, error) { return loadedSkill(s, args) }

// loadedSkill is goose's loaded_skill_context (with arguments applied when given).
func loadedSkill(sk *Skill, args *string) (string, error) {
	body := sk.Body
	if args != nil {
		var err error
		if body, err = applySkillArguments(body, *args, sk.argumentNames()); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Loaded Skill: %s (skill)\n\n%s\n\n## Content\n\n%s\n", sk.Name, sk.Description, body)
	if len(sk.Supporting) > 0 {
		fmt.Fprintf(&b, "\n## Supporting Files\n\nSkill directory: %s\n\n"+
			"Relative paths in this skill resolve from the skill directory. "+
			"The shell tool runs in the session working directory, so use the "+
			"resolved path below or `cd` into the skill directory before running "+
			"supporting scripts.\n\n", sk.Dir)
		for _, f := range sk.Supporting {
			if rel, ok := sk.relative(f); ok {
				fmt.Fprintf(&b, "- %s → %s (load_skill(name: \"%s/%s\"))\n", rel, filepath.ToSlash(f), sk.Name, rel)
			}
		}
	}
	return b.String(), nil
}

// loadSupportingFile loads rel of skill sk; a file whose resolved path leaves the skill folder is refused.
func loadSupportingFile(sk *Skill, name, rel string) tools.Result {
	for _, f := range sk.Supporting {
		if r, ok := sk.relative(f); !ok || r != rel {
			continue
		}
		canonicalDir, err := filepath.EvalSymlinks(sk.Dir)
		if err != nil {
			canonicalDir = sk.Dir
		}
		canonical, err := filepath.EvalSymlinks(f)
		if err != nil {
			return errorResult("Failed to resolve '%s': %v", name, err)
		}
		if !inside(canonicalDir, canonical) {
			return errorResult("Refusing to load '%s': resolves outside the skill directory", name)
		}
		// read the path found by the walk through the folder's reader (the workspace's os.Root keeps it
		// inside the workspace even if a link changed since the check)
		data, err := sk.reader.readFile(f, maxSupportingFileBytes)
		if err != nil {
			return errorResult("Failed to read '%s': %v", name, err)
		}
		return tools.Result{Text: fmt.Sprintf("# Loaded: %s\n\n%s\n\n---\nFile loaded into context.", name, strings.ToValidUTF8(string(data), "\uFFFD"))}
	}
	var available []string
	for _, f := range sk.Supporting {
		if r, ok := sk.relative(f); ok {
			available = append(available, r)
			if len(available) == 10 {
				break
			}
		}
	}
	if len(available) == 0 {
		return errorResult("Skill '%s' has no supporting files.", sk.Name)
	}
	return errorResult("File '%s' not found. Available: %s", name, strings.Join(available, ", "))
}
