// The `format` filter: minijinja 2.24's printf-style formatting (Python's `%` operator) with its error texts.

package template

import (
	"fmt"
	"strconv"
	"strings"
)

// printfSpec is one `%…` field: flags, width, precision and conversion type.
type printfSpec struct {
	key                          string
	hasKey                       bool
	left, zero, plus, space, alt bool
	width, precision             int // -1 when absent
	conv                         byte
	offset                       int // after the `%` and its key: where minijinja's errors point
}

func formatFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	// format(state, format_str: &Value, format_args: Rest<Value>): a safe format string escapes the
	// arguments it takes (strings before width and precision; numbers and bools stay typed) and gives
	// safe text
	if v.kind != KindString {
		return Value{}, ec.fail(f.R, "invalid operation: value is not a string")
	}
	format, args, safe := v.s, a.rest, v.safe
	var out strings.Builder
	next := 0
	for i := 0; i < len(format); {
		pct := strings.IndexByte(format[i:], '%')
		if pct < 0 {
			out.WriteString(format[i:])
			break
		}
		out.WriteString(format[i : i+pct])
		i += pct
		if i+1 < len(format) && format[i+1] == '%' {
			out.WriteByte('%')
			i += 2
			continue
		}
		spec, end, msg := parsePrintfSpec(format, i)
		if msg != "" {
			return Value{}, ec.fail(f.R, "invalid operation: %s", msg)
		}
		i = end
		var val Value
		switch {
		case spec.hasKey:
			if len(args) == 0 {
				return Value{}, ec.fail(f.R, "invalid operation: missing an argument for format spec at offset '%d'", spec.offset)
			}
			if args[0].kind != KindMap {
				return Value{}, ec.fail(f.R, "invalid operation: format argument must be a mapping")
			}
			got, ok := args[0].m.Get(spec.key)
			if !ok || got.kind == KindUndefined {
				return Value{}, ec.fail(f.R, "invalid operation: missing an argument for format spec at offset '%d'", spec.offset)
			}
			val = got
		case next < len(args):
			val = args[next]
			next++
		default:
			return Value{}, ec.fail(f.R, "invalid operation: missing an argument for format spec at offset '%d'", spec.offset)
		}
		if safe {
			if spec.conv == 'c' {
				return Value{}, ec.fail(f.R, "invalid operation: character formatting is not supported for safe format strings")
			}
			if !val.isSafeString() && !val.isNumber() {
				text, err := ec.toString(f.R, val)
				if err != nil {
					return Value{}, err
				}
				val = StringValue(htmlEscaper.Replace(text))
			}
		}
		text, msg := spec.format(val)
		if msg != "" {
			return Value{}, ec.fail(f.R, "invalid operation: %s", msg)
		}
		if err := ec.fits(f.R, out.Len()+len(text)); err != nil {
			return Value{}, err
		}
		out.WriteString(text)
	}
	if safe {
		return safeString(out.String()), nil
	}
	return StringValue(out.String()), nil
}

