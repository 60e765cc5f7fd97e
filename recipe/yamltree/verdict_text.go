// What the Go ports of libyaml read otherwise than libyaml 0.2.5, rewritten before the verdict with every
// other character kept in its line and column: NEL/LS/PS line breaks, line-start byte order marks, and two
// escapes of double-quoted scalars.

package yamltree

import (
	"bytes"
	"regexp"

	"github.com/goose-ls/goose-ls/recipe/source"
)

const bom = "\uFEFF"

// shrink is a place where asLibyamlReadsIt's text is shorter than the original: by bytes fewer from
// the character at (an offset of the new text) on.
type shrink struct{ at, by int }

// asLibyamlReadsIt rewrites what the Go ports read otherwise than libyaml 0.2.5, keeping every other
// character in its line and column (and two escapes, see libyamlEscapes):
//   - NEL, LS and PS are line breaks to libyaml everywhere (YAML 1.1); the ports miss them in places
//     (after a block entry's `-`, before a document's first token, in a block scalar's indentation):
//     each becomes `\n`.
//   - libyaml skips a byte order mark at the start of a line as it skips a space before a token (it
//     counts one column); the ports read it as content. Each such mark becomes a space. A mark where a
//     block scalar's content would go on, or a plain scalar's inside a block collection, ends that node
//     first (libyaml reads the indentation, which a mark is not, before it skips the mark): it becomes
//     `#`, a line break and a space (the same length), a comment line that ends the node in the ports
//     too and keeps the next character in column 1. (A plain scalar at the root, or in a flow
//     collection, goes on over it.)
func asLibyamlReadsIt(text []byte) (fixed []byte, shrinks []shrink, ok bool) {
	breaks := bytes.Contains(text, []byte("\n"+bom)) || hasUnicodeBreak(text) // the first mark is the file's own
	escapes := bytes.Contains(text, []byte(`\'`)) || bytes.Contains(text, []byte(`\/`))
	if !breaks && !escapes {
		return nil, nil, false
	}
	if !breaks {
		out := bytes.Clone(text)
		return out, nil, libyamlEscapes(out)
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if w := unicodeBreakWidth(text[i:]); w > 0 {
			shrinks = append(shrinks, shrink{at: len(out), by: w - 1})
			out = append(out, '\n')
			i += w - 1
			continue
		}
		if i > 0 && out[len(out)-1] == '\n' && bytes.HasPrefix(text[i:], []byte(bom)) {
			if inBlockScalar(out, len(out)) || afterBlockEntry(out, len(out)) {
				out = append(out, "#\n "...)
			} else {
				shrinks = append(shrinks, shrink{at: len(out), by: len(bom) - 1})
				out = append(out, ' ')
			}
			i += len(bom) - 1
			continue
		}
		out = append(out, text[i])
	}
	if escapes {
		libyamlEscapes(out)
	}
	return out, shrinks, true
}

