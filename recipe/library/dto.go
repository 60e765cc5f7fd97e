// The recipe as goose's ACP extension methods carry it (goose-sdk-types RecipeDto, custom_requests/
// recipe.rs): snake_case keys, absent optionals and empty lists left out, checks tagged "shell", four
// extension types; decoded with serde_json's messages (from a JSON value: no position).

package library

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// DTO is the recipe as a RecipeDto serializes (RecipeDto::try_from(Recipe)); an extension type the DTO
// has no variant for is goose's error.
func (r *Recipe) DTO() (*Value, error) {
	full := r.Value() // every field but extensions, sub_recipes and retry has the same shape
	m := &Value{Kind: MapValue}
	copyFields := func(keys ...string) {
		for _, k := range keys {
			if v := full.Get(k); v != nil {
				m.Set(k, v)
			}
		}
	}
	copyFields("version", "title", "description", "instructions", "prompt")
	if r.Extensions != nil {
		l := &Value{Kind: SeqValue}
		for _, e := range r.Extensions {
			v, err := e.dto()
			if err != nil {
				return nil, err
			}
			l.Items = append(l.Items, v)
		}
		m.Set("extensions", l)
	}
	copyFields("settings", "activities", "author", "parameters", "response")
	if r.SubRecipes != nil {
		l := &Value{Kind: SeqValue}
		for _, s := range r.SubRecipes {
			v := &Value{Kind: MapValue}
			v.Set("name", String(s.Name))
			v.Set("path", String(s.Path))
			if s.Values != nil {
				v.Set("values", s.Values)
			}
			v.Set("sequential_when_repeated", &Value{Kind: BoolValue, Bool: s.SequentialWhenRepeated})
			setOpt(v, "description", s.Description)
			l.Items = append(l.Items, v)
		}
		m.Set("sub_recipes", l)
	}
	if rt := r.Retry; rt != nil {
		v := full.Get("retry")
		for _, c := range v.Get("checks").Items {
			c.Set("type", String("shell"))
		}
		m.Set("retry", v)
	}
	return m, nil
}

// dtoExtensionFields are RecipeExtensionDto's fields after name and description, in order; lists and
// maps are left out when empty, optionals when absent.
var dtoExtensionFields = map[string][]string{
	"builtin":         {"display_name", "timeout", "bundled", "available_tools"},
	"platform":        {"display_name", "bundled", "available_tools"},
	"stdio":           {"cmd", "args", "envs", "env_keys", "timeout", "cwd", "bundled", "available_tools"},
	"streamable_http": {"uri", "envs", "env_keys", "headers", "timeout", "socket", "client_id", "client_secret_key", "scopes", "bundled", "available_tools"},
}

// dtoVariants in RecipeExtensionDto's declaration order (serde's unknown-variant message).
var dtoVariants = []string{"builtin", "platform", "stdio", "streamable_http"}

func (e Extension) dto() (*Value, error) {
	fields, ok := dtoExtensionFields[e.Type]
	if !ok {
		return nil, fmt.Errorf("recipe extension type `%s` is not supported by RecipeDto", e.Type)
	}
	m := &Value{Kind: MapValue}
	m.Set("type", String(e.Type))
	m.Set("name", String(e.Name))
	m.Set("description", String(e.Description))
	for _, k := range fields {
		v := e.Fields[k]
		if v == nil || v.Kind == NullValue || ((v.Kind == SeqValue || v.Kind == MapValue) && len(v.Items) == 0 && len(v.Keys) == 0) {
			continue
		}
		m.Set(k, v)
	}
	return m, nil
}

// DecodeDTO reads a RecipeDto (a parsed JSON value) into the recipe, with serde_json's message for the
// first value that does not fit (as from_value reports it: no path).
func DecodeDTO(n *yamltree.Node) (*Recipe, error) {
	d := &decoder{}
	r := d.recipeDTO(n)
	if d.err != nil {
		var de *DecodeError
		if errors.As(d.err, &de) {
			return nil, errors.New(de.Msg)
		}
		return nil, d.err
	}
	return r, nil
}