// parsePrintfSpec parses the field at format[at] (a `%`), returning it, the offset after it, or
// minijinja's error text.
func parsePrintfSpec(format string, at int) (printfSpec, int, string) {
	spec := printfSpec{width: -1, precision: -1, offset: at}
	i := at + 1
	if i < len(format) && format[i] == '(' {
		end := strings.IndexByte(format[i+1:], ')')
		if end < 0 {
			return spec, 0, fmt.Sprintf("missing ')' in format string at offset %d", len(format))
		}
		spec.key, spec.hasKey = format[i+1:i+1+end], true
		i += end + 2
	}
	spec.offset = i // minijinja's spec location: after the `%` and the key
	for ; i < len(format); i++ {
		switch format[i] {
		case '#':
			spec.alt = true
		case '0':
			spec.zero = true
		case '-':
			spec.left = true
		case ' ':
			spec.space = true
		case '+':
			spec.plus = true
		default:
			goto flagsDone
		}
	}
flagsDone:
	number := func() int {
		j := i
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if j == i {
			return -1
		}
		n, err := strconv.Atoi(format[i:j])
		if err != nil || n > 1<<20 {
			n = 1 << 20
		}
		i = j
		return n
	}
	spec.width = number()
	if spec.zero && spec.width < 0 {
		spec.zero, spec.width = false, 0
	}
	if spec.left {
		spec.zero = false
	}
	if i < len(format) && format[i] == '.' {
		i++
		spec.precision = number()
	}
	if i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
		i++
	}
	if i >= len(format) {
		return spec, 0, fmt.Sprintf("incomplete format spec at offset %d; missing conversion type", i)
	}
	switch c := format[i]; c {
	case 'd', 'i', 'e', 'E', 'f', 'F', 'g', 'G', 'o', 'x', 'X', 'c', 's':
		spec.conv = c
	default:
		r := []rune(format[i:])[0]
		return spec, 0, fmt.Sprintf("invalid conversion type '%c' in format spec at offset %d", r, i)
	}
	return spec, i + 1, ""
}

// format applies the field to one value as minijinja's FormatSpec does for the common cases.
func (s printfSpec) format(v Value) (string, string) {
	isNumber := v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool
	if !isNumber || s.conv == 's' {
		if s.conv != 's' && s.conv != 'c' {
			return "", fmt.Sprintf("invalid format spec at offset %d; 'string' cannot be formatted in %s", s.offset, printfTypeName(s.conv))
		}
		text := v.String()
		if v.kind == KindUndefined {
			text = ""
		}
		if s.conv == 's' && s.precision >= 0 && v.kind != KindBool { // a bool is never cut
			if cut := charOffset(text, s.precision); cut >= 0 {
				text = text[:cut] // minijinja 2.24 cuts at a character, not a byte
			}
		}
		return s.pad(text, false), ""
	}
	var verb strings.Builder
	verb.WriteByte('%')
	if s.plus {
		verb.WriteByte('+')
	} else if s.space {
		verb.WriteByte(' ')
	}
	if s.alt {
		verb.WriteByte('#')
	}
	if s.zero {
		verb.WriteByte('0')
	}
	if s.left {
		verb.WriteByte('-')
	}
	if s.width > 0 {
		verb.WriteString(strconv.Itoa(s.width))
	}
	switch s.conv {
	case 'd', 'i', 'o', 'x', 'X', 'c':
		n := v.asInt()
		if v.kind == KindFloat {
			n = int64(v.f)
		}
		c := s.conv
		if c == 'i' {
			c = 'd'
		}
		verb.WriteByte(c)
		return fmt.Sprintf(verb.String(), n), ""
	}
	x, _ := v.asFloat()
	if s.precision >= 0 {
		verb.WriteString("." + strconv.Itoa(s.precision))
	} else if s.conv != 'g' && s.conv != 'G' {
		verb.WriteString(".6")
	}
	verb.WriteByte(s.conv)
	return fmt.Sprintf(verb.String(), x), ""
}

func (s printfSpec) pad(text string, _ bool) string {
	n := len([]rune(text))
	if s.width <= n {
		return text
	}
	fill := strings.Repeat(" ", s.width-n)
	if s.left {
		return text + fill
	}
	return fill + text
}

func printfTypeName(c byte) string {
	switch c {
	case 'd', 'i':
		return "decimal format ('d')"
	case 'o':
		return "octal format ('o')"
	case 'x', 'X':
		return fmt.Sprintf("hex format ('%c')", c)
	case 'e', 'E':
		return fmt.Sprintf("scientific notation ('%c')", c)
	case 'f', 'F':
		return fmt.Sprintf("fixed-point notation ('%c')", c)
	case 'g', 'G':
		return fmt.Sprintf("general format ('%c')", c)
	}
	return fmt.Sprintf("'%c'", c)
}

// charOffset is the byte offset of the n-th character of s, or -1 when s has n characters or fewer.
func charOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return -1
}
