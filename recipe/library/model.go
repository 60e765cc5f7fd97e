// The recipe as goose's serde types hold it (crates/goose/src/recipe/mod.rs): what --render-recipe prints
// and what a deeplink carries, decoded from a parsed YAML tree with serde's coercions and messages.

package library

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Recipe mirrors goose's `Recipe` struct: nil pointers and nil slices are absent fields (serde's `None`);
// an empty non-nil slice is a present, empty list (it matters for `sub_recipes: []`).
type Recipe struct {
	Version      string
	Title        string
	Description  string
	Instructions *string
	Prompt       *string
	Extensions   []Extension
	Settings     *Settings
	Activities   []string
	Author       *Author
	Parameters   []Parameter
	Response     *Response
	SubRecipes   []SubRecipe
	Retry        *Retry
}

// Extension is one `extensions` entry: its tag, name and description, and the variant's other fields as
// parsed (serialization fills the variant's defaults).
type Extension struct {
	Type        string
	Name        string
	Description string
	Fields      map[string]*Value
}

// Settings mirrors goose's recipe settings.
type Settings struct {
	GooseProvider *string
	GooseModel    *string
	Temperature   *float32
	MaxTurns      *uint64
}

// Author mirrors goose's author block.
type Author struct {
	Contact  *string
	Metadata *string
}

// Parameter mirrors goose's `RecipeParameter`.
type Parameter struct {
	Key         string
	InputType   string
	Requirement string
	Description string
	Default     *string
	Options     []string
}

// Response holds the structured-output schema (any JSON value).
type Response struct {
	JSONSchema *Value
}

// SubRecipe mirrors goose's `SubRecipe`; Values is nil when absent (`values: null` when printed).
type SubRecipe struct {
	Name                   string
	Path                   string
	Values                 *Value // a map of strings, or nil
	SequentialWhenRepeated bool
	Description            *string
}

// Retry mirrors goose's `RetryConfig`; every check is a shell command.
type Retry struct {
	MaxRetries              uint64
	Checks                  []string
	OnFailure               *string
	TimeoutSeconds          *uint64
	OnFailureTimeoutSeconds *uint64
}

// Param returns the parameter with key, or nil.
func (r *Recipe) Param(key string) *Parameter {
	for i := range r.Parameters {
		if r.Parameters[i].Key == key {
			return &r.Parameters[i]
		}
	}
	return nil
}

// DecodeError is serde's message for a value that does not fit the recipe types, with its path.
type DecodeError struct {
	Path string
	Msg  string
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Decode turns the root of a parsed recipe (YAML or JSON) into goose's recipe, entering the Desktop
// `recipe:` wrapper when there is one, as `Recipe::from_content` does (without the load-time additions:
// see LoadTimeAdditions).
func Decode(root *yamltree.Node) (*Recipe, error) {
	if root != nil && root.Kind == yamltree.Map {
		if w := root.Get("recipe"); w != nil {
			root = w
		}
	}
	d := decoder{}
	r := d.recipe(root)
	if d.err != nil {
		return nil, d.err
	}
	return r, nil
}

// decoder keeps the first error, the way serde stops at it.
type decoder struct{ err error }

func (d *decoder) fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &DecodeError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// str is serde_yaml's String from a scalar: the scalar's text (plain numbers, booleans and null coerced).
func (d *decoder) str(n *yamltree.Node, path string) string {
	if n == nil || n.Kind != yamltree.Scalar {
		if n != nil {
			d.fail(path, "invalid type: %s, expected a string", n.Describe())
		}
		return ""
	}
	return n.Value
}

// optStr is Option<String>: absent and null are None.
func (d *decoder) optStr(n *yamltree.Node, path string) *string {
	if n == nil || n.IsNull() {
		return nil
	}
	s := d.str(n, path)
	return &s
}

// required is a field serde requires.
func (d *decoder) required(m *yamltree.Node, key, path string) *yamltree.Node {
	v := m.Get(key)
	if v == nil {
		d.fail(path, "missing field `%s`", key)
	}
	return v
}

func (d *decoder) mapping(n *yamltree.Node, path, expected string) bool {
	if n == nil || n.Kind != yamltree.Map {
		if n != nil {
			d.fail(path, "invalid type: %s, expected %s", n.Describe(), expected)
		}
		return false
	}
	return true
}

// seq is an optional list; a null is absent.
func (d *decoder) seq(n *yamltree.Node, path string) ([]*yamltree.Node, bool) {
	if n == nil || n.IsNull() {
		return nil, false
	}
	if n.Kind != yamltree.Seq {
		d.fail(path, "invalid type: %s, expected a sequence", n.Describe())
		return nil, false
	}
	return n.Items, true
}

func (d *decoder) strings(n *yamltree.Node, path string) []string {
	items, ok := d.seq(n, path)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(items))
	for i, it := range items {
		out = append(out, d.str(it, index(path, i)))
	}
	return out
}

