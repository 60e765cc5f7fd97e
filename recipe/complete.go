// Completion candidates at an offset: template variables and filters inside `{{ }}`/`{% %}`, mapping keys
// by the object the cursor is in, enum values after `key:`. Context comes from the raw line, since a
// buffer being typed is often not valid YAML; the last good tree tells which object a line belongs to.

package recipe

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/template"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// ItemKind classifies a completion item.
type ItemKind uint8

const (
	ItemVariable ItemKind = iota
	ItemFunction
	ItemField
	ItemValue
	ItemSnippet
)

// Item is one completion candidate.
type Item struct {
	Label  string
	Kind   ItemKind
	Detail string
	Doc    string
	// Insert is the text to insert (a snippet when Snippet is set); empty means Label.
	Insert  string
	Snippet bool
	// Replace is the range the item replaces (the word being typed).
	Replace Range
}

var (
	keyLineRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(- +)?([A-Za-z_][A-Za-z0-9_]*)?$`) })
	valueLineRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\s*)(- +)?([A-Za-z_][A-Za-z0-9_]*):\s*["']?([A-Za-z0-9_.-]*)$`)
	})
	wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_]*$`) })
)

// ProviderNames are goose's provider names (goose 1.38's native ones and the built-in declarative ones of
// its newest release), offered for settings.goose_provider; agent/provider/registry's test keeps them in
// step with its table.
var ProviderNames = []string{
	"aimlapi", "alibaba", "amp-acp", "anthropic", "atomic_chat", "avian", "aws_bedrock", "azure_openai",
	"celeris", "cerebras", "chatgpt_codex", "claude-acp", "claude-code", "codex", "codex-acp", "copilot-acp",
	"cursor-agent", "custom_deepseek", "custom_sakana", "custom_tensorix", "databricks", "databricks_v2",
	"empiriolabs", "eurouter", "fireworks-ai", "friendli", "futurmix", "gcp_vertex_ai", "gemini-cli", "gemini_oauth",
	"github_copilot", "google", "groq", "huggingface", "iflytek", "iflytek_astron", "inception", "kimi_code",
	"litellm", "llama_swap", "lmstudio", "local", "lynkr", "meta", "minimax", "mistral", "moonshot", "nano-gpt",
	"nearai", "novita", "nvidia", "ollama", "ollama_cloud", "omlx", "openai", "opencode_go", "opencode_zen",
	"openrouter", "opper", "orcarouter", "ovhcloud", "perplexity", "pi-acp", "pleumrouter", "routstr",
	"sagemaker_tgi", "saladcloud", "saygm", "scaleway", "snowflake", "tanzu_ai", "tetrate", "together",
	"trustedrouter", "venice", "vercel_ai_gateway", "xai", "xai_oauth", "zai", "zai_coding_plan", "zhipu",
}

// BuiltinExtensions are goose's builtin and platform extension names.
var BuiltinExtensions = []string{"developer", "computercontroller", "memory", "tutorial", "autovisualiser", "todo", "summon", "analyze", "extensionmanager", "chatrecall", "skills", "code_execution", "apps"}

// Complete returns the candidates at off; fsys reads sub-recipes and lists recipe files (nil: disk).
func (f *File) Complete(off int, fsys FS) []Item {
	if fsys == nil {
		fsys = OSFS{}
	}
	text := f.Text
	if off > len(text) {
		off = len(text)
	}
	line := f.Lines.Line(off)
	lineStart := f.Lines.LineStart(line)
	prefix := string(text[lineStart:off])
	word := wordRE().FindString(prefix)
	replace := Range{Start: off - len(word), End: off}
	if m := extendsPrefixRE().FindStringSubmatch(prefix); m != nil {
		return f.fileItems(m[1], Range{Start: off - len(m[1]), End: off})
	}
	base := f.structure(line) // the parameters are known even while the line being typed breaks the YAML
	if items, ok := base.completeTemplate(prefix, replace); ok {
		return items
	}
	if typed, rng, ok := base.subRecipePath(prefix, lineStart, off); ok {
		return f.fileItems(typed, rng)
	}
	if m := valueLineRE().FindStringSubmatch(prefix); m != nil {
		return base.completeValue(len(m[1])+len(m[2]), lineStart, m[3], m[2] != "", replace)
	}
	if m := keyLineRE().FindStringSubmatch(prefix); m != nil {
		col := len(m[1]) + len(m[2])
		path := base.containerPath(lineStart, col, m[2] != "")
		if len(path) == 3 && path[0].Key == "sub_recipes" && path[2].Key == "values" {
			return base.childKeyItems(path[1].Index, fsys, replace)
		}
		return base.completeKey(off, lineStart, col, m[2] != "", replace)
	}
	return nil
}

// SubRecipePathAt reports whether off is in the value of a `sub_recipes[].path`, with what is typed there
// and the range a completion replaces (for completions the engine cannot list itself: goose's recipe folders).
func (f *File) SubRecipePathAt(off int) (typed string, replace Range, ok bool) {
	if off > len(f.Text) {
		off = len(f.Text)
	}
	line := f.Lines.Line(off)
	lineStart := f.Lines.LineStart(line)
	return f.structure(line).subRecipePath(string(f.Text[lineStart:off]), lineStart, off)
}

// subRecipePath matches a `path:` line inside a sub_recipes entry.
func (f *File) subRecipePath(prefix string, lineStart, off int) (string, Range, bool) {
	m := pathLineRE().FindStringSubmatch(prefix)
	if m == nil {
		return "", Range{}, false
	}
	if path := f.containerPath(lineStart, len(m[1])+len(m[2]), m[2] != ""); len(path) >= 2 && path[0].Key == "sub_recipes" {
		return m[3], Range{Start: off - len(m[3]), End: off}, true
	}
	return "", Range{}, false
}

var (
	extendsPrefixRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{%-?\s*(?:extends|include)\s+["']([^"']*)$`) })
	pathLineRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)(- +)?path:\s*["']?([^"'#]*)$`) })
)

