// Extension entries as goose 1.38's recipe adapter reads them and as `ExtensionConfig` serializes them:
// the `type` tag first, then every field of the variant in declaration order, defaults filled in.

package library

import (
	"slices"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// extensionField is one field of a variant after name and description.
type extensionField struct {
	key      string
	required bool
	empty    func() *Value // the value serde writes when the field is absent
}

func null() *Value      { return &Value{Kind: NullValue} }
func emptyList() *Value { return &Value{Kind: SeqValue} }
func emptyMap() *Value  { return &Value{Kind: MapValue} }
func requiredF() *Value { return nil }
func field(k string, empty func() *Value) extensionField {
	return extensionField{key: k, empty: empty}
}

// extensionVariants are the variants goose 1.38's recipe adapter accepts (recipe_extension_adapter.rs),
// with ExtensionConfig's field order (agents/extension.rs).
var extensionVariants = map[string][]extensionField{
	"stdio": {
		{key: "cmd", required: true, empty: requiredF}, {key: "args", required: true, empty: requiredF},
		field("envs", emptyMap), field("env_keys", emptyList), field("timeout", null), field("bundled", null),
		field("available_tools", emptyList),
	},
	"builtin": {
		field("display_name", null), field("timeout", null), field("bundled", null), field("available_tools", emptyList),
	},
	"platform": {
		field("display_name", null), field("bundled", null), field("available_tools", emptyList),
	},
	"streamable_http": {
		{key: "uri", required: true, empty: requiredF}, field("envs", emptyMap), field("env_keys", emptyList),
		field("headers", emptyMap), field("timeout", null), field("socket", null), field("bundled", null),
		field("available_tools", emptyList),
	},
	"frontend": {
		{key: "tools", required: true, empty: requiredF}, field("instructions", null), field("bundled", null),
		field("available_tools", emptyList),
	},
	"inline_python": {
		{key: "code", required: true, empty: requiredF}, field("timeout", null), field("dependencies", null),
		field("available_tools", emptyList),
	},
}

// variantNames in the order serde lists them in its unknown-variant message.
var variantNames = []string{"stdio", "builtin", "platform", "streamable_http", "frontend", "inline_python"}

// extensionHead reads what every variant of an extension enum has: the `type` tag (one of variants, named
// in goose's order in serde's message), `name` and `description`; ok is false when the rest cannot be read.
func (d *decoder) extensionHead(n *yamltree.Node, path, enum string, variants []string) (e Extension, ok bool) {
	if !d.mapping(n, path, enum) {
		return e, false
	}
	tag := n.Get("type")
	if tag == nil {
		d.fail(path, "missing field `type`")
		return e, false
	}
	e.Type = d.str(tag, path)
	if !slices.Contains(variants, e.Type) {
		d.fail(path, "unknown variant `%s`, expected one of `%s`", e.Type, strings.Join(variants, "`, `"))
		return e, false
	}
	e.Name = d.str(d.required(n, "name", path), join(path, "name"))
	if desc := d.optStr(n.Get("description"), join(path, "description")); desc != nil {
		e.Description = *desc
	}
	e.Fields = map[string]*Value{}
	return e, true
}

func (d *decoder) extension(n *yamltree.Node, path string) Extension {
	e, ok := d.extensionHead(n, path, "internally tagged enum RecipeExtensionConfigInternal", variantNames)
	if !ok {
		return e
	}
	fields := extensionVariants[e.Type]
	for _, f := range fields {
		v := n.Get(f.key)
		if v == nil {
			if f.required {
				d.fail(path, "missing field `%s`", f.key)
			}
			continue
		}
		if v.IsNull() && !f.required {
			continue
		}
		e.Fields[f.key] = FromNode(v)
	}
	return e
}

// platformExtension is the entry goose's load-time rewriting appends (`ExtensionConfig::Platform` with
// empty description, no display name, no bundled flag, all tools).
func platformExtension(name string) Extension {
	return Extension{Type: "platform", Name: name, Fields: map[string]*Value{}}
}

// value is the extension's serde form: type, name, description, then the variant's fields.
func (e Extension) value() *Value {
	m := &Value{Kind: MapValue}
	m.Set("type", String(e.Type))
	m.Set("name", String(e.Name))
	m.Set("description", String(e.Description))
	for _, f := range extensionVariants[e.Type] {
		v := e.Fields[f.key]
		if v == nil {
			v = f.empty()
		}
		if v == nil {
			v = null()
		}
		m.Set(f.key, v)
	}
	return m
}
