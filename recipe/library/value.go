// An ordered value tree (serde's data model as goose's types emit it) with serde_json's compact JSON.

package library

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// ValueKind is the shape of a Value.
type ValueKind uint8

// The kinds of Value.
const (
	NullValue ValueKind = iota
	StringValue
	IntValue   // Str holds the decimal text
	FloatValue // Num holds the value
	Float32Value
	BoolValue
	SeqValue
	MapValue
)

// Value is a node of serde's data model: maps keep their order (struct fields in declaration order, maps
// as written).
type Value struct {
	Kind  ValueKind
	Str   string
	Num   float64
	Bool  bool
	Items []*Value
	Keys  []string
	Vals  []*Value
}

// String is a string value.
func String(s string) *Value { return &Value{Kind: StringValue, Str: s} }

// Set appends key to a map value (or replaces its value).
func (v *Value) Set(key string, val *Value) {
	for i, k := range v.Keys {
		if k == key {
			v.Vals[i] = val
			return
		}
	}
	v.Keys = append(v.Keys, key)
	v.Vals = append(v.Vals, val)
}

// Get is the value of key in a map value, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil {
		return nil
	}
	for i, k := range v.Keys {
		if k == key {
			return v.Vals[i]
		}
	}
	return nil
}

// FromNode converts a YAML node to a value with the node's own types (serde_yaml → serde_json::Value).
func FromNode(n *yamltree.Node) *Value {
	if n == nil {
		return null()
	}
	switch n.Kind {
	case yamltree.Map:
		m := &Value{Kind: MapValue}
		for _, p := range n.Pairs {
			m.Set(p.Key.Value, FromNode(p.Value))
		}
		return m
	case yamltree.Seq:
		s := &Value{Kind: SeqValue, Items: make([]*Value, 0, len(n.Items))}
		for _, it := range n.Items {
			s.Items = append(s.Items, FromNode(it))
		}
		return s
	}
	switch n.Type {
	case yamltree.Null:
		return null()
	case yamltree.Bool:
		return &Value{Kind: BoolValue, Bool: strings.EqualFold(n.Value, "true")}
	case yamltree.Int:
		if i, ok := parseYAMLInt(n.Value); ok {
			return &Value{Kind: IntValue, Str: i}
		}
	case yamltree.Float:
		if f, ok := parseYAMLFloat(n.Value); ok {
			return &Value{Kind: FloatValue, Num: f}
		}
	}
	return String(n.Value)
}

// trimSign drops one leading + or -.
func trimSign(s string) string {
	if strings.HasPrefix(s, "+") || strings.HasPrefix(s, "-") {
		return s[1:]
	}
	return s
}

// parseYAMLInt gives the decimal text of a YAML 1.2 integer (0x, 0o, 0b prefixes, a sign).
func parseYAMLInt(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	body := trimSign(s)
	if body == "" || body[0] == '+' || body[0] == '-' {
		return "", false
	}
	base := 10
	switch {
	case strings.HasPrefix(body, "0x"):
		base, body = 16, body[2:]
	case strings.HasPrefix(body, "0o"):
		base, body = 8, body[2:]
	case strings.HasPrefix(body, "0b"):
		base, body = 2, body[2:]
	}
	u, err := strconv.ParseUint(body, base, 64)
	if err != nil {
		return "", false
	}
	if neg && u != 0 {
		return "-" + strconv.FormatUint(u, 10), true
	}
	return strconv.FormatUint(u, 10), true
}

func parseYAMLFloat(s string) (float64, bool) {
	switch strings.TrimPrefix(s, "+") {
	case ".inf", ".Inf", ".INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// formatFloat is ryu's format_finite as serde writes floats: shortest digits, `.0` on whole numbers,
// exponent notation outside 1e-5..1e16.
func formatFloat(f float64, bits int) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	abs := math.Abs(f)
	if f != 0 && (abs < 1e-5 || abs >= 1e16) {
		s := strconv.FormatFloat(f, 'e', -1, bits) // 1e+20, 1.5e-07
		mant, exp, _ := strings.Cut(s, "e")
		sign := ""
		if exp[0] == '-' {
			sign = "-"
		}
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + sign + exp
	}
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// scalarText is the text of a scalar value as serde writes it (null is "null").
func (v *Value) scalarText() string {
	switch v.Kind {
	case StringValue, IntValue:
		return v.Str
	case FloatValue:
		return formatFloat(v.Num, 64)
	case Float32Value:
		return formatFloat(v.Num, 32)
	case BoolValue:
		return strconv.FormatBool(v.Bool)
	}
	return "null"
}

// JSON is serde_json::to_string of the value: compact, in order, only `"`, `\` and control characters
// escaped (non-ASCII and `<>&` written as they are); a non-finite float is null.
func (v *Value) JSON() string {
	var b strings.Builder
	v.writeJSON(&b)
	return b.String()
}

func (v *Value) writeJSON(b *strings.Builder) {
	switch v.Kind {
	case NullValue:
		b.WriteString("null")
	case StringValue:
		writeJSONString(b, v.Str)
	case FloatValue, Float32Value:
		if math.IsInf(v.Num, 0) || math.IsNaN(v.Num) {
			b.WriteString("null")
		} else {
			b.WriteString(v.scalarText())
		}
	case SeqValue:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.writeJSON(b)
		}
		b.WriteByte(']')
	case MapValue:
		b.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			v.Vals[i].writeJSON(b)
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.scalarText())
	}
}

const hexDigits = "0123456789abcdef"

// writeJSONString escapes as serde_json does: \" \\ \b \f \n \r \t, other controls as \u00XX.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString("\ufffd")
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}
