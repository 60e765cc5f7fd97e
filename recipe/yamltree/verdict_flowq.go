// Question marks inside plain scalars of flow collections: libyaml 0.2.5 reads `[what?]` and `{a: b?c}` as
// scalars with a `?` in them, while yaml/v3 (a port of an older libyaml) ends the scalar at the `?` and
// reads a key indicator, then fails with "did not find expected ',' or ']'".

package yamltree

// flowQuestionMarks returns text with every `?` that continues a plain scalar inside a flow collection
// replaced by `x` (the same length, so every offset stays), or false when there is none. It reads the
// text as a small lexer does: quoted scalars and comments are skipped, a flow collection opens at a
// bracket or brace where a token starts; a mistake only leaves yaml/v3's own verdict in place.
func flowQuestionMarks(text []byte) ([]byte, bool) {
	var out []byte
	depth := 0         // open flow collections
	tokenStart := true // the next character would start a token
	inPlain := false   // inside a plain scalar (in a flow collection)
	prevBlank := true  // the previous character was a space, tab or line break (or none)
	for i := 0; i < len(text); i++ {
		c := text[i]
		blank := c == ' ' || c == '\t' || c == '\n' || c == '\r'
		switch {
		case blank:
			if c == '\n' && depth == 0 {
				tokenStart, inPlain = true, false
			}
		case c == '#' && prevBlank:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i-- // the line break is read next
			prevBlank = true
			continue
		case tokenStart && (c == '\'' || c == '"'):
			i = skipQuoted(text, i)
			tokenStart, inPlain = false, false
		case c == '[' || c == '{':
			if tokenStart || depth > 0 && !inPlain {
				depth++
				tokenStart, inPlain = true, false
			}
		case depth > 0 && (c == ']' || c == '}'):
			depth--
			tokenStart, inPlain = depth > 0, false
		case depth > 0 && c == ',':
			tokenStart, inPlain = true, false
		case c == ':' && (i+1 == len(text) || isBlankOrBreak(text[i+1]) || depth > 0 && isFlowIndicator(text[i+1])):
			tokenStart, inPlain = true, false
		case (c == '-' || c == '?') && tokenStart && (i+1 == len(text) || isBlankOrBreak(text[i+1])):
			// a block entry or key indicator: a token starts after it
		case c == '?' && depth > 0 && inPlain:
			if out == nil {
				out = append([]byte(nil), text...)
			}
			out[i] = 'x'
		default:
			if tokenStart && depth > 0 {
				inPlain = true
			}
			tokenStart = false
		}
		prevBlank = blank
	}
	return out, out != nil
}

// skipQuoted returns the offset of the quote that closes the scalar opened at i (or the end of text).
func skipQuoted(text []byte, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q && q == '\'' && j+1 < len(text) && text[j+1] == '\'':
			j++ // '' is a quote inside single quotes
		case text[j] == q:
			return j
		}
	}
	return len(text)
}

func isBlankOrBreak(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
