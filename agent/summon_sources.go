// summon's sources (goose's get_sources): the recipe's sub_recipes, then recipe and agent files in goose's
// folders — read only inside the run's roots — and the `load` listing, loading and instructions texts.

package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/agent/config"
	"github.com/goose-ls/goose-ls/agent/tools"
	"github.com/goose-ls/goose-ls/recipe"
)

// sourceKind orders as goose's SourceType: recipe < subrecipe < agent.
type sourceKind int

const (
	kindRecipe sourceKind = iota
	kindSubrecipe
	kindAgent
)

func (k sourceKind) String() string { return [...]string{"recipe", "subrecipe", "agent"}[k] }

func (k sourceKind) plural() string { return [...]string{"Recipes", "Subrecipes", "Agents"}[k] }

// source is one thing load/delegate can name.
type source struct {
	kind        sourceKind
	name        string
	description string
	content     string
	path        string
	sub         *SubRecipeDoc // kindSubrecipe
	model       string        // kindAgent: the frontmatter's model
}

// sourceCache keeps the file-system sources of one working folder for 60 s (goose's cache).
type sourceCache struct {
	at      time.Time
	dir     string
	sources []source
}

const descriptionBudget = 160

// safeTruncate is goose's safe_truncate: at most max characters, the last three `...` when cut.
func safeTruncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-3]) + "..."
}

// absoluteSubRecipes makes each path absolute relative to the recipe's folder, as goose does at load.
func absoluteSubRecipes(entries []SubRecipeDoc, recipePath string) []SubRecipeDoc {
	base := "."
	if recipePath != "" {
		base = filepath.Dir(recipePath)
	}
	out := make([]SubRecipeDoc, len(entries))
	for i, e := range entries {
		if !filepath.IsAbs(e.Path) {
			e.Path = filepath.Join(base, e.Path)
		}
		if abs, err := filepath.Abs(e.Path); err == nil {
			e.Path = abs
		}
		out[i] = e
	}
	return out
}

// readConfined reads a file a recipe or a tool call names: inside the run's roots only, a regular file,
// size-capped, from the front end's buffers when it has one (recipe.ConfinedOverlay); nothing else is opened.
func (s *summonExt) readConfined(path string) ([]byte, error) {
	return recipe.ConfinedOverlay(s.opts.Files, s.opts.readRoots).ReadFile(path)
}

func (s *summonExt) workDir() string { return s.opts.Workspace.Root() }

// sources is goose's get_sources: sub_recipes first, then file-system sources whose name is new, sorted
// by kind then name.
func (s *summonExt) sources(fresh bool) []source {
	var out []source
	seen := map[string]bool{}
	for i := range s.subs {
		sr := &s.subs[i]
		if seen[sr.Name] {
			continue
		}
		seen[sr.Name] = true
		out = append(out, source{kind: kindSubrecipe, name: sr.Name, description: s.subrecipeDescription(sr), path: sr.Path, sub: sr})
	}
	for _, src := range s.fileSources(fresh) {
		if !seen[src.name] {
			seen[src.name] = true
			out = append(out, src)
		}
	}
	sortSources(out)
	return out
}

func sortSources(ss []source) {
	sort.SliceStable(ss, func(i, j int) bool {
		if ss[i].kind != ss[j].kind {
			return ss[i].kind < ss[j].kind
		}
		return ss[i].name < ss[j].name
	})
}

func (s *summonExt) fileSources(fresh bool) []source {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	dir := s.workDir()
	if c := s.cache; !fresh && c != nil && c.dir == dir && time.Since(c.at) < time.Minute {
		return c.sources
	}
	found := s.discover(dir)
	s.cache = &sourceCache{at: time.Now(), dir: dir, sources: found}
	return found
}

// discover scans goose's folders in goose's order (local recipes, local agents, global recipes, global
// agents); a name already found is skipped. *Choice*: a folder outside the run's roots (the global ones,
// unless a root holds them) is not read, like every file a recipe or a model names.
func (s *summonExt) discover(wd string) []source {
	home, _ := os.UserHomeDir()
	cfg := gooseConfigDir(s.opts.lookup, home)
	var globalRecipes []string
	if v, ok := s.opts.lookup("GOOSE_RECIPE_PATH"); ok {
		globalRecipes = append(globalRecipes, filepath.SplitList(v)...)
	}
	globalRecipes = append(globalRecipes, filepath.Join(home, ".goose/recipes"), filepath.Join(cfg, "recipes"), filepath.Join(home, ".agents/recipes"))
	var out []source
	seen := map[string]bool{}
	for _, d := range []string{wd, filepath.Join(wd, ".goose/recipes"), filepath.Join(wd, ".agents/recipes")} {
		s.scanRecipes(d, &out, seen)
	}
	for _, d := range []string{filepath.Join(wd, ".goose/agents"), filepath.Join(wd, ".claude/agents"), filepath.Join(wd, ".agents/agents")} {
		s.scanAgents(d, &out, seen)
	}
	for _, d := range globalRecipes {
		s.scanRecipes(d, &out, seen)
	}
	for _, d := range []string{filepath.Join(home, ".goose/agents"), filepath.Join(home, ".agents/agents"), filepath.Join(cfg, "agents"), filepath.Join(home, ".claude/agents")} {
		s.scanAgents(d, &out, seen)
	}
	return out
}