// libyamlEscapes rewrites, in double-quoted scalars, the escapes libyaml 0.2.5 and yaml/v3 read
// differently (the same length): `\/` is libyaml's (JSON's solidus) and becomes `\\`; `\'` is only the
// port's and becomes `\q`, an unknown escape to both. It reports whether it changed anything.
func libyamlEscapes(text []byte) bool {
	changed := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case (c == '\'' || c == '"') && (i == 0 || tokenBoundary(text[i-1]) || text[i-1] == '\n'):
			for i++; i < len(text); i++ {
				if c == '"' && text[i] == '\\' && i+1 < len(text) {
					switch text[i+1] {
					case '/':
						text[i+1], changed = '\\', true
					case '\'':
						text[i+1], changed = 'q', true
					}
					i++
					continue
				}
				if text[i] == c {
					if c == '\'' && i+1 < len(text) && text[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		}
	}
	return changed
}

// unicodeBreakWidth is the length of the NEL, LS or PS that b starts with, else 0.
func unicodeBreakWidth(b []byte) int {
	switch {
	case len(b) >= 2 && b[0] == 0xC2 && b[1] == 0x85:
		return 2
	case len(b) >= 3 && b[0] == 0xE2 && b[1] == 0x80 && (b[2] == 0xA8 || b[2] == 0xA9):
		return 3
	}
	return 0
}

// originalOffset maps an offset of asLibyamlReadsIt's text back to the original.
func originalOffset(off int, shrinks []shrink) int {
	orig := off
	for _, s := range shrinks {
		if s.at < off {
			orig += s.by
		}
	}
	return orig
}

// afterBlockEntry: the line before the one at start (blank and comment lines passed) is a block
// mapping's or sequence's entry (`key:`, `key: value`, `- value`) that opens no flow collection.
func afterBlockEntry(text []byte, start int) bool {
	for end := start - 1; end >= 0; {
		s := bytes.LastIndexByte(text[:end], '\n') + 1
		line := bytes.TrimSpace(text[s:end])
		if len(line) > 0 && line[0] != '#' {
			entry := valueIndicator(line) >= 0 || bytes.HasPrefix(line, []byte("- ")) || string(line) == "-"
			return entry && !opensFlow(line)
		}
		if s == 0 {
			break
		}
		end = s - 1
	}
	return false
}

// blockHeaderEndRE: a line whose last token (before a comment) is a block scalar indicator.
var blockHeaderEndRE = regexp.MustCompile(`(?:^|[ \t])[|>][-+1-9]{0,2}[ \t]*(?:#.*)?$`)

// inBlockScalar: the line at start would continue a block scalar's content: going back over blank
// lines and lines indented more than the header, a line ends in a block scalar indicator. A line with
// content in column 0 (a mark's own line too) ends every block before it.
func inBlockScalar(text []byte, start int) bool {
	minIndent := -1 // the least indentation of the content lines passed
	for end := start - 1; end >= 0; {
		s := bytes.LastIndexByte(text[:end], '\n') + 1
		line := bytes.TrimSuffix(text[s:end], []byte("\r"))
		ind := indentOf(line)
		if ind < len(line) {
			if blockHeaderEndRE.Match(line) && (minIndent < 0 || minIndent > ind) {
				return true
			}
			if ind == 0 {
				return false
			}
			if minIndent < 0 || ind < minIndent {
				minIndent = ind
			}
		}
		if s == 0 {
			break
		}
		end = s - 1
	}
	return false
}

// tabAfterComment: yaml/v3 eats a run of comment lines together (it keeps comments), including a line
// that starts with a tab; libyaml, in block context, refuses a tab at the start of a line ("found
// character that cannot start any token") wherever the line comes after. When yaml/v3 accepted a text
// with such a line after a comment line, the comment lines are blanked (same length; a comment line is
// skipped like an empty one by libyaml) and yaml/v3 asked again; only its tab error is taken (in a flow
// collection, where tabs are allowed, there is none). After a plain scalar, whose end libyaml finds at the
// comment, the tab line's `#` becomes a token instead.
func tabAfterComment(li *source.LineIndex) (verdict, bool) {
	text := li.Text()
	if !bytes.Contains(text, []byte("\n\t")) && !bytes.Contains(text, []byte(" \t")) { // a line of spaces, then a tab
		return verdict{}, false
	}
	blank, marked := bytes.Clone(text), bytes.Clone(text)
	prevComment, found := false, false
	for start := 0; start < len(blank); {
		end := lineEndAt(blank, start)
		line := blank[start:end]
		body := bytes.TrimLeft(line, " \t")
		isComment := len(body) > 0 && body[0] == '#'
		if prevComment && bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte("\t")) {
			found = true
			if isComment {
				marked[start+len(line)-len(body)] = 'x' // a token after the tab: yaml/v3 then refuses the tab too
			}
		}
		if isComment {
			for i := len(line) - len(body); i < len(line); i++ {
				if line[i] != '\r' {
					line[i] = ' '
				}
			}
		}
		if len(bytes.TrimSpace(line)) > 0 || isComment {
			prevComment = isComment
		}
		start = end + 1
	}
	if !found {
		return verdict{}, false
	}
	// blanked comments keep a preceding plain scalar going over them (libyaml ends it at the comment):
	// then the tab line itself is given a token
	for _, try := range [][]byte{blank, marked} {
		v, line := decodeV3(try)
		if v.err == nil || v.err.Msg != msgCannotStartToken {
			continue
		}
		off, _ := placeError(source.NewLineIndex(try), v.err.Msg, line)
		if off >= len(text) || text[off] != '\t' {
			continue
		}
		v.err.Offset = off
		return v, true
	}
	return verdict{}, false
}