func (d *decoder) recipeDTO(root *yamltree.Node) *Recipe { return d.recipeAs(root, recipeDTOShape) }

func (d *decoder) extensionDTO(n *yamltree.Node, path string) Extension {
	e, ok := d.extensionHead(n, path, "internally tagged enum RecipeExtensionDto", dtoVariants)
	if !ok {
		return e
	}
	fields := dtoExtensionFields[e.Type]
	for _, k := range fields {
		v := n.Get(k)
		if v == nil {
			if k == "cmd" || k == "uri" {
				d.fail(path, "missing field `%s`", k)
			}
			continue
		}
		if !v.IsNull() {
			e.Fields[k] = FromNode(v)
		}
	}
	if e.Type == "stdio" && e.Fields["args"] == nil {
		e.Fields["args"] = emptyList() // goose's ExtensionConfig always has args
	}
	return e
}

func (d *decoder) subRecipeDTO(n *yamltree.Node, path string) SubRecipe {
	var s SubRecipe
	if !d.mapping(n, path, "struct SubRecipeDto") {
		return s
	}
	s.Name = d.str(d.required(n, "name", path), join(path, "name"))
	s.Path = d.str(d.required(n, "path", path), join(path, "path"))
	if v := n.Get("values"); v != nil && !v.IsNull() && d.mapping(v, join(path, "values"), "a map") {
		m := &Value{Kind: MapValue}
		for _, p := range v.Pairs {
			if p.Value.Kind != yamltree.Scalar || p.Value.Type != yamltree.Str {
				d.fail(join(path, "values"), "invalid type: %s, expected a string", p.Value.Describe())
				break
			}
			m.Set(p.Key.Value, String(p.Value.Value))
		}
		s.Values = m
	}
	if b := n.Get("sequential_when_repeated"); b != nil {
		if b.Kind != yamltree.Scalar || b.Type != yamltree.Bool {
			d.fail(join(path, "sequential_when_repeated"), "invalid type: %s, expected a boolean", b.Describe())
		} else {
			s.SequentialWhenRepeated = b.Value == "true"
		}
	}
	s.Description = d.optStr(n.Get("description"), join(path, "description"))
	return s
}

func (d *decoder) retryDTO(n *yamltree.Node) *Retry {
	r := &Retry{}
	if v := d.uint(d.required(n, "max_retries", "retry"), "retry.max_retries", "u32"); v != nil {
		r.MaxRetries = *v
	}
	if items, ok := d.seq(n.Get("checks"), "retry.checks"); ok {
		r.Checks = make([]string, 0, len(items))
		for i, it := range items {
			p := index("retry.checks", i)
			if !d.mapping(it, p, "internally tagged enum RecipeSuccessCheckDto") {
				continue
			}
			if t := d.str(d.required(it, "type", p), join(p, "type")); t != "shell" && d.err == nil {
				d.fail(p, "unknown variant `%s`, expected `shell`", t)
			}
			r.Checks = append(r.Checks, d.str(d.required(it, "command", p), join(p, "command")))
		}
	} else {
		r.Checks = []string{}
	}
	r.OnFailure = d.optStr(n.Get("on_failure"), "retry.on_failure")
	r.TimeoutSeconds = d.uint(n.Get("timeout_seconds"), "retry.timeout_seconds", "u64")
	r.OnFailureTimeoutSeconds = d.uint(n.Get("on_failure_timeout_seconds"), "retry.on_failure_timeout_seconds", "u64")
	return r
}

// DecodeConfig is goose's recipe_deeplink::decode: the config value alone (URL-safe base64 without
// padding, or the legacy standard base64, possibly URL-encoded), not a whole goose:// URL.
func DecodeConfig(config string) (*Recipe, error) {
	if strings.HasPrefix(config, DeeplinkPrefix) {
		return nil, ErrDecode
	}
	r, _, err := DecodeDeeplink(config)
	return r, err
}