// gooseConfigDir is goose's config folder (config.Dirs: GOOSE_PATH_ROOT/config, else
// $XDG_CONFIG_HOME/goose, else ~/.config/goose), with home as the home folder.
func gooseConfigDir(lookup func(string) (string, bool), home string) string {
	dir, _ := config.Dirs(func(key string) (string, bool) {
		if key == "HOME" {
			return home, home != ""
		}
		return lookup(key)
	})
	return dir
}

// listConfined lists the file names of dir, opened through an os.Root of the run's root that holds it
// (a link out of the root is refused); nothing when no root holds dir.
func (s *summonExt) listConfined(dir string) []string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	for _, root := range s.opts.readRoots {
		rootAbs, err := filepath.Abs(root)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(rootAbs, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		r, err := os.OpenRoot(rootAbs)
		if err != nil {
			continue
		}
		entries, err := fs.ReadDir(r.FS(), filepath.ToSlash(rel))
		r.Close()
		if err != nil {
			return nil
		}
		var names []string
		for _, e := range entries {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
		return names
	}
	return nil
}

func (s *summonExt) scanRecipes(dir string, out *[]source, seen map[string]bool) {
	for _, name := range s.listConfined(dir) {
		ext := filepath.Ext(name)
		stem := strings.TrimSuffix(name, ext)
		if (ext != ".yaml" && ext != ".json") || stem == "" || seen[stem] {
			continue
		}
		path := filepath.Join(dir, name)
		text, err := s.readConfined(path)
		if err != nil {
			continue
		}
		r, err := parseSourceRecipe(text)
		if err != nil {
			continue // goose logs and skips a file that is not a recipe
		}
		seen[stem] = true
		*out = append(*out, source{kind: kindRecipe, name: stem, description: r.Description, content: r.Instructions, path: path})
	}
}

func (s *summonExt) scanAgents(dir string, out *[]source, seen map[string]bool) {
	for _, name := range s.listConfined(dir) {
		if filepath.Ext(name) != ".md" {
			continue
		}
		path := filepath.Join(dir, name)
		text, err := s.readConfined(path)
		if err != nil {
			continue
		}
		if src, ok := parseAgentSource(string(text), path); ok && !seen[src.name] {
			seen[src.name] = true
			*out = append(*out, src)
		}
	}
}

// agentFrontmatter is an agent file's metadata (`name` required).
type agentFrontmatter struct {
	Name        *string `yaml:"name"`
	Description *string `yaml:"description"`
	Model       *string `yaml:"model"`
}

// parseFrontmatter is goose's: the text split on `---`, the second piece YAML, the rest the body.
func parseFrontmatter(text string) (agentFrontmatter, string, bool) {
	parts := strings.Split(text, "---")
	var fm agentFrontmatter
	if len(parts) < 3 || yaml.Unmarshal([]byte(strings.TrimSpace(parts[1])), &fm) != nil || fm.Name == nil {
		return fm, "", false
	}
	return fm, strings.TrimSpace(strings.Join(parts[2:], "---")), true
}

func parseAgentSource(text, path string) (source, bool) {
	fm, body, ok := parseFrontmatter(text)
	if !ok {
		return source{}, false
	}
	src := source{kind: kindAgent, name: *fm.Name, content: body, path: path}
	if fm.Model != nil {
		src.model = *fm.Model
	}
	switch {
	case fm.Description != nil:
		src.description = *fm.Description
	case fm.Model != nil:
		src.description = "Agent (" + *fm.Model + ")"
	default:
		src.description = "Agent"
	}
	return src, true
}

// sourceRecipe is what goose's Recipe::from_content needs of a file (parsed, not rendered).
type sourceRecipe struct {
	Title        *string        `yaml:"title" json:"title"`
	Description  *string        `yaml:"description" json:"description"`
	Instructions string         `yaml:"instructions" json:"instructions"`
	Parameters   []sourceParam  `yaml:"parameters" json:"parameters"`
	Nested       map[string]any `yaml:"recipe" json:"recipe"`
}

type sourceParam struct {
	Key         string   `yaml:"key" json:"key"`
	InputType   string   `yaml:"input_type" json:"input_type"`
	Requirement string   `yaml:"requirement" json:"requirement"`
	Description string   `yaml:"description" json:"description"`
	Default     any      `yaml:"default" json:"default"`
	Options     []string `yaml:"options" json:"options"`
}

// parsedRecipe is a source recipe's fields.
type parsedRecipe struct {
	Description, Instructions string
	Parameters                []sourceParam
}

// errNotRecipe: the file has no title or no description.
var errNotRecipe = errors.New("missing field `title` or `description`")

// parseSourceRecipe parses a recipe file as goose does for sources: YAML (a `recipe:` key nests it), with
// a title and a description. A text that does not even hold both words is not parsed, and JSON is decoded
// by encoding/json (a working folder's other YAML and JSON files are read at every run's start).
func parseSourceRecipe(text []byte) (parsedRecipe, error) {
	if !bytes.Contains(text, []byte("title")) || !bytes.Contains(text, []byte("description")) {
		return parsedRecipe{}, errNotRecipe
	}
	unmarshal := yaml.Unmarshal
	if t := bytes.TrimSpace(text); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		unmarshal = json.Unmarshal
	}
	var r sourceRecipe
	if err := unmarshal(text, &r); err != nil {
		return parsedRecipe{}, err
	}
	if r.Nested != nil {
		inner, _ := json.Marshal(jsonCompatible(r.Nested))
		r = sourceRecipe{}
		if err := json.Unmarshal(inner, &r); err != nil {
			return parsedRecipe{}, err
		}
	}
	if r.Title == nil || r.Description == nil {
		return parsedRecipe{}, errNotRecipe
	}
	return parsedRecipe{Description: *r.Description, Instructions: r.Instructions, Parameters: r.Parameters}, nil
}

