// Scalar typing by the YAML 1.2 core schema (null, bool, int, float, else string), as serde_yaml does.

package yamltree

import "strings"

// Resolve types a plain scalar by the YAML 1.2 core schema, as serde_yaml does.
func Resolve(v string) Type {
	switch v {
	case "", "~", "null", "Null", "NULL":
		return Null
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return Bool
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return Float
	}
	if c := v[0]; (c < '0' || c > '9') && c != '-' && c != '+' && c != '.' {
		return Str
	}
	if isInt(v) {
		return Int
	}
	if isFloat(v) {
		return Float
	}
	return Str
}

func digits(s string, ok func(byte) bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }
func isOct(c byte) bool { return c >= '0' && c <= '7' }
func isHex(c byte) bool { return isDec(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }

// isInt matches [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+.
func isInt(v string) bool {
	if len(v) > 2 && v[0] == '0' && v[1] == 'o' {
		return digits(v[2:], isOct)
	}
	if len(v) > 2 && v[0] == '0' && v[1] == 'x' {
		return digits(v[2:], isHex)
	}
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	return digits(v, isDec)
}

// isFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?.
func isFloat(v string) bool {
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	mant, exp := v, ""
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		mant, exp = v[:i], v[i+1:]
		if exp != "" && (exp[0] == '-' || exp[0] == '+') {
			exp = exp[1:]
		}
		if !digits(exp, isDec) {
			return false
		}
	}
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if !hasDot {
		return digits(intPart, isDec)
	}
	if intPart == "" {
		return digits(frac, isDec)
	}
	return digits(intPart, isDec) && (frac == "" || digits(frac, isDec))
}
