// libyaml's possible simple key after a value indicator: `e: ''D:` is "did not find expected key" there;
// and libyaml's refusal of `:` before a flow indicator in a flow collection's plain scalar.

package yamltree

import (
	"bytes"

	"github.com/goose-ls/goose-ls/recipe/source"
)

const msgMappingValues = "mapping values are not allowed in this context"

// quotedKeyAfterValue corrects yaml/v3's "mapping values are not allowed in this context" on a line
// like `e: 'a'b:` or `e: [a] b:`: libyaml keeps the quoted scalar (or flow collection) after `e: ` as a
// possible simple key, so the later `:` makes it a key and its parser fails at the next token with
// "did not find expected key"; yaml/v3 has dropped that key by then. It returns that token's offset.
func quotedKeyAfterValue(li *source.LineIndex, off int) (int, bool) {
	text := li.Text()
	l := li.Line(off)
	start, end := li.LineStart(l), li.LineEnd(l)
	line := text[start:end]
	i := valueIndicator(line)
	if i < 0 || opensFlow(line[:i]) {
		return 0, false // a flow context: libyaml's answer there is the ports' too
	}
	prev := l - 1 // empty lines inside a plain scalar fold into it
	for prev >= 0 && len(bytes.TrimSpace(text[li.LineStart(prev):li.LineEnd(prev)])) == 0 {
		prev--
	}
	if prev >= 0 && continuesPlainScalar(text[li.LineStart(prev):li.LineEnd(prev)]) {
		return 0, false // `e\ne: …`: the line continues a plain scalar, its `:` is no simple key's
	}
	j := skipLineBlanks(line, i+1)
	for j < len(line) && (line[j] == '&' || line[j] == '!') { // an anchor or a tag before the node
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		j = skipLineBlanks(line, j)
	}
	if j >= len(line) {
		return 0, false
	}
	nodeEnd, ok := flowNodeEnd(line, j)
	if !ok {
		return 0, false
	}
	next := skipLineBlanks(line, nodeEnd)
	if next >= len(line) || line[next] == '#' || line[next] == ':' || valueIndicator(line[next:]) < 0 {
		return 0, false
	}
	return start + next, true
}

// tokenAfterMultilineQuote corrects the same message where the `:` line begins with the end of a
// quoted scalar opened on an earlier line (`q: '\n'p:`): libyaml drops that scalar's possible simple key
// at the line change, fetches the token after the closing quote (no simple key can follow a quoted
// scalar) and stops there, so its parser fails on that token with "did not find expected key" before
// the scanner reaches the `:`. It returns that token's offset.
func tokenAfterMultilineQuote(li *source.LineIndex, off int) (int, string, bool) {
	text := li.Text()
	start := li.LineStart(li.Line(off))
	quote, at, ok := openQuoteAt(text, start)
	if !ok || flowDepthAt(text, start) > 0 {
		return 0, "", false
	}
	// the parser's words for the token it did not want: after a mapping's value, a sequence's entry,
	// or the document's root node
	var msg string
	qs := li.LineStart(li.Line(at))
	switch before := bytes.TrimSpace(text[qs:at]); {
	case valueIndicator(text[qs:at]) >= 0:
		msg = "did not find expected key"
	case len(before) > 0 && len(bytes.Trim(before, "- ")) == 0:
		msg = "did not find expected '-' indicator"
	case at == 0:
		msg = msgExpectedDocumentStart
	default:
		return 0, "", false
	}
	closing := -1
	for k := start; k < off; k++ {
		if text[k] == '\\' && quote == '"' {
			k++
			continue
		}
		if text[k] == quote {
			if quote == '\'' && k+1 < len(text) && text[k+1] == '\'' {
				k++
				continue
			}
			closing = k
			break
		}
	}
	if closing < 0 {
		return 0, "", false
	}
	next := skipLineBlanks(text[:off], closing+1)
	if next >= off || text[next] == '#' || text[next] == ':' {
		return 0, "", false
	}
	return next, msg, true
}