// fileItems lists recipe files (yaml/json) in the recipe's folder and its direct sub-folders, relative to
// it, for sub-recipe paths and extends/include names.
func (f *File) fileItems(typed string, replace Range) []Item {
	dir := f.Dir()
	var items []Item
	seen := map[string]bool{}
	add := func(rel string) {
		if seen[rel] || rel == filepath.Base(f.Path) {
			return
		}
		seen[rel] = true
		label := rel
		if strings.HasPrefix(typed, "./") {
			label = "./" + rel
		}
		items = append(items, Item{Label: label, Kind: ItemValue, Detail: "recipe file", Replace: replace})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			sub, _ := os.ReadDir(filepath.Join(dir, name))
			for _, se := range sub {
				if isRecipeExt(se.Name()) && !se.IsDir() {
					add(name + "/" + se.Name())
				}
			}
			continue
		}
		if isRecipeExt(name) {
			add(name)
		}
	}
	sortItems(items)
	return items
}

func isRecipeExt(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// childKeyItems offers the sub-recipe's parameter keys not yet set in its values.
func (f *File) childKeyItems(index int, fsys FS, replace Range) []Item {
	if f.Recipe == nil {
		return nil
	}
	for _, s := range f.Recipe.SubRecipes {
		if s.Index != index {
			continue
		}
		path, ok := ResolveSubRecipePath(f.Dir(), s.Path)
		if !ok {
			return nil
		}
		child, err := f.ReadChild(fsys, path)
		if err != nil {
			return nil
		}
		var items []Item
		for _, p := range child.Parameters {
			if s.Values != nil && s.Values.Get(p.Key) != nil {
				continue
			}
			detail := strings.TrimSpace(p.InputType + " " + p.Requirement)
			items = append(items, Item{Label: p.Key, Kind: ItemField, Detail: detail, Doc: p.Description, Insert: p.Key + ": ", Replace: replace})
		}
		return items
	}
	return nil
}

// structure returns a check whose tree covers the file: f itself, or, when the line being typed breaks
// the YAML, a check of the text with that line blanked (same length, so offsets stay valid).
func (f *File) structure(line int) *File {
	if f.Tree != nil {
		return f
	}
	text := append([]byte{}, f.Text...)
	for i := f.Lines.LineStart(line); i < f.Lines.LineEnd(line); i++ {
		text[i] = ' '
	}
	g := Check(f.Path, text, &Options{NoSubRecipes: true})
	if g.Tree == nil {
		return f
	}
	return g
}

// completeTemplate handles a cursor inside an unclosed `{{` or `{%` on the line.
func (f *File) completeTemplate(prefix string, replace Range) ([]Item, bool) {
	open := max(strings.LastIndex(prefix, "{{"), strings.LastIndex(prefix, "{%"))
	if open < 0 || strings.LastIndex(prefix, "}}") > open || strings.LastIndex(prefix, "%}") > open {
		return nil, false
	}
	inside := prefix[open+2:]
	trimmed := strings.TrimRight(inside, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
	if strings.HasSuffix(strings.TrimSpace(trimmed), "|") {
		var items []Item
		for _, name := range template.FilterNames() {
			items = append(items, Item{Label: name, Kind: ItemFunction, Detail: "filter", Replace: replace})
		}
		return items, true
	}
	if strings.HasPrefix(prefix[open:], "{%") && strings.TrimSpace(trimmed) == "" {
		var items []Item
		for _, kw := range []string{"if", "elif", "else", "endif", "for", "endfor", "set", "endset", "with", "endwith", "block", "endblock", "extends", "include", "raw", "endraw", "filter", "endfilter"} {
			items = append(items, Item{Label: kw, Kind: ItemValue, Detail: "statement", Replace: replace})
		}
		return append(items, f.variableItems(replace)...), true
	}
	if strings.Contains(trimmed, "block") && f.Template != nil {
		var items []Item
		for _, t := range f.Parents {
			for name := range t.Blocks {
				items = append(items, Item{Label: name, Kind: ItemValue, Detail: "block in " + t.Name, Replace: replace})
			}
		}
		if len(items) > 0 {
			sortItems(items)
			return items, true
		}
	}
	return f.variableItems(replace), true
}

func (f *File) variableItems(replace Range) []Item {
	items := []Item{{Label: BuiltinRecipeDir, Kind: ItemVariable, Detail: "built in", Doc: "The folder that holds this recipe.", Replace: replace}}
	if f.Recipe != nil {
		for _, p := range f.Recipe.Parameters {
			if p.Key == "" {
				continue
			}
			detail := strings.TrimSpace(p.InputType + " " + p.Requirement)
			items = append(items, Item{Label: p.Key, Kind: ItemVariable, Detail: detail, Doc: p.Description, Replace: replace})
		}
	}
	return items
}

// completeValue offers enum values (and provider and extension names) after `key:`.
func (f *File) completeValue(col, lineStart int, key string, newItem bool, replace Range) []Item {
	path := f.containerPath(lineStart, col, newItem)
	field := FieldAt(append(path, Step{Key: key, Index: -1}))
	var values []string
	var docs map[string]string
	switch {
	case field != nil && len(field.Enum) > 0:
		values, docs = field.Enum, field.EnumDocs
	case key == "goose_provider":
		values = ProviderNames
	case key == "name" && len(path) >= 2 && path[0].Key == "extensions":
		values = BuiltinExtensions
	case key == "sequential_when_repeated" || key == "bundled":
		values = []string{"true", "false"}
	}
	items := make([]Item, 0, len(values))
	for _, v := range values {
		items = append(items, Item{Label: v, Kind: ItemValue, Doc: docs[v], Replace: replace})
	}
	return items
}

// completeKey offers the keys of the object the line belongs to (required ones as snippets).
func (f *File) completeKey(off, lineStart, col int, newItem bool, replace Range) []Item {
	path := f.containerPath(lineStart, col, newItem)
	obj := ObjectAt(path)
	if obj == nil {
		if len(path) == 1 && path[0].Key == "parameters" {
			return []Item{parameterSnippet(replace)}
		}
		return nil
	}
	present := map[string]bool{}
	if !newItem {
		if m := nodeAtPath(f.Tree, path); m != nil && m.Kind == yamltree.Map {
			for _, p := range m.Pairs {
				if p.Key.R.End < replace.Start || p.Key.R.Start > off {
					present[p.Key.Value] = true
				}
			}
		}
	}
	var items []Item
	for _, fd := range obj.Fields {
		if present[fd.Name] {
			continue
		}
		it := Item{Label: fd.Name, Kind: ItemField, Doc: fd.Description, Insert: fd.Name + ": ", Replace: replace}
		if fd.Required {
			it.Detail = "required"
		}
		items = append(items, it)
	}
	if len(path) == 0 && !present["parameters"] {
		items = append(items, Item{Label: "parameters (with an entry)", Kind: ItemSnippet, Snippet: true, Replace: replace,
			Insert: "parameters:\n  - key: ${1:name}\n    input_type: ${2|string,number,boolean,date,file,select|}\n    requirement: ${3|required,optional,user_prompt|}\n    description: ${4:What the value is}"})
	}
	if obj.Name == "parameter" && newItem {
		items = append([]Item{parameterSnippet(replace)}, items...)
	}
	return items
}

func parameterSnippet(replace Range) Item {
	return Item{Label: "new parameter", Kind: ItemSnippet, Snippet: true, Replace: replace, Detail: "key, input_type, requirement, description",
		Insert: "key: ${1:name}\n  input_type: ${2|string,number,boolean,date,file,select|}\n  requirement: ${3|required,optional,user_prompt|}\n  description: ${4:What the value is}"}
}

// containerPath finds the path of the mapping a key typed at column col on the line at lineStart belongs
// to, from the last good tree: the latest mapping above with keys at that column, else the latest key
// above at a smaller column (whose value the line starts).
func (f *File) containerPath(lineStart, col int, newItem bool) []Step {
	if f.Tree == nil {
		return nil
	}
	type cand struct {
		path  []Step
		start int
	}
	var best *cand
	var walk func(n *yamltree.Node, path []Step)
	consider := func(path []Step, start int) {
		if start < lineStart && (best == nil || start > best.start) {
			best = &cand{append([]Step{}, path...), start}
		}
	}
	walk = func(n *yamltree.Node, path []Step) {
		switch n.Kind {
		case yamltree.Map:
			for _, p := range n.Pairs {
				kcol := f.Lines.BytePos(p.Key.R.Start).Col
				if kcol == col {
					consider(path, p.Key.R.Start)
				} else if kcol < col {
					child := append(path[:len(path):len(path)], Step{Key: p.Key.Value, Index: -1})
					if newItem && p.Value.Kind == yamltree.Seq {
						child = append(child, Step{Index: len(p.Value.Items)})
					}
					consider(child, p.Key.R.Start)
				}
				walk(p.Value, append(path[:len(path):len(path)], Step{Key: p.Key.Value, Index: -1}))
			}
		case yamltree.Seq:
			for i, it := range n.Items {
				walk(it, append(path[:len(path):len(path)], Step{Index: i}))
			}
		}
	}
	walk(f.Tree, nil)
	if best == nil {
		return nil
	}
	return best.path
}

func nodeAtPath(root *yamltree.Node, path []Step) *yamltree.Node {
	n := root
	for _, st := range path {
		if n == nil {
			return nil
		}
		if st.Index >= 0 {
			if n.Kind != yamltree.Seq || st.Index >= len(n.Items) {
				return nil
			}
			n = n.Items[st.Index]
			continue
		}
		n = n.Get(st.Key)
	}
	return n
}

func sortItems(items []Item) {
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
}
