// The key order of every object in the schema text (Go maps lose it; completion lists fields in the
// order the schema gives them), read by one allocation-light scan instead of encoding/json's Token walk.

package schema

import (
	"encoding/json"
	"strconv"
)

// keyOrder records the key order of every object in a JSON document, by JSON pointer (keys unescaped
// from JSON, not escaped for the pointer: "/definitions/extension/properties"). The document must be
// valid JSON (it is the embedded schema, parsed before this runs); on malformed input the result is
// partial.
func keyOrder(text []byte) map[string][]string {
	out := map[string][]string{}
	sc := keyScanner{text: text, out: out}
	sc.value("")
	return out
}

type keyScanner struct {
	text []byte
	pos  int
	out  map[string][]string
}

func (s *keyScanner) skipSpace() {
	for s.pos < len(s.text) {
		switch s.text[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value reads one value at ptr, recording object keys below it.
func (s *keyScanner) value(ptr string) {
	s.skipSpace()
	if s.pos >= len(s.text) {
		return
	}
	switch s.text[s.pos] {
	case '{':
		s.pos++
		for {
			s.skipSpace()
			if s.pos >= len(s.text) || s.text[s.pos] == '}' {
				s.pos++
				return
			}
			if s.text[s.pos] == ',' {
				s.pos++
				continue
			}
			key, ok := s.str()
			if !ok {
				return
			}
			s.out[ptr] = append(s.out[ptr], key)
			s.skipSpace()
			if s.pos < len(s.text) && s.text[s.pos] == ':' {
				s.pos++
			}
			s.child(ptr + "/" + key)
		}
	case '[':
		s.pos++
		for i := 0; ; {
			s.skipSpace()
			if s.pos >= len(s.text) || s.text[s.pos] == ']' {
				s.pos++
				return
			}
			if s.text[s.pos] == ',' {
				s.pos++
				continue
			}
			s.child(ptr + "/" + strconv.Itoa(i))
			i++
		}
	case '"':
		s.str()
	default: // number, true, false, null
		for s.pos < len(s.text) {
			switch s.text[s.pos] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			s.pos++
		}
	}
}

// child reads a value at ptr; ptr is only needed (and kept) when the value is an object or array.
func (s *keyScanner) child(ptr string) {
	s.skipSpace()
	if s.pos < len(s.text) && (s.text[s.pos] == '{' || s.text[s.pos] == '[') {
		s.value(ptr)
		return
	}
	s.value("")
}

// str reads a JSON string at pos and returns its value.
func (s *keyScanner) str() (string, bool) {
	if s.pos >= len(s.text) || s.text[s.pos] != '"' {
		return "", false
	}
	start := s.pos
	escaped := false
	for s.pos++; s.pos < len(s.text); s.pos++ {
		switch s.text[s.pos] {
		case '\\':
			escaped = true
			s.pos++
		case '"':
			s.pos++
			raw := s.text[start:s.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), true
			}
			var v string
			if json.Unmarshal(raw, &v) != nil {
				return "", false
			}
			return v, true
		}
	}
	return "", false
}
