// The check pipeline: load, template analysis, validation render, YAML, schema, semantic rules.

package recipe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/recipe/schema"
	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/template"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// DefaultMaxSize is the largest file checked (goose's own scheduler limit is far smaller).
const DefaultMaxSize = 8 << 20

// Options configure Check.
type Options struct {
	// FS reads sub-recipes and template parents; nil reads the disk.
	FS FS
	// MaxSize is the largest text checked; 0 means DefaultMaxSize.
	MaxSize int
	// NoSubRecipes skips opening sub-recipe files.
	NoSubRecipes bool
	// Cache keeps work for the next version of one document (the language server keeps one per buffer).
	// It keeps the text checked last: the caller must not modify a text it checked with a Cache.
	Cache *Cache
	// Context stops the check when it is done (cancelled, or past its deadline); the check then ends with
	// a diagnostic that says it stopped and why. nil: context.Background().
	Context context.Context
	// Roots are the folders whose files the recipe may make goose-ls read (sub-recipes, extends/include
	// parents); a file outside every root is not read. Empty: the recipe's own folder.
	Roots []string
	// DesktopHints adds the DESKTOP-FORM hints (desktop.go): what goose Desktop's form refuses and the
	// CLI accepts.
	DesktopHints bool
	// OpenRoots keeps the folders the check reads from open across the checks of one short job
	// (`goose-ls check DIR`; see OpenRoots: never for longer). nil: each check opens and closes its own.
	OpenRoots *OpenRoots
	// ShareChildInfo lets a successful check hand the file's sub-recipe summary to the process-wide
	// cache (childcache.go), so a parent checked later in the same job does not parse this file again.
	ShareChildInfo bool

	// sequential keeps the template stage on the caller's goroutine (tests compare both ways).
	sequential bool
	// alwaysCache uses Cache whatever the text's size (tests re-check small recipes incrementally).
	alwaysCache bool
}

// minCacheBytes is the size from which a document's Cache is used: below it a check from scratch is as
// quick, and the cache's copies of the text are not worth their memory.
const minCacheBytes = 16 << 10

// Cache is what checks of successive versions of one document keep for the next one; each stage has
// its cache: the pre-processing probes (template.ProbeCache), the template parse (templatecache.go), the
// YAML verdict and tree (yamltree.Cache) and the schema's violations (schemacache.go).
type Cache struct {
	probes   template.ProbeCache
	template templateCache
	yaml     yamltree.Cache
	schema   schemaCache
}

func (c *Cache) yamlCache() *yamltree.Cache {
	if c == nil {
		return nil
	}
	return &c.yaml
}

func (c *Cache) probeCache() *template.ProbeCache {
	if c == nil {
		return nil
	}
	return &c.probes
}

func (c *Cache) schemaCache() *schemaCache {
	if c == nil {
		return nil
	}
	return &c.schema
}

// File is a checked recipe with everything editors need: text, lines, template, tree, model, diagnostics.
type File struct {
	Path  string
	Text  []byte
	Lines *source.LineIndex
	// BOM is the length of a leading byte-order mark (0 or 3); all ranges count it.
	BOM      int
	Pre      *template.Preprocessed
	Template *template.Template
	Analysis *template.Analysis
	// Parents are templates loaded through extends/include/import during the validation render;
	// parentAt[i] is the statement of the file (pre-processed text) that led to loading Parents[i].
	Parents  []*template.Template
	parentAt []template.Range
	// Inherits reports that goose renders the file before parsing it (extends/include present).
	Inherits bool
	// RenderSteps is what the validation render cost (at most template.DefaultMaxSteps).
	RenderSteps int
	// Tree is the recipe's root node (inside the Desktop wrapper when there is one).
	Tree    *yamltree.Node
	Wrapper bool
	Recipe  *Recipe
	Diags   []Diagnostic

	rendered     *template.Output
	renderFailed bool
	cache        *Cache
	ctx          context.Context
	stopped      bool     // CHECK-STOPPED was reported
	yamlPatched  bool     // parseYAML parsed a patched copy of the text (yamlpatch.go)
	roots        []string // Options.Roots (fs.go: readRoots)
}

