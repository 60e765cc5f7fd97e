// Serialization of the recipe as goose does it: serde_json::to_string (deeplinks) and serde_yaml::to_string
// (--render-recipe), struct fields in declaration order, absent optionals skipped.

package library

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Value is the recipe in serde's data model, fields in goose's declaration order.
func (r *Recipe) Value() *Value {
	m := &Value{Kind: MapValue}
	m.Set("version", String(r.Version))
	m.Set("title", String(r.Title))
	m.Set("description", String(r.Description))
	setOpt(m, "instructions", r.Instructions)
	setOpt(m, "prompt", r.Prompt)
	if r.Extensions != nil {
		l := &Value{Kind: SeqValue}
		for _, e := range r.Extensions {
			l.Items = append(l.Items, e.value())
		}
		m.Set("extensions", l)
	}
	if s := r.Settings; s != nil {
		v := &Value{Kind: MapValue}
		setOpt(v, "goose_provider", s.GooseProvider)
		setOpt(v, "goose_model", s.GooseModel)
		if s.Temperature != nil {
			v.Set("temperature", &Value{Kind: Float32Value, Num: float64(*s.Temperature)})
		}
		setUint(v, "max_turns", s.MaxTurns)
		m.Set("settings", v)
	}
	if r.Activities != nil {
		m.Set("activities", stringList(r.Activities))
	}
	if a := r.Author; a != nil {
		v := &Value{Kind: MapValue}
		setOpt(v, "contact", a.Contact)
		setOpt(v, "metadata", a.Metadata)
		m.Set("author", v)
	}
	if r.Parameters != nil {
		l := &Value{Kind: SeqValue}
		for _, p := range r.Parameters {
			v := &Value{Kind: MapValue}
			v.Set("key", String(p.Key))
			v.Set("input_type", String(p.InputType))
			v.Set("requirement", String(p.Requirement))
			v.Set("description", String(p.Description))
			setOpt(v, "default", p.Default)
			if p.Options != nil {
				v.Set("options", stringList(p.Options))
			}
			l.Items = append(l.Items, v)
		}
		m.Set("parameters", l)
	}
	if r.Response != nil {
		v := &Value{Kind: MapValue}
		if r.Response.JSONSchema != nil {
			v.Set("json_schema", r.Response.JSONSchema)
		}
		m.Set("response", v)
	}
	if r.SubRecipes != nil {
		l := &Value{Kind: SeqValue}
		for _, s := range r.SubRecipes {
			v := &Value{Kind: MapValue}
			v.Set("name", String(s.Name))
			v.Set("path", String(s.Path))
			if s.Values != nil {
				v.Set("values", s.Values)
			} else {
				v.Set("values", null())
			}
			v.Set("sequential_when_repeated", &Value{Kind: BoolValue, Bool: s.SequentialWhenRepeated})
			setOpt(v, "description", s.Description)
			l.Items = append(l.Items, v)
		}
		m.Set("sub_recipes", l)
	}
	if rt := r.Retry; rt != nil {
		v := &Value{Kind: MapValue}
		v.Set("max_retries", &Value{Kind: IntValue, Str: strconv.FormatUint(rt.MaxRetries, 10)})
		checks := &Value{Kind: SeqValue}
		for _, c := range rt.Checks {
			cv := &Value{Kind: MapValue}
			cv.Set("type", String("Shell"))
			cv.Set("command", String(c))
			checks.Items = append(checks.Items, cv)
		}
		v.Set("checks", checks)
		setOpt(v, "on_failure", rt.OnFailure)
		setUint(v, "timeout_seconds", rt.TimeoutSeconds)
		setUint(v, "on_failure_timeout_seconds", rt.OnFailureTimeoutSeconds)
		m.Set("retry", v)
	}
	return m
}

func setOpt(m *Value, key string, s *string) {
	if s != nil {
		m.Set(key, String(*s))
	}
}

func setUint(m *Value, key string, u *uint64) {
	if u != nil {
		m.Set(key, &Value{Kind: IntValue, Str: strconv.FormatUint(*u, 10)})
	}
}

func stringList(ss []string) *Value {
	l := &Value{Kind: SeqValue, Items: make([]*Value, 0, len(ss))}
	for _, s := range ss {
		l.Items = append(l.Items, String(s))
	}
	return l
}

// JSON is serde_json::to_string(&recipe).
func (r *Recipe) JSON() string { return r.Value().JSON() }

// YAML is serde_yaml::to_string(&recipe): libyaml's emitter with unlimited width, two-space indentation,
// sequences in mappings not indented, and serde_yaml's choice of scalar style for every string.
func (r *Recipe) YAML() (string, error) { return r.Value().YAML() }

// YAML emits the value as serde_yaml does.
func (v *Value) YAML() (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(v.yamlNode()); err != nil {
		return "", fmt.Errorf("serialize recipe: %w", err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("serialize recipe: %w", err)
	}
	return buf.String(), nil
}

func (v *Value) yamlNode() *yaml.Node {
	switch v.Kind {
	case SeqValue:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		for _, it := range v.Items {
			n.Content = append(n.Content, it.yamlNode())
		}
		return n
	case MapValue:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i, k := range v.Keys {
			n.Content = append(n.Content, stringNode(k), v.Vals[i].yamlNode())
		}
		return n
	case StringValue:
		return stringNode(v.Str)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: v.scalarText()}
}

// stringNode is serde_yaml's serialize_str: a literal block when the text has a line break, single quotes
// when serde_yaml would read the plain text back as something else (null, bool, number, digits with a
// leading zero), else libyaml's own choice (plain when it can).
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case readsAsNonString(s):
		n.Style = yaml.SingleQuotedStyle
	}
	return n
}

// readsAsNonString is serde_yaml's visit_untagged_scalar deciding that plain text is not a string.
func readsAsNonString(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	if digitsButNotNumber(s) {
		return true
	}
	if _, ok := parseYAMLInt(s); ok {
		return true
	}
	return readsAsFloat(s)
}

func digitsButNotNumber(s string) bool {
	s = trimSign(s)
	if len(s) < 2 || s[0] != '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// readsAsFloat is serde_yaml's parse_f64: YAML's .inf/.nan spellings, or Rust's f64 syntax with a finite
// result (no hex, no underscores, no inf/nan words).
func readsAsFloat(s string) bool {
	body := strings.TrimPrefix(s, "+")
	switch body {
	case ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return true
	}
	if body == "" || strings.HasPrefix(body, "+") || strings.ContainsAny(body, "xX_pP") {
		return false
	}
	lower := strings.ToLower(strings.TrimLeft(body, "-"))
	if strings.HasPrefix(lower, "inf") || strings.HasPrefix(lower, "nan") {
		return false
	}
	_, err := strconv.ParseFloat(body, 64)
	return err == nil
}