// formatParameters is goose's parameter block.
func formatParameters(params []sourceParam) string {
	var b strings.Builder
	b.WriteString("Parameters:")
	for _, p := range params {
		fmt.Fprintf(&b, "\n  - %s (%s, %s)", p.Key, p.InputType, p.Requirement)
		if p.Default != nil {
			fmt.Fprintf(&b, ", default: \"%v\"", p.Default)
		}
		if len(p.Options) > 0 {
			fmt.Fprintf(&b, ", options: [%s]", strings.Join(p.Options, ", "))
		}
		fmt.Fprintf(&b, ": %s", p.Description)
	}
	return b.String()
}

// subrecipeDescription is goose's: the entry's description, else the child's description and parameter
// block, else `Subrecipe from PATH`.
func (s *summonExt) subrecipeDescription(sr *SubRecipeDoc) string {
	if sr.Description != "" {
		return sr.Description
	}
	if text, err := s.readConfined(sr.Path); err == nil {
		if r, err := parseSourceRecipe(text); err == nil {
			if len(r.Parameters) > 0 {
				return r.Description + "\n" + formatParameters(r.Parameters)
			}
			return r.Description
		}
	}
	return "Subrecipe from " + sr.Path
}

// subrecipeContent is what load gives for a sub-recipe: its instructions and parameter block, the raw
// text when it does not parse, nothing when it cannot be read.
func (s *summonExt) subrecipeContent(sr *SubRecipeDoc) string {
	text, err := s.readConfined(sr.Path)
	if err != nil {
		return ""
	}
	r, err := parseSourceRecipe(text)
	if err != nil {
		return string(text)
	}
	content := r.Instructions
	if len(r.Parameters) > 0 {
		content += "\n\n" + formatParameters(r.Parameters)
	}
	return content
}

// resolve finds a source by name, loading a sub-recipe's content.
func (s *summonExt) resolve(name string) (source, bool) {
	for _, src := range s.sources(false) {
		if src.name == name {
			if src.kind == kindSubrecipe && src.content == "" {
				src.content = s.subrecipeContent(src.sub)
			}
			return src, true
		}
	}
	return source{}, false
}