// openQuoteAt is the quote character and offset of a quoted scalar that is still open at off (comments
// and block scalars aside, which is all this needs: it looks at the line of a scanner error).
func openQuoteAt(text []byte, off int) (byte, int, bool) {
	for i := 0; i < off && i < len(text); i++ {
		c := text[i]
		switch {
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < off && text[i] != '\n' {
				i++
			}
		case (c == '\'' || c == '"') && (i == 0 || tokenBoundary(text[i-1]) || text[i-1] == '\n'):
			open, closed := i, false
			for i++; i < len(text); i++ {
				if c == '"' && text[i] == '\\' {
					i++
					continue
				}
				if text[i] == c {
					if c == '\'' && i+1 < len(text) && text[i+1] == '\'' {
						i++
						continue
					}
					closed = true
					break
				}
			}
			if !closed || i >= off {
				return c, open, true
			}
		}
	}
	return 0, 0, false
}

// valueIndicator is the first `:` of a line followed by a blank or the line's end, outside quotes.
func valueIndicator(line []byte) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'' && c == '\'':
			if i+1 < len(line) && line[i+1] == '\'' {
				i++
			} else {
				quote = 0
			}
		case quote == '"' && c == '\\':
			i++
		case quote == '"' && c == '"':
			quote = 0
		case quote != 0:
		case (c == '\'' || c == '"') && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			quote = c
		case c == '#' && i > 0 && (line[i-1] == ' ' || line[i-1] == '\t'):
			return -1
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			return i
		}
	}
	return -1
}

func skipLineBlanks(line []byte, i int) int {
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// flowNodeEnd is the end of the quoted scalar or flow collection at line[i], when it closes on the line.
func flowNodeEnd(line []byte, i int) (int, bool) {
	switch line[i] {
	case '\'':
		for k := i + 1; k < len(line); k++ {
			if line[k] == '\'' {
				if k+1 < len(line) && line[k+1] == '\'' {
					k++
					continue
				}
				return k + 1, true
			}
		}
	case '"':
		for k := i + 1; k < len(line); k++ {
			if line[k] == '\\' {
				k++
			} else if line[k] == '"' {
				return k + 1, true
			}
		}
	case '[', '{':
		depth := 0
		var quote byte
		for k := i; k < len(line); k++ {
			c := line[k]
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '\'' || c == '"':
				quote = c
			case c == '[' || c == '{':
				depth++
			case c == ']' || c == '}':
				depth--
				if depth == 0 {
					return k + 1, true
				}
			}
		}
	}
	return 0, false
}

// continuesPlainScalar: the previous line is a lone plain scalar (no value indicator, no indicator
// first), so the next line may continue it as a multi-line scalar.
func continuesPlainScalar(prev []byte) bool {
	t := bytes.TrimSpace(prev)
	if len(t) == 0 || bytes.IndexByte([]byte("#-[{\"'%&*!|>?"), t[0]) >= 0 {
		return false
	}
	return valueIndicator(t) < 0
}

// opensFlow: a `[` or `{` starts a token in text (not one inside a plain scalar such as `t{`).
// (`t{{` is one plain scalar: a bracket inside a plain scalar's word opens nothing, and the first
// bracket that opens a collection is found before any that follows it).
func opensFlow(text []byte) bool {
	for k, c := range text {
		if (c == '[' || c == '{') && (k == 0 || bytes.IndexByte([]byte(" \t,"), text[k-1]) >= 0) {
			return true
		}
	}
	return false
}

const msgUnexpectedColon = "found unexpected ':'"

