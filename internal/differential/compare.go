// Dimensions of agreement and the comparison of one case's answers (goose's references vs goose-ls).

package differential

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Dim is one dimension of agreement.
type Dim int

// The dimensions, in table order.
const (
	DimSyntax Dim = iota
	DimSyntaxMsg
	DimRender
	DimRenderMsg
	DimRenderOutput
	DimVars
	DimVarsMain
	DimRun
	DimRunOutput
	DimRunMsg
	DimYAML
	DimYAMLMsg
	DimParams
	numDims
)

var dimNames = [numDims]string{
	"template syntax verdict", "template syntax message", "validation render verdict", "validation render message",
	"validation render output", "undeclared variables", "variables of the file alone", "run-time render verdict", "run-time render output",
	"run-time render message", "YAML verdict", "YAML message", "parameter verdict",
}

func (d Dim) String() string { return dimNames[d] }

// IsMessage reports whether the dimension compares wording (issue 12's 99 % threshold) rather than a
// verdict, a variable set or an output (100 %).
func (d Dim) IsMessage() bool {
	return d == DimSyntaxMsg || d == DimRenderMsg || d == DimRunMsg || d == DimYAMLMsg
}

// Finding is one dimension's comparison on one case.
type Finding struct {
	Dim   Dim
	Agree bool
	// Class groups disagreements that are the same problem (numbers normalised); shrinking keeps it.
	Class string
	// Goose and GooseLS are what each side said, for the report.
	Goose, GooseLS string
}

// inheritRE is goose's test for "render before parsing" (extends or include in the pre-processed text).
var inheritRE = regexp.MustCompile(`\{%-?\s*(extends|include)`)

// yamlInput is the text goose's YAML step parses, or false when goose stops before it (template errors).
func yamlInput(o *MJAnswer) (string, bool) {
	if o.Crashed || o.Panic != nil || o.Syntax != nil || o.LenientError != nil || o.Refused != nil || o.Pre == nil {
		return "", false
	}
	if inheritRE.MatchString(*o.Pre) {
		if o.LenientOutput == nil {
			return "", false
		}
		return *o.LenientOutput, true
	}
	return *o.Pre, true
}

// Compare finds, dimension by dimension, whether goose-ls agrees with the references on one case; y is
// nil when goose does not reach its YAML step.
func Compare(c *Case, o *MJAnswer, e *EngineResult, y *YAMLAnswer) []Finding {
	var fs []Finding
	add := func(d Dim, agree bool, goose, gooseLS string) {
		f := Finding{Dim: d, Agree: agree, Goose: goose, GooseLS: gooseLS}
		if !agree {
			f.Class = classOf(d, goose, gooseLS)
		}
		fs = append(fs, f)
	}
	if o.Crashed || o.Panic != nil {
		return fs // the reference itself failed on the whole input: nothing to compare (counted apart)
	}
	if e.Internal != nil {
		// the engine itself failed (panic, INTERNAL-ERROR, CHECK-STOPPED): never goose's behaviour
		fs = append(fs, Finding{Dim: DimSyntax, Goose: errText(o.Syntax), GooseLS: *e.Internal, Class: "goose-ls failed: " + shape(*e.Internal)})
		return fs
	}
	// template syntax
	add(DimSyntax, (o.Syntax != nil) == (e.Syntax != nil), errText(o.Syntax), orOK(e.Syntax))
	if o.Syntax != nil && e.Syntax != nil {
		add(DimSyntaxMsg, o.Syntax.Display == *e.Syntax, o.Syntax.Display, *e.Syntax)
	}
	if o.Syntax == nil && e.Syntax == nil {
		// undeclared_variables(true) of the file's own template, whatever the render does
		add(DimVarsMain, slices.Equal(sorted(o.VarsMain), e.VarsMain), strings.Join(sorted(o.VarsMain), " "), strings.Join(e.VarsMain, " "))
		if o.Refused != nil {
			// goose's loader refuses a template the oracle's read: its validation render fails there
			add(DimRender, e.Runtime != nil, o.Refused.Display, orOK(e.Runtime))
			if e.Runtime != nil {
				add(DimRenderMsg, o.Refused.Display == *e.Runtime, o.Refused.Display, *e.Runtime)
			}
			return fs
		}
		compareRender(o, e, add)
	}
	// goose run validates first (syntax, validation render) and renders with the values only then
	if c.Values != nil && o.Syntax == nil && o.LenientError == nil {
		compareRun(o, e, add)
	}
	if y != nil && !y.Crashed {
		add(DimYAML, (y.Error != nil) == (e.YAML != nil), orOK(y.Error), orOK(e.YAML))
		if y.Error != nil && e.YAML != nil {
			add(DimYAMLMsg, sameYAMLMessage(*y.Error, *e.YAML), *y.Error, *e.YAML)
		}
		if y.Error == nil && c.Kind == "loads" && e.Syntax == nil && e.Runtime == nil && e.YAML == nil {
			compareParams(o, e, add)
		}
	}
	return fs
}