func (f *File) add(d Diagnostic) { f.Diags = append(f.Diags, d) }

func (f *File) errorf(r Range, code, format string, args ...any) {
	f.add(Diagnostic{R: r, Severity: SeverityError, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (f *File) warnf(r Range, code, format string, args ...any) {
	f.add(Diagnostic{R: r, Severity: SeverityWarning, Code: code, Message: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether any diagnostic is an error.
func (f *File) HasErrors() bool {
	for _, d := range f.Diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Dir is the recipe's folder (recipe_dir).
func (f *File) Dir() string { return filepath.Dir(f.Path) }

// usesInheritance reports whether text has a tag that starts with extends or include: what the regexp
// `\{%-?\s*(extends|include)` matches, without running a regexp over a 100 KB text on every keystroke
// (it showed in the server's profile).
func usesInheritance(text string) bool {
	for i := strings.Index(text, "{%"); i >= 0; {
		rest := text[i+2:]
		rest = strings.TrimPrefix(rest, "-")
		rest = strings.TrimLeft(rest, " \t\n\f\r")
		if strings.HasPrefix(rest, "extends") || strings.HasPrefix(rest, "include") {
			return true
		}
		next := strings.Index(text[i+2:], "{%")
		if next < 0 {
			return false
		}
		i += 2 + next
	}
	return false
}

// Check runs every check on text, the content of the recipe at path.
func Check(path string, text []byte, opts *Options) *File {
	if opts == nil {
		opts = &Options{}
	}
	fsys := opts.FS
	if fsys == nil {
		fsys = OSFS{}
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	f := &File{Path: path, Text: text, Lines: source.NewLineIndex(text), ctx: ctx, roots: opts.Roots}
	defer f.finish()
	max := opts.MaxSize
	if max == 0 {
		max = DefaultMaxSize
	}
	if len(text) > max {
		f.errorf(Range{}, CodeFileTooLarge, "recipe file is too large to check (%d bytes; the limit is %d)", len(text), max)
		return f
	}
	if bad := firstInvalidUTF8(text); bad >= 0 {
		f.errorf(Range{Start: bad, End: bad + 1}, CodeFileEncoding, "Failed to read recipe file %s: stream did not contain valid UTF-8", filepath.Base(path))
		return f
	}
	if strings.EqualFold(filepath.Ext(path), ".yml") {
		f.add(Diagnostic{Severity: SeverityWarning, Code: CodeFileExtension,
			R:       Range{},
			Message: fmt.Sprintf("Recipe file %s is not a json or yaml file: goose's CLI accepts only .yaml and .json (Desktop accepts .yml); rename it to .yaml", filepath.Base(path))})
	}
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		f.BOM = 3
	}
	body := string(text[f.BOM:])
	if len(text) >= minCacheBytes || opts.alwaysCache {
		f.cache = opts.Cache
	}
	if !f.stage(ctx, "template pre-processing", func() { f.preprocessTemplate(body) }) || f.Pre == nil || f.Pre.Err != nil {
		return f
	}
	// The YAML stage needs the template's render only when the recipe extends or includes a template;
	// otherwise a large recipe's template stage runs beside the YAML and model stages (templatejoin.go).
	concurrent := len(text) >= minConcurrentBytes && !opts.sequential && !usesInheritance(f.Pre.Text)
	join := f.templateStage(ctx, fsys, concurrent)
	defer join()
	if !concurrent && !join() || !f.stage(ctx, "yaml", func() { f.checkYAML(body) }) {
		return f
	}
	if !f.Inherits {
		f.rendered = nil // only needed to map positions through extends/include
	}
	if f.Tree == nil || !f.stage(ctx, "model", func() { f.Recipe = buildRecipe(f.Tree) }) || !join() || f.Recipe == nil {
		return f
	}
	if opts.ShareChildInfo {
		f.shareChildInfo(body)
	}
	stages := []struct {
		name string
		run  func()
	}{
		{"schema", f.checkSchema}, {"unknown fields", f.checkUnknownFields}, {"parameters", f.checkParameters},
		{"invariants", f.checkInvariants}, {"extensions", f.checkExtensions}, {"settings", f.checkSettings},
		{"sub-recipes", func() {
			if !opts.NoSubRecipes {
				f.checkSubRecipes(fsys, opts.OpenRoots)
			}
		}},
		{"hidden unicode", f.checkHiddenUnicode},
	}
	if opts.DesktopHints {
		stages = append(stages, struct {
			name string
			run  func()
		}{"desktop", f.checkDesktop})
	}
	for _, s := range stages {
		if !f.stage(ctx, s.name, s.run) {
			break
		}
	}
	return f
}

// finish orders the diagnostics and caps them; it runs however the check ended.
func (f *File) finish() {
	if r := recover(); r != nil { // a panic outside every stage (pre-checks, line index)
		slog.Error("recipe check panicked", "path", f.Path, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		f.add(Diagnostic{Severity: SeverityError, Code: CodeInternalError, Message: fmt.Sprintf("goose-ls failed while checking this file: %v", r)})
	}
	sortDiags(f.Diags)
	f.Diags = capDiagnostics(f.Diags)
}

func firstInvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// checkTemplate pre-processes, parses, analyses and validation-renders the whole file as goose does.
// preprocessTemplate applies goose's literal-brace pre-processing (the first half of the template stage).
func (f *File) preprocessTemplate(body string) {
	f.Pre = template.PreprocessCached(body, f.cache.probeCache())
	if err := f.Pre.Err; err != nil {
		f.errorf(f.shift(err.R), CodeTplPreprocessLimit, "%s", err.Msg)
		return
	}
	for _, lit := range f.Pre.Literal {
		f.add(Diagnostic{R: f.shift(lit), Severity: SeverityHint, Code: CodeTplLiteral,
			Message: "kept as literal text: goose cannot parse this as a template expression, so it is not a variable"})
	}
}

// checkTemplate parses, analyses and renders the pre-processed text as goose's validation does (or
// takes the last check's work from the template cache where an edit allows it: templatecache.go).
func (f *File) checkTemplate(fsys FS) {
	if f.cachedTemplate(fsys) {
		return
	}
	tpl, err := template.Parse("recipe", f.Pre.Text)
	f.Template = tpl
	if err != nil {
		var se *template.SyntaxError
		if errors.As(err, &se) {
			line := se.Line // minijinja's line (the pre-processing keeps every line)
			if line == 0 {
				line = f.Lines.Line(f.fromPre(se.EngineRange()).Start) + 1
			}
			d := Diagnostic{R: f.fromPre(se.R), Severity: SeverityError, Code: CodeTplSyntax,
				Message: fmt.Sprintf("%s (in recipe:%d)", se.Error(), line)}
			for _, n := range se.Notes {
				d.Related = append(d.Related, Related{R: f.fromPre(n.R), Message: n.Msg})
			}
			f.add(d)
		}
		f.Template = nil
		return
	}
	f.Analysis = template.Analyze(tpl)
	f.Inherits = usesInheritance(f.Pre.Text)
	f.renderTemplate(fsys)
	f.keepTemplate()
}

// renderTemplate runs goose's validation render of f.Template.
func (f *File) renderTemplate(fsys FS) {
	out, rerr := f.Template.Render(nil, template.RenderOptions{Undefined: template.Lenient, Loader: f.loader(fsys), Context: f.ctx})
	f.Parents, f.RenderSteps = out.Loaded, out.Steps
	f.parentAt = make([]template.Range, len(out.Loaded))
	for i := range out.Loaded {
		f.parentAt[i], _ = out.RootSite(f.Template.Name, i)
	}
	if rerr != nil {
		f.renderFailed = true
		if errors.Is(rerr, context.Canceled) || errors.Is(rerr, context.DeadlineExceeded) {
			f.addStopped(rerr)
		} else {
			f.reportRuntime(rerr)
		}
	}
	f.rendered = out
}

func (f *File) reportRuntime(err error) {
	var re *template.RuntimeError
	if !errors.As(err, &re) {
		f.errorf(Range{}, CodeTplRuntime, "%s", err.Error())
		return
	}
	r := f.fromPre(re.R)
	where := ""
	if re.Template != "recipe" {
		// an error inside a parent or included template: point at the tag that loaded it
		where = " in " + re.Template
		if f.Template != nil && f.Template.Extends != nil {
			r = f.fromPre(f.Template.Extends.R)
		}
	}
	if re.Where != "" {
		// an error minijinja places in a loaded file (a syntax error in it): goose's words, at the tag
		f.errorf(r, CodeTplRuntime, "%s%s", re.Msg, re.Where)
		return
	}
	f.errorf(r, CodeTplRuntime, "%s (in %s:%d)%s", re.Msg, "recipe", f.Lines.Line(r.Start)+1, where)
}

// fromPre maps a range in the pre-processed text back to the file (BOM included).
func (f *File) fromPre(r Range) Range {
	return f.shift(Range{Start: f.Pre.ToOriginal(r.Start), End: f.Pre.ToOriginal(r.End)})
}

func (f *File) shift(r Range) Range { return Range{Start: r.Start + f.BOM, End: r.End + f.BOM} }

// checkYAML parses what goose parses: the pre-processed text, or the rendered text when the recipe
// extends or includes another template.
func (f *File) checkYAML(body string) {
	yamlText := body
	mapBack := func(off int) int { return off + f.BOM }
	if f.Pre != nil {
		yamlText = f.Pre.Text
		mapBack = func(off int) int { return f.Pre.ToOriginal(off) + f.BOM }
	}
	if f.Inherits {
		if f.renderFailed || f.rendered == nil {
			return // goose stops at the render error
		}
		yamlText = f.rendered.Text
		mapBack = f.outputMapper()
	}
	doc, err := f.parseYAML(yamlText, mapBack)
	if err != nil {
		var ye *yamltree.Error
		off := 0
		msg := err.Error()
		if errors.As(err, &ye) {
			off, msg = ye.Offset, ye.Msg
		}
		start := mapBack(off)
		d := Diagnostic{R: f.lineRest(start), Severity: SeverityError, Code: CodeYAMLSyntax, Message: msg + f.templateScalarHint(start)}
		if ye != nil && ye.HasConstruct {
			// on what the author must fix, with libyaml's own place beside it
			note := yamltree.NoteParserStops
			if ye.AtEnd {
				note = yamltree.NoteParserEnd
			}
			d.Related = []Related{{R: d.R, Message: note}}
			d.R = f.lineRest(mapBack(ye.Construct))
		}
		f.add(d)
		return
	}
	if f.BOM != 0 || f.Inherits || (f.Pre != nil && len(f.Pre.Text) != len(body)) {
		// offsets move (a byte order mark, pre-processing inserts, a render): a copy with the file's
		// offsets, since the tree's nodes are shared with the YAML cache
		cp := *doc
		cp.Root = remapped(doc.Root, mapBack)
		doc = &cp
	}
	if f.Inherits && f.Template != nil && f.Template.Extends != nil {
		ext := f.fromPre(f.Template.Extends.R)
		pinToTag(doc.Root, ext)
	}
	if doc.Extra != nil {
		s := mapBack(doc.Extra.Start)
		f.errorf(Range{Start: s, End: mapBack(doc.Extra.End)}, CodeYAMLSyntax, "deserializing from YAML containing more than one document is not supported")
	}
	root := doc.Root
	if root == nil {
		f.errorf(Range{}, CodeMissingField, "missing field `title`")
		return
	}
	if root.Kind != yamltree.Map {
		f.errorf(root.R, CodeInvalidType, "invalid type: %s, expected struct Recipe", root.Describe())
		return
	}
	if w := root.Get("recipe"); w != nil {
		f.Wrapper = true
		root = w
		if root.Kind != yamltree.Map {
			f.errorf(root.R, CodeInvalidType, "invalid type: %s, expected struct Recipe", root.Describe())
			return
		}
	}
	f.Tree = root
}

// lineRest is a range from off to the end of its line (at least one character).
func (f *File) lineRest(off int) Range {
	l := f.Lines.Line(off)
	end := f.Lines.LineEnd(l)
	if end <= off {
		end = off + 1
		if end > len(f.Text) {
			end = len(f.Text)
			if off > 0 && off == end {
				off--
			}
		}
	}
	return Range{Start: off, End: end}
}

// templateScalarHint explains the usual cause when a YAML error sits on a line whose value starts with `{{`.
func (f *File) templateScalarHint(off int) string {
	l := f.Lines.Line(off)
	line := string(f.Text[f.Lines.LineStart(l):f.Lines.LineEnd(l)])
	if i := strings.Index(line, ": {{"); i >= 0 || strings.HasPrefix(strings.TrimSpace(line), "- {{") || strings.HasPrefix(strings.TrimSpace(line), "{{") {
		return " (a value that starts with `{{` must be quoted, e.g. \"{{ name }} …\")"
	}
	if strings.HasPrefix(strings.TrimSpace(line), "{%") {
		return " (put `{% %}` tags inside a block scalar such as `prompt: |`)"
	}
	return ""
}

// outputMapper maps offsets in the rendered text back to the file.
func (f *File) outputMapper() func(int) int {
	segs := f.rendered.Segments
	fallback := 0
	if f.Template != nil && f.Template.Extends != nil {
		fallback = f.Template.Extends.R.Start
	}
	return func(off int) int {
		i := sort.Search(len(segs), func(i int) bool { return segs[i].Out+segs[i].Len > off })
		if i >= len(segs) {
			return f.Pre.ToOriginal(fallback) + f.BOM
		}
		s := segs[i]
		if s.Tmpl != "recipe" {
			return f.Pre.ToOriginal(fallback) + f.BOM
		}
		if !s.Exact || off < s.Out {
			return f.Pre.ToOriginal(s.Src) + f.BOM
		}
		return f.Pre.ToOriginal(s.Src+off-s.Out) + f.BOM
	}
}

// pinToTag gives nodes that come wholly from a parent template the range of the extends tag.
func pinToTag(n *yamltree.Node, tag Range) {
	if n == nil {
		return
	}
	if n.R.Start == tag.Start && n.R.End == tag.Start {
		n.R = tag
	}
	for _, p := range n.Pairs {
		pinToTag(p.Key, tag)
		pinToTag(p.Value, tag)
	}
	for _, it := range n.Items {
		pinToTag(it, tag)
	}
}

// remapped is a copy of the tree under n with every range mapped by fn.
func remapped(n *yamltree.Node, fn func(int) int) *yamltree.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.R = Range{Start: fn(n.R.Start), End: fn(n.R.End)}
	if c.R.End < c.R.Start {
		c.R.End = c.R.Start
	}
	if n.Pairs != nil {
		c.Pairs = make([]*yamltree.Pair, len(n.Pairs))
		for i, p := range n.Pairs {
			c.Pairs[i] = &yamltree.Pair{Key: remapped(p.Key, fn), Value: remapped(p.Value, fn)}
		}
	}
	if n.Items != nil {
		c.Items = make([]*yamltree.Node, len(n.Items))
		for i, it := range n.Items {
			c.Items[i] = remapped(it, fn)
		}
	}
	return &c
}

func sortDiags(d []Diagnostic) {
	sort.SliceStable(d, func(i, j int) bool {
		if d[i].R.Start != d[j].R.Start {
			return d[i].R.Start < d[j].R.Start
		}
		return d[i].Severity < d[j].Severity
	})
}

// schemaObjects is the compiled schema (embedded; loading cannot fail once tested).
var schemaObjects = schema.MustLoad