// unexpectedColonInFlow finds libyaml 0.2.5's "found unexpected ':'": in a flow collection, a plain
// scalar (words on one or more lines) that meets a `:` followed by one of `,?[]{}` (`{e:}`, `[a :]`);
// yaml/v3 reads that `:` as a value indicator. It returns the offset of that `:`.
func unexpectedColonInFlow(text []byte) (int, bool) {
	if bytes.IndexByte(text, '{') < 0 && bytes.IndexByte(text, '[') < 0 {
		return 0, false
	}
	depth, plain := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		blankBefore := i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n' || text[i-1] == '\r'
		switch {
		case c == '#' && blankBefore:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			plain = false
		case c == '\n' && depth == 0:
			i = skipBlockScalar(text, i)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case depth == 0 && (c == ':' || c == '-' || c == '?') && (i+1 == len(text) || bytes.IndexByte([]byte(" \t\r\n"), text[i+1]) >= 0):
			// a block indicator
		case depth == 0:
			// block context: a collection opens where a node starts (a line's first token, after `: `,
			// `- ` or `? `); elsewhere a bracket is inside a plain scalar
			if (c == '{' || c == '[') && nodeStartsAt(text, i) {
				depth, plain = 1, false
			} else if (c == '\'' || c == '"') && nodeStartsAt(text, i) {
				i = quotedEnd(text, i)
			} else {
				for i+1 < len(text) && text[i+1] != '\n' && !(text[i+1] == ' ' && i+2 < len(text) && text[i+2] == '#') {
					if text[i+1] == ':' && (i+2 == len(text) || text[i+2] == ' ' || text[i+2] == '\n') {
						break // a value indicator: the value may open a collection
					}
					i++
				}
			}
		case c == '{' || c == '[':
			depth, plain = depth+1, false
		case c == '}' || c == ']':
			depth, plain = depth-1, false
		case c == ',':
			plain = false
		case c == ':':
			next := byte(' ')
			if i+1 < len(text) {
				next = text[i+1]
			}
			switch {
			case plain && bytes.IndexByte([]byte(",?[]{}"), next) >= 0:
				return i, true
			case next == ' ' || next == '\t' || next == '\n' || next == '\r' || !plain:
				plain = false // a value indicator
			}
		case !plain && (c == '\'' || c == '"'):
			i = quotedEnd(text, i)
		case !plain && bytes.IndexByte([]byte("&!*"), c) >= 0:
			for i+1 < len(text) && bytes.IndexByte([]byte(" \t\n\r,[]{}"), text[i+1]) < 0 {
				i++ // an anchor, tag or alias: no plain scalar
			}
		case !plain && c == '?' && (i+1 == len(text) || bytes.IndexByte([]byte(" \t\n\r"), text[i+1]) >= 0):
		default:
			plain = true
		}
	}
	return 0, false
}

// quotedEnd is the offset of the quote that closes the quoted scalar opened at i (the text's last
// offset when it does not close).
func quotedEnd(text []byte, i int) int {
	q := text[i]
	for i++; i < len(text); i++ {
		switch {
		case q == '"' && text[i] == '\\':
			i++
		case text[i] == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			i++
		case text[i] == q:
			return i
		}
	}
	return len(text) - 1
}

// nodeStartsAt: in block context, a node may start at i: it is its line's first token, or follows
// `: `, `- ` or `? `.
func nodeStartsAt(text []byte, i int) bool {
	j := i - 1
	for j >= 0 && (text[j] == ' ' || text[j] == '\t') {
		j--
	}
	if j < 0 {
		return true
	}
	if text[j] == '\n' {
		// a line that continues a plain scalar (`e\n[5:]:`) starts no node
		ps := bytes.LastIndexByte(text[:j], '\n') + 1
		return !continuesPlainScalar(text[ps:j])
	}
	return j < i-1 && (text[j] == ':' || text[j] == '-' || text[j] == '?')
}

// skipBlockScalar: when the line that ends at the line break nl ends in a block scalar header, the
// offset of the last line break of the block's content (lines blank or indented more than the
// header's line); else nl.
func skipBlockScalar(text []byte, nl int) int {
	s := bytes.LastIndexByte(text[:nl], '\n') + 1
	header := bytes.TrimSuffix(text[s:nl], []byte("\r"))
	if !bytes.ContainsAny(header, "|>") || !blockHeaderEndRE.Match(header) { // the regexp only where it can match
		return nl
	}
	ind := indentOf(header)
	end := nl
	for end < len(text) {
		next := bytes.IndexByte(text[end+1:], '\n')
		lineEnd := len(text)
		if next >= 0 {
			lineEnd = end + 1 + next
		}
		line := bytes.TrimSuffix(text[end+1:lineEnd], []byte("\r"))
		if li := indentOf(line); li < len(line) && li <= ind {
			break
		}
		if next < 0 {
			return len(text)
		}
		end = lineEnd
	}
	return end
}