// load lists sources, loads one into the context, or waits for a background task.
func (s *summonExt) load(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var in struct {
		Source *string `json:"source"`
		Cancel bool    `json:"cancel"`
	}
	_ = json.Unmarshal(args, &in) // goose reads the two keys leniently
	if in.Source == nil {
		return tools.Result{Text: s.listing()}, nil
	}
	name := *in.Source
	if isTaskID(name) {
		text, err := s.tasks.result(ctx, name, in.Cancel)
		return tools.Result{Text: text}, err
	}
	src, ok := s.resolve(name)
	if !ok {
		var near []string
		for _, c := range s.sources(false) {
			if len(near) < 3 && (strings.Contains(strings.ToLower(c.name), strings.ToLower(name)) || strings.Contains(strings.ToLower(name), strings.ToLower(c.name))) {
				near = append(near, c.name)
			}
		}
		if len(near) == 0 {
			return tools.Result{}, fmt.Errorf("Source '%s' not found. Use load() to see available sources.", name)
		}
		return tools.Result{}, fmt.Errorf("Source '%s' not found. Did you mean: %s?", name, strings.Join(near, ", "))
	}
	loaded := fmt.Sprintf("## %s (%s)\n\n%s\n\n### Content\n\n%s", src.name, src.kind, src.description, src.content)
	return tools.Result{Text: fmt.Sprintf("# Loaded: %s (%s)\n\n%s\n\n---\nThis knowledge is now available in your context.", src.name, src.kind, loaded)}, nil
}

// listing is load() without a source: the cache is refreshed first.
func (s *summonExt) listing() string {
	sources := s.sources(true)
	completed := s.tasks.completedLines()
	if len(sources) == 0 && len(completed) == 0 {
		return "No sources available for load/delegate.\n\n" +
			"Sources are discovered from:\n" +
			"• Current recipe's sub_recipes\n" +
			"• .agents/recipes/, .agents/agents/ (project-level)\n" +
			"• ~/.agents/agents/ (global)\n" +
			"• GOOSE_RECIPE_PATH directories"
	}
	var b strings.Builder
	b.WriteString("Available sources for load/delegate:\n")
	if len(completed) > 0 {
		b.WriteString("\nCompleted Tasks (awaiting retrieval):\n")
		for _, l := range completed {
			b.WriteString(l + "\n")
		}
	}
	for _, kind := range []sourceKind{kindSubrecipe, kindRecipe, kindAgent} {
		header := false
		for _, src := range sources {
			if src.kind != kind {
				continue
			}
			if !header {
				fmt.Fprintf(&b, "\n%s:\n", kind.plural())
				header = true
			}
			fmt.Fprintf(&b, "• %s - %s\n", src.name, safeTruncate(src.description, descriptionBudget))
		}
	}
	b.WriteString("\nUse load(source: \"name\") to load into context.\n")
	b.WriteString("Use delegate(source: \"name\") to run as subagent.")
	return b.String()
}

// subagentInstructions is goose's build_subagent_instructions: file-system sources first, then the
// recipe's sub_recipes not already named (with the entry's own description), sorted by kind and name.
func (s *summonExt) subagentInstructions() string {
	sources := s.fileSources(false)
	seen := map[string]bool{}
	for _, src := range sources {
		seen[src.name] = true
	}
	sources = append([]source(nil), sources...)
	for i := range s.subs {
		sr := &s.subs[i]
		if !seen[sr.Name] {
			seen[sr.Name] = true
			sources = append(sources, source{kind: kindSubrecipe, name: sr.Name, description: sr.Description, path: sr.Path, sub: sr})
		}
	}
	if len(sources) == 0 {
		return ""
	}
	sortSources(sources)
	names := make([]string, len(sources))
	for i, src := range sources {
		names[i] = src.name
	}
	var b strings.Builder
	b.WriteString("\n\nThe following named subagents are available in this session and can be invoked through the `delegate` tool (run as a subagent) or the `load` tool (read their instructions into your own context):\n")
	current := sourceKind(-1)
	for _, src := range sources {
		if src.kind != current {
			fmt.Fprintf(&b, "\n%s:", src.kind.plural())
			current = src.kind
		}
		fmt.Fprintf(&b, "\n• %s — %s", src.name, safeTruncate(src.description, descriptionBudget))
	}
	fmt.Fprintf(&b, "\n\nWhen to call a subagent (one of [%s]):\n"+
		"• `@<name>` in the user's message — always call that subagent.\n"+
		"• The user mentions a subagent by name without `@` — infer from context whether they want it invoked, and if so, call it.\n"+
		"• The user's request strongly matches a subagent's description — call it.\n\n"+
		"Calling a subagent normally means `delegate(source: \"<name>\", instructions: ...)`, which runs it as an isolated subagent and returns its result. "+
		"Use `load(source: \"<name>\")` instead if you only want to read the subagent's instructions into your own context. "+
		"For long-running work, pass `async: true` to `delegate` — it returns a task id immediately, and you collect the result later with `load(source: \"<task_id>\")`, which waits for completion.",
		strings.Join(names, ", "))
	return b.String()
}
