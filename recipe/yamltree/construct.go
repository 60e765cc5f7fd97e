// Where a YAML syntax error points: at the construct its author must fix (the opening quote of an
// unterminated scalar, the bracket of an unclosed flow collection, the line a key's `:` is missing from)
// when libyaml notices the problem further on.

package yamltree

import (
	"bytes"
	"strings"
)

// Related-place texts for a moved error (goose-ls's words).
const (
	NoteParserStops = "goose's YAML parser (libyaml) stops here"
	NoteParserEnd   = "goose's YAML parser (libyaml) reaches the end of the text here"
)

// findConstruct sets e.Construct from text, the text that was parsed.
func (e *Error) findConstruct(text []byte) {
	if e.Offset > len(text) {
		return
	}
	e.AtEnd = len(bytes.TrimSpace(text[e.Offset:])) == 0
	e.Construct, e.HasConstruct = e.construct(text)
}

// construct is the offset of what the author must fix when libyaml's problem mark (e.Offset) lies past
// it; ok is false when the problem mark is the place.
func (e *Error) construct(text []byte) (int, bool) {
	ahead := e.ContextMsg != "" && e.Context < e.Offset
	switch {
	case ahead && e.ContextMsg == "while scanning a quoted scalar":
		// a quote never closed runs to the end of the text (or the next document marker)
		return e.Context, e.Msg == "found unexpected end of stream" || e.Msg == "found unexpected document indicator"
	case ahead && e.ContextMsg == "while scanning a simple key":
		// a line read as a key whose `:` never came
		return e.Context, e.Msg == msgStaleKey
	}
	if afterValueProblems[e.Msg] {
		if q, ok := multilineQuoteBefore(text, e.Offset); ok {
			// a string whose closing quote is missing took the line break and what follows, up to the
			// opening quote of a later value
			return q, true
		}
	}
	if ahead && strings.HasPrefix(e.ContextMsg, "while parsing a flow ") && strings.HasPrefix(e.Msg, "did not find expected ',' or ") &&
		(e.AtEnd || backAtIndent(text, e.Context, e.Offset)) {
		return e.Context, true // the collection is never closed
	}
	return 0, false
}

// afterValueProblems are libyaml's parser errors for a token that cannot follow the value before it.
var afterValueProblems = map[string]bool{
	"did not find expected key": true, "did not find expected '-' indicator": true,
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
}

// backAtIndent: off lies on a later line than the bracket at open, a line indented no deeper than the
// bracket's: the block the collection stands in goes on, so the collection should have ended before.
func backAtIndent(text []byte, open, off int) bool {
	openLine := bytes.LastIndexByte(text[:open], '\n') + 1
	offLine := bytes.LastIndexByte(text[:off], '\n') + 1
	if offLine <= openLine {
		return false
	}
	return indentOf(text[offLine:]) <= indentOf(text[openLine:])
}

// multilineQuoteBefore: the token just before off (blanks passed) is a quoted scalar that spans a line
// break and whose closing quote looks like another quote: one that opens a later value (it follows a
// blank, `:`, `,` or a bracket) or an apostrophe inside a word. It returns that scalar's opening quote.
func multilineQuoteBefore(text []byte, off int) (int, bool) {
	e := off
	for e > 0 && isSpaceByte(text[e-1]) {
		e--
	}
	if e < 2 || (text[e-1] != '"' && text[e-1] != '\'') {
		return 0, false
	}
	q, closing := text[e-1], e-1
	opensValue := tokenBoundary(text[closing-1]) || text[closing-1] == '\n' || text[closing-1] == ':'
	inWord := closing+1 < len(text) && isWordByte(text[closing+1]) && isWordByte(text[closing-1])
	if !opensValue && !inWord {
		return 0, false // a string that ends where it should: the problem is what follows it
	}
	for s := closing - 1; s >= 0; s-- {
		if text[s] != q || (s > 0 && !tokenBoundary(text[s-1]) && text[s-1] != '\n' && text[s-1] != '\r' && text[s-1] != ':') {
			continue
		}
		// the nearest quote that can open a scalar: it is the opening one when its scalar ends at closing
		if quotedEnd(text, s) == closing {
			return s, bytes.ContainsAny(text[s:closing], "\n\r")
		}
		return 0, false
	}
	return 0, false
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
