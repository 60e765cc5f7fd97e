// Skill discovery as goose 1.38's skills/mod.rs does it: SKILL.md files found recursively in goose's folders,
// in goose's order (first name wins), their frontmatter, body and supporting files. Folders inside the
// workspace are read through the run's os.Root; the user's own folders are trusted as goose trusts them.

package platform

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// Bounds of one discovery (goose has none; a workspace is untrusted).
const (
	maxSkillFileBytes   = 1 << 20 // a SKILL.md
	maxSkillWalkEntries = 20000   // directory entries looked at per skills folder
	maxSkillWalkDepth   = 32
)

// Skill is one discovered skill.
type Skill struct {
	Name        string
	Description string
	Body        string         // everything after the frontmatter, trimmed
	Metadata    map[string]any // the frontmatter's metadata mapping
	Dir         string         // the folder holding SKILL.md (absolute)
	// Supporting are the skill folder's other files (absolute, not in nested skill folders).
	Supporting []string
	// Global is true for the user's folders (false for the workspace's).
	Global bool

	reader skillReader
}

// SkillFolder is one place skills are looked for.
type SkillFolder struct {
	Dir    string
	Global bool
}

// SkillFolders are goose's folders in goose's order: the workspace's .agents, .goose and .claude skills,
// then ~/.agents/skills, <config>/skills, ~/.claude/skills, ~/.config/agents/skills, then the skills folders
// of installed plugins (~/.agents/plugins/*/skills). Empty home or configDir leave theirs out.
func SkillFolders(workDir, home, configDir string) []SkillFolder {
	var out []SkillFolder
	if workDir != "" {
		for _, d := range []string{".agents", ".goose", ".claude"} {
			out = append(out, SkillFolder{Dir: filepath.Join(workDir, d, "skills")})
		}
	}
	if home != "" {
		out = append(out, SkillFolder{Dir: filepath.Join(home, ".agents", "skills"), Global: true})
	}
	if configDir != "" {
		out = append(out, SkillFolder{Dir: filepath.Join(configDir, "skills"), Global: true})
	}
	if home != "" {
		out = append(out, SkillFolder{Dir: filepath.Join(home, ".claude", "skills"), Global: true},
			SkillFolder{Dir: filepath.Join(home, ".config", "agents", "skills"), Global: true})
		plugins, _ := os.ReadDir(filepath.Join(home, ".agents", "plugins"))
		for _, p := range plugins {
			dir := filepath.Join(home, ".agents", "plugins", p.Name(), "skills")
			if st, err := os.Stat(dir); err == nil && st.IsDir() {
				out = append(out, SkillFolder{Dir: dir, Global: true})
			}
		}
	}
	return out
}

// skillReader reaches the disk for one folder: the workspace's os.Root, or the plain file system.
type skillReader interface {
	readDir(abs string) ([]fs.DirEntry, error)
	stat(abs string) (fs.FileInfo, error)
	readFile(abs string, limit int64) ([]byte, error)
}

// workspaceReader reads through the run's os.Root: links leaving the workspace are refused.
type workspaceReader struct{ files *tools.Files }

func (w workspaceReader) readDir(abs string) ([]fs.DirEntry, error) { return w.files.ReadDir(abs) }
func (w workspaceReader) stat(abs string) (fs.FileInfo, error)      { return w.files.Stat(abs) }
func (w workspaceReader) readFile(abs string, limit int64) ([]byte, error) {
	return w.files.ReadFile(abs, limit)
}

// hostReader reads the user's own folders; files are still opened without blocking and must be regular.
type hostReader struct{}

func (hostReader) readDir(abs string) ([]fs.DirEntry, error) { return os.ReadDir(abs) }
func (hostReader) stat(abs string) (fs.FileInfo, error)      { return os.Stat(abs) }
func (hostReader) readFile(abs string, limit int64) ([]byte, error) {
	fh, err := os.OpenFile(abs, os.O_RDONLY|recipe.OpenNonBlocking, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if err := recipe.CheckRegular(fh); err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", abs, tools.ErrTooLarge)
	}
	return data, nil
}

// walker lists files under a folder as goose's walk_files_recursively does: links to folders are
// followed once (by their resolved path), .git/.hg/.svn are skipped; entries are sorted by name.
type walker struct {
	r       skillReader
	visited map[string]bool
	entries int
}

func (w *walker) walk(dir string, depth int, descend func(string) bool, visit func(string)) {
	if depth > maxSkillWalkDepth {
		return
	}
	canonical, err := filepath.EvalSymlinks(dir)
	if err != nil || w.visited[canonical] {
		return
	}
	w.visited[canonical] = true
	list, err := w.r.readDir(dir)
	if err != nil {
		return
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	for _, e := range list {
		if w.entries++; w.entries > maxSkillWalkEntries {
			return
		}
		path := filepath.Join(dir, e.Name())
		isDir, isFile := e.IsDir(), e.Type().IsRegular()
		if e.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(path); err == nil { // the type only; content goes through the reader
				isDir, isFile = st.IsDir(), st.Mode().IsRegular()
			}
		}
		switch {
		case isDir:
			if descend(path) {
				w.walk(path, depth+1, descend, visit)
			}
		case isFile:
			visit(path)
		}
	}
}

