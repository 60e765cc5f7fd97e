// libyaml's possible simple key after a value indicator: `e: ''D:` is "did not find expected key" there.

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
	if l > 0 && continuesPlainScalar(text[li.LineStart(l-1):li.LineEnd(l-1)]) {
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
func opensFlow(text []byte) bool {
	for k, c := range text {
		if (c == '[' || c == '{') && (k == 0 || bytes.IndexByte([]byte(" \t[{,"), text[k-1]) >= 0) {
			return true
		}
	}
	return false
}
