// String literal escapes as minijinja 2.24 unescapes them (utils.rs): JSON's escapes, `\\xHH` and octal bytes as
// Latin-1 characters, UTF-16 surrogate pairs in `\\u`, any other escaped character kept with its backslash.

package template

import (
	"strconv"
	"strings"
	"unicode/utf16"
)

// unescapeString is s with its escapes resolved; false where minijinja fails with "bad string escape".
func unescapeString(s string) (string, bool) {
	var b strings.Builder
	rs := []rune(s)
	var pending uint16 // a high surrogate waiting for its low half
	push := func(r rune) bool {
		if pending != 0 {
			return false
		}
		b.WriteRune(r)
		return true
	}
	for i := 0; i < len(rs); i++ {
		if rs[i] != '\\' {
			if !push(rs[i]) {
				return "", false
			}
			continue
		}
		i++
		if i >= len(rs) {
			return "", false
		}
		ok := true
		switch d := rs[i]; d {
		case '"', '\\', '/', '\'':
			ok = push(d)
		case 'b':
			ok = push('\b')
		case 'f':
			ok = push('\f')
		case 'n':
			ok = push('\n')
		case 'r':
			ok = push('\r')
		case 't':
			ok = push('\t')
		case 'u':
			// four characters (missing ones count as NUL, which fails), as Rust's u16::from_str_radix reads them
			digits := string(rs[i+1 : min(i+5, len(rs))])
			i = min(i+4, len(rs)-1)
			v, good := parseUnsignedRadix(digits, 16, 16)
			if !good || len([]rune(digits)) < 4 {
				return "", false
			}
			ok = pushUTF16(&b, &pending, uint16(v))
		case 'x':
			digits := string(rs[i+1 : min(i+3, len(rs))])
			i = min(i+2, len(rs)-1)
			v, good := parseUnsignedRadix(digits, 16, 8)
			if !good || len(digits) != 2 {
				return "", false
			}
			ok = push(rune(v))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			digits := string(d)
			for n := 0; n < 2 && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '7'; n++ {
				i++
				digits += string(rs[i])
			}
			v, good := parseUnsignedRadix(digits, 8, 8)
			if !good {
				return "", false
			}
			ok = push(rune(v))
		default:
			ok = push('\\') && push(d)
		}
		if !ok {
			return "", false
		}
	}
	return b.String(), pending == 0
}

// pushUTF16 writes a UTF-16 unit: a surrogate waits for its other half, and a half out of place fails.
func pushUTF16(b *strings.Builder, pending *uint16, c uint16) bool {
	surrogate := c >= 0xD800 && c <= 0xDFFF
	switch {
	case *pending == 0 && !surrogate:
		b.WriteRune(rune(c))
	case *pending != 0 && !surrogate:
		return false
	case *pending == 0:
		if c >= 0xDC00 {
			return false // a low half first: decode_utf16 refuses it (minijinja keeps it pending, then fails)
		}
		*pending = c
	default:
		r := utf16.DecodeRune(rune(*pending), rune(c))
		if r == 0xFFFD {
			return false
		}
		b.WriteRune(r)
		*pending = 0
	}
	return true
}

// parseUnsignedRadix is Rust's uN::from_str_radix: an optional `+`, then at least one digit of the base.
func parseUnsignedRadix(s string, base, bits int) (uint64, bool) {
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, base, bits)
	return v, err == nil
}