func skipVCS(path string) bool {
	switch filepath.Base(path) {
	case ".git", ".hg", ".svn":
		return true
	}
	return false
}

// DiscoverSkills finds the skills a run in workDir would offer, as the skills extension discovers them
// (SkillFolders' folders in order, the first of a name kept, the workspace's folders read through an
// os.Root). home or configDir "" leave their folders out. The workspace handle is closed on return:
// LoadedContext works on the result, the extension's supporting-file loads do not.
func DiscoverSkills(workDir, home, configDir string) []*Skill {
	s := &Skills{WorkDir: workDir, Home: home, ConfigDir: configDir}
	defer s.Close()
	return s.Discover()
}

// discoverSkills finds the skills of folders in order; a name already found is skipped. reader picks
// how each folder is read.
func discoverSkills(folders []SkillFolder, readerFor func(dir string) skillReader) []*Skill {
	var out []*Skill
	seen := map[string]bool{}
	for _, f := range folders {
		r := readerFor(f.Dir)
		if r == nil {
			continue
		}
		var files []string
		w := &walker{r: r, visited: map[string]bool{}}
		w.walk(f.Dir, 0, func(p string) bool { return !skipVCS(p) }, func(p string) {
			if filepath.Base(p) == "SKILL.md" {
				files = append(files, p)
			}
		})
		for _, file := range files {
			data, err := r.readFile(file, maxSkillFileBytes)
			if err != nil {
				slog.Debug("Failed to read skill file", "path", file, "err", err)
				continue
			}
			s, err := parseSkill(string(data))
			if err != nil {
				slog.Debug("skill skipped", "path", file, "err", err)
				continue
			}
			if s == nil || seen[s.Name] {
				continue
			}
			s.Dir, s.Global, s.reader = filepath.Dir(file), f.Global, r
			s.Supporting = supportingFiles(r, s.Dir)
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	return out
}

// supportingFiles are the files under dir other than SKILL.md, not descending into nested skill folders.
func supportingFiles(r skillReader, dir string) []string {
	var files []string
	w := &walker{r: r, visited: map[string]bool{}}
	w.walk(dir, 0, func(p string) bool {
		if skipVCS(p) {
			return false
		}
		st, err := r.stat(filepath.Join(p, "SKILL.md"))
		return err != nil || !st.Mode().IsRegular()
	}, func(p string) {
		if filepath.Base(p) != "SKILL.md" {
			files = append(files, p)
		}
	})
	return files
}

// parseSkill reads a SKILL.md as goose's parse_frontmatter does (the text split on `---`: the second
// piece is YAML, the rest the body). nil, nil: no frontmatter; an error: a skill goose skips with a warning.
func parseSkill(text string) (*Skill, error) {
	parts := strings.Split(text, "---")
	if len(parts) < 3 {
		return nil, nil
	}
	var front map[string]any
	if y := strings.TrimSpace(parts[1]); y != "" {
		if err := yaml.Unmarshal([]byte(y), &front); err != nil {
			return nil, fmt.Errorf("Failed to parse skill frontmatter: %w", err)
		}
	}
	s := &Skill{Body: strings.TrimSpace(strings.Join(parts[2:], "---")), Metadata: map[string]any{}}
	if v, ok := front["description"]; ok {
		d, isString := v.(string)
		if !isString {
			return nil, errors.New("Failed to parse skill frontmatter: description: invalid type, expected a string")
		}
		s.Description = d
	}
	if v, ok := front["metadata"]; ok && v != nil {
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, errors.New("Failed to parse skill frontmatter: metadata: invalid type, expected a map")
		}
		s.Metadata = m
	}
	switch v := front["name"].(type) {
	case nil:
		return nil, errors.New("skill is missing a required 'name' in frontmatter, skipping")
	case string:
		s.Name = v
	default:
		return nil, errors.New("Failed to parse skill frontmatter: name: invalid type, expected a string")
	}
	if s.Name == "" {
		return nil, errors.New("skill is missing a required 'name' in frontmatter, skipping")
	}
	if strings.Contains(s.Name, "/") {
		return nil, fmt.Errorf("Skill name '%s' contains '/', skipping", s.Name)
	}
	return s, nil
}

// argumentNames are metadata.arguments' non-empty strings.
func (s *Skill) argumentNames() []string {
	list, _ := s.Metadata["arguments"].([]any)
	var names []string
	for _, v := range list {
		if n, ok := v.(string); ok && n != "" {
			names = append(names, n)
		}
	}
	return names
}

// ArgumentHint is metadata.argument-hint ("" when absent).
func (s *Skill) ArgumentHint() string {
	h, _ := s.Metadata["argument-hint"].(string)
	return h
}

// relative is a supporting file's path relative to the skill folder, with forward slashes.
func (s *Skill) relative(file string) (string, bool) {
	rel, err := filepath.Rel(s.Dir, file)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