// compareParams compares goose's parameter verdict on a generated loads recipe (which goose reaches when
// its template and YAML steps pass): the variables of every template the validation render loaded,
// recipe_dir left out, against the parameter keys of the text goose parses.
func compareParams(o *MJAnswer, e *EngineResult, add func(Dim, bool, string, string)) {
	text, _ := yamlInput(o)
	keys := map[string]bool{}
	for _, m := range paramKeyRE.FindAllStringSubmatch(text, -1) {
		keys[m[1]] = true
	}
	vars := map[string]bool{}
	var missing, extra []string
	for _, v := range o.Vars {
		if v == "recipe_dir" {
			continue
		}
		vars[v] = true
		if !keys[v] {
			missing = append(missing, v)
		}
	}
	for k := range keys {
		if !vars[k] {
			extra = append(extra, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	verdict := func(missing, extra []string) string {
		return "missing: " + strings.Join(missing, " ") + "; unnecessary: " + strings.Join(extra, " ")
	}
	want, got := verdict(missing, extra), verdict(e.Missing, e.Unnecessary)
	add(DimParams, want == got, want, got)
}

func compareRender(o *MJAnswer, e *EngineResult, add func(Dim, bool, string, string)) {
	if o.LenientError != nil && o.LenientError.Kind == "panic" {
		// minijinja panics there (goose would crash): any honest error agrees (issue 12, exception)
		add(DimRender, e.Runtime != nil, errText(o.LenientError), orOK(e.Runtime))
		return
	}
	add(DimRender, (o.LenientError != nil) == (e.Runtime != nil), errText(o.LenientError), orOK(e.Runtime))
	switch {
	case o.LenientError != nil && e.Runtime != nil:
		add(DimRenderMsg, o.LenientError.Display == *e.Runtime, o.LenientError.Display, *e.Runtime)
	case o.LenientError == nil && e.Runtime == nil:
		if o.LenientOutput != nil && e.Lenient != nil {
			add(DimRenderOutput, sameOutput(*o.LenientOutput, *e.Lenient), *o.LenientOutput, *e.Lenient)
		}
		want := slices.DeleteFunc(slices.Clone(o.Vars), func(s string) bool { return s == "recipe_dir" })
		slices.Sort(want)
		add(DimVars, slices.Equal(want, e.Vars), strings.Join(want, " "), strings.Join(e.Vars, " "))
	}
}

func compareRun(o *MJAnswer, e *EngineResult, add func(Dim, bool, string, string)) {
	if o.StrictError != nil && o.StrictError.Kind == "panic" {
		add(DimRun, e.StrictErr != nil, errText(o.StrictError), orOK(e.StrictErr))
		return
	}
	if o.StrictError == nil && o.StrictOutput == nil {
		return
	}
	add(DimRun, (o.StrictError != nil) == (e.StrictErr != nil), errText(o.StrictError), orOK(e.StrictErr))
	switch {
	case o.StrictError != nil && e.StrictErr != nil:
		want := "Failed to render the recipe " + o.StrictError.Display
		add(DimRunMsg, want == *e.StrictErr, want, *e.StrictErr)
	case o.StrictError == nil && e.StrictErr == nil:
		add(DimRunOutput, sameOutput(*o.StrictOutput, *e.Strict), *o.StrictOutput, *e.Strict)
	}
}

// sameOutput compares two renders, the templates list of a debug() dump as a set (listed exception).
func sameOutput(goose, gooseLS string) bool {
	return goose == gooseLS || sortDebugTemplates(goose) == sortDebugTemplates(gooseLS)
}

// sortDebugTemplates sorts the entries of each `templates: [ … ]` list of the debug() dumps in s: goose
// lists the loaded templates in its hash map's order, which changes from run to run.
func sortDebugTemplates(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "templates: [" {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), "]") {
			end++
		}
		slices.Sort(lines[i+1 : end])
		i = end
	}
	return strings.Join(lines, "")
}

// sameYAMLMessage: goose prints libyaml's problem (serde_yaml's location cut); goose-ls may add a hint
// in parentheses after it.
func sameYAMLMessage(goose, gooseLS string) bool {
	return gooseLS == goose || strings.HasPrefix(gooseLS, goose+" (")
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func errText(e *MJError) string {
	if e == nil {
		return "ok"
	}
	return e.Display
}

func orOK(s *string) string {
	if s == nil {
		return "ok"
	}
	return *s
}

var digitsRE = regexp.MustCompile(`[0-9]+`)

// norm makes a message a class key: numbers out, at most 90 characters.
func norm(s string) string {
	s = digitsRE.ReplaceAllString(s, "N")
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 90 {
		s = s[:90] + "…"
	}
	return s
}

// classOf names a disagreement: for a verdict, the side that reported an error and the shape of its
// words; for a message, both shapes; for a set, the names in dispute; for an output, where the texts part.
func classOf(d Dim, goose, gooseLS string) string {
	switch d {
	case DimSyntax, DimRender, DimRun, DimYAML:
		if goose == "ok" {
			return "goose accepts, goose-ls: " + shape(gooseLS)
		}
		return "goose-ls accepts, goose: " + shape(goose)
	case DimParams:
		return fmt.Sprintf("goose %s, goose-ls %s", goose, gooseLS)
	case DimVars, DimVarsMain:
		w, g := strings.Fields(goose), strings.Fields(gooseLS)
		var missing, extra []string
		for _, n := range w {
			if !slices.Contains(g, n) {
				missing = append(missing, n)
			}
		}
		for _, n := range g {
			if !slices.Contains(w, n) {
				extra = append(extra, n)
			}
		}
		return fmt.Sprintf("goose-ls misses %v, adds %v", missing, extra)
	case DimRenderOutput, DimRunOutput:
		i := 0
		for i < len(goose) && i < len(gooseLS) && goose[i] == gooseLS[i] {
			i++
		}
		return fmt.Sprintf("outputs part: goose %q, goose-ls %q", norm(clip(goose[i:], 12)), norm(clip(gooseLS[i:], 12)))
	}
	if rest, ok := strings.CutPrefix(goose, gooseLS); ok && locationRE.MatchString(rest) {
		return "goose-ls lacks goose's location suffix" + norm(rest)
	}
	g, l := locationSR.ReplaceAllString(goose, ""), locationSR.ReplaceAllString(gooseLS, "")
	if g == l {
		return "same words, other location: goose" + norm(locationSR.FindString(goose)) + ", goose-ls" + norm(locationSR.FindString(gooseLS))
	}
	if shape(goose) == shape(gooseLS) {
		return fmt.Sprintf("goose %q, goose-ls %q", norm(g), norm(l))
	}
	return fmt.Sprintf("goose %q, goose-ls %q", shape(goose), shape(gooseLS))
}

var (
	quotedRE   = regexp.MustCompile("\"[^\"]*\"|'[^']*'|`[^`]*`")
	locationSR = regexp.MustCompile(` \(in [^)]*:[0-9]+\)`)
)

// shape is a message reduced to what tells one problem from another: goose's run-time prefix, the
// location suffix, quoted names and numbers out, the first clause and at most five words after the kind.
func shape(msg string) string {
	msg = strings.TrimPrefix(msg, "Failed to render the recipe ")
	msg = locationSR.ReplaceAllString(msg, "")
	msg = quotedRE.ReplaceAllString(msg, "Q")
	if i := strings.IndexAny(msg, ",("); i > 0 {
		msg = msg[:i]
	}
	kind, detail, found := strings.Cut(msg, ": ")
	if !found {
		kind, detail = "", msg
	}
	words := strings.Fields(detail)
	if len(words) > 5 {
		words = append(words[:5], "…")
	}
	if kind != "" {
		return norm(kind + ": " + strings.Join(words, " "))
	}
	return norm(strings.Join(words, " "))
}

// locationRE is minijinja's ` (in name:line)` suffix.
var locationRE = regexp.MustCompile(`^ \(in [^)]*:[0-9]+\)$`)

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