// uint is an unsigned integer field; a quoted number is a string, as serde says.
func (d *decoder) uint(n *yamltree.Node, path, rust string) *uint64 {
	if n == nil || n.IsNull() {
		return nil
	}
	if n.Kind != yamltree.Scalar || n.Type != yamltree.Int {
		d.fail(path, "invalid type: %s, expected %s", n.Describe(), rust)
		return nil
	}
	v, err := strconv.ParseUint(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if err != nil {
		d.fail(path, "invalid value: integer `%s`, expected %s", n.Value, rust)
		return nil
	}
	return &v
}

// recipeShape names one of goose's two serde shapes of a recipe: its Rust type names (in serde's
// messages), the null handling of `version`, and the decoders of its nested types.
type recipeShape struct {
	recipe, settings, author, response, retry string
	nullVersionDefaults                       bool // a null version keeps 1.0.0 (Recipe) or fails (RecipeDto)
	extension                                 func(*decoder, *yamltree.Node, string) Extension
	subRecipe                                 func(*decoder, *yamltree.Node, string) SubRecipe
	retryConfig                               func(*decoder, *yamltree.Node) *Retry
}

// recipeFile is goose's Recipe (a recipe file); recipeDTO is the ACP wire's RecipeDto.
var (
	recipeFile = recipeShape{recipe: "struct Recipe", settings: "struct Settings", author: "struct Author",
		response: "struct Response", retry: "struct RetryConfig", nullVersionDefaults: true,
		extension: (*decoder).extension, subRecipe: (*decoder).subRecipe, retryConfig: (*decoder).retry}
	recipeDTOShape = recipeShape{recipe: "struct RecipeDto", settings: "struct RecipeSettingsDto", author: "struct RecipeAuthorDto",
		response: "struct RecipeResponseDto", retry: "struct RecipeRetryConfigDto",
		extension: (*decoder).extensionDTO, subRecipe: (*decoder).subRecipeDTO, retryConfig: (*decoder).retryDTO}
)

func (d *decoder) recipe(root *yamltree.Node) *Recipe { return d.recipeAs(root, recipeFile) }

func (d *decoder) recipeAs(root *yamltree.Node, shape recipeShape) *Recipe {
	r := &Recipe{Version: "1.0.0"}
	if root == nil || root.Kind != yamltree.Map {
		what := "unit value"
		if root != nil {
			what = root.Describe()
		}
		d.fail("", "invalid type: %s, expected %s", what, shape.recipe)
		return r
	}
	if v := root.Get("version"); v != nil && !(shape.nullVersionDefaults && v.IsNull()) {
		r.Version = d.str(v, "version")
	}
	r.Title = d.str(d.required(root, "title", ""), "title")
	r.Description = d.str(d.required(root, "description", ""), "description")
	r.Instructions = d.optStr(root.Get("instructions"), "instructions")
	r.Prompt = d.optStr(root.Get("prompt"), "prompt")
	if items, ok := d.seq(root.Get("extensions"), "extensions"); ok {
		r.Extensions = make([]Extension, 0, len(items))
		for i, it := range items {
			r.Extensions = append(r.Extensions, shape.extension(d, it, index("extensions", i)))
		}
	}
	if s := root.Get("settings"); s != nil && !s.IsNull() && d.mapping(s, "settings", shape.settings) {
		r.Settings = d.settings(s)
	}
	if a := root.Get("activities"); a != nil && !a.IsNull() {
		r.Activities = d.strings(a, "activities")
	}
	if a := root.Get("author"); a != nil && !a.IsNull() && d.mapping(a, "author", shape.author) {
		r.Author = &Author{Contact: d.optStr(a.Get("contact"), "author.contact"), Metadata: d.optStr(a.Get("metadata"), "author.metadata")}
	}
	if items, ok := d.seq(root.Get("parameters"), "parameters"); ok {
		r.Parameters = make([]Parameter, 0, len(items))
		for i, it := range items {
			r.Parameters = append(r.Parameters, d.parameter(it, index("parameters", i)))
		}
	}
	if resp := root.Get("response"); resp != nil && !resp.IsNull() && d.mapping(resp, "response", shape.response) {
		r.Response = &Response{}
		if js := resp.Get("json_schema"); js != nil && !js.IsNull() {
			r.Response.JSONSchema = FromNode(js)
		}
	}
	if items, ok := d.seq(root.Get("sub_recipes"), "sub_recipes"); ok {
		r.SubRecipes = make([]SubRecipe, 0, len(items))
		for i, it := range items {
			r.SubRecipes = append(r.SubRecipes, shape.subRecipe(d, it, index("sub_recipes", i)))
		}
	}
	if rt := root.Get("retry"); rt != nil && !rt.IsNull() && d.mapping(rt, "retry", shape.retry) {
		r.Retry = shape.retryConfig(d, rt)
	}
	return r
}

var inputTypes = []string{"string", "number", "boolean", "date", "file", "select"}
var requirements = []string{"required", "optional", "user_prompt"}

func (d *decoder) variant(n *yamltree.Node, path string, allowed []string) string {
	s := d.str(n, path)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	d.fail(path, "unknown variant `%s`, expected one of `%s`", s, strings.Join(allowed, "`, `"))
	return s
}

func (d *decoder) parameter(n *yamltree.Node, path string) Parameter {
	var p Parameter
	if !d.mapping(n, path, "struct RecipeParameter") {
		return p
	}
	p.Key = d.str(d.required(n, "key", path), join(path, "key"))
	p.InputType = d.variant(d.required(n, "input_type", path), join(path, "input_type"), inputTypes)
	p.Requirement = d.variant(d.required(n, "requirement", path), join(path, "requirement"), requirements)
	p.Description = d.str(d.required(n, "description", path), join(path, "description"))
	p.Default = d.optStr(n.Get("default"), join(path, "default"))
	if o := n.Get("options"); o != nil && !o.IsNull() {
		p.Options = d.strings(o, join(path, "options"))
	}
	return p
}

func (d *decoder) settings(n *yamltree.Node) *Settings {
	s := &Settings{
		GooseProvider: d.optStr(n.Get("goose_provider"), "settings.goose_provider"),
		GooseModel:    d.optStr(n.Get("goose_model"), "settings.goose_model"),
		MaxTurns:      d.uint(n.Get("max_turns"), "settings.max_turns", "usize"),
	}
	if t := n.Get("temperature"); t != nil && !t.IsNull() {
		if t.Kind != yamltree.Scalar || (t.Type != yamltree.Int && t.Type != yamltree.Float) {
			d.fail("settings.temperature", "invalid type: %s, expected f32", t.Describe())
		} else if v, err := strconv.ParseFloat(t.Value, 32); err == nil {
			f := float32(v)
			s.Temperature = &f
		} else {
			d.fail("settings.temperature", "invalid type: %s, expected f32", t.Describe())
		}
	}
	return s
}

func (d *decoder) subRecipe(n *yamltree.Node, path string) SubRecipe {
	var s SubRecipe
	if !d.mapping(n, path, "struct SubRecipe") {
		return s
	}
	s.Name = d.str(d.required(n, "name", path), join(path, "name"))
	s.Path = d.str(d.required(n, "path", path), join(path, "path"))
	if v := n.Get("values"); v != nil && !v.IsNull() && d.mapping(v, join(path, "values"), "a map") {
		m := &Value{Kind: MapValue}
		for _, p := range v.Pairs {
			val := FromNode(p.Value)
			text := val.Str
			if val.Kind != StringValue {
				text = val.JSON() // goose stores non-string values as their JSON text
			}
			m.Set(p.Key.Value, String(text))
		}
		s.Values = m
	}
	if b := n.Get("sequential_when_repeated"); b != nil && !b.IsNull() {
		if b.Kind != yamltree.Scalar || b.Type != yamltree.Bool {
			d.fail(join(path, "sequential_when_repeated"), "invalid type: %s, expected a boolean", b.Describe())
		} else {
			s.SequentialWhenRepeated = b.Value == "true" || b.Value == "True" || b.Value == "TRUE"
		}
	}
	s.Description = d.optStr(n.Get("description"), join(path, "description"))
	return s
}

func (d *decoder) retry(n *yamltree.Node) *Retry {
	r := &Retry{}
	if v := d.uint(d.required(n, "max_retries", "retry"), "retry.max_retries", "u32"); v != nil {
		r.MaxRetries = *v
	}
	checks := d.required(n, "checks", "retry")
	if items, ok := d.seq(checks, "retry.checks"); ok {
		r.Checks = make([]string, 0, len(items))
		for i, it := range items {
			p := index("retry.checks", i)
			if !d.mapping(it, p, "internally tagged enum SuccessCheck") {
				continue
			}
			if t := d.str(d.required(it, "type", p), join(p, "type")); t != "Shell" && t != "shell" && d.err == nil {
				d.fail(p, "unknown variant `%s`, expected `Shell`", t)
			}
			r.Checks = append(r.Checks, d.str(d.required(it, "command", p), join(p, "command")))
		}
	}
	r.OnFailure = d.optStr(n.Get("on_failure"), "retry.on_failure")
	r.TimeoutSeconds = d.uint(n.Get("timeout_seconds"), "retry.timeout_seconds", "u64")
	r.OnFailureTimeoutSeconds = d.uint(n.Get("on_failure_timeout_seconds"), "retry.on_failure_timeout_seconds", "u64")
	return r
}
