// Block-scalar masking: goccy/go-yaml scans block scalar content character by character at a high
// constant cost, and recipes are mostly block scalars (instructions, prompts). Before parsing, each
// content line of a `|`/`>` block is cut to its indentation plus one character, so every other line and
// column stays where it was; the block's value is then rebuilt from the original text. A mask that goccy
// does not confirm (no block scalar where one was masked) falls back to parsing the original.

package yamltree

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// maskedBlock is one block scalar whose content was masked.
type maskedBlock struct {
	header        int // line of the `|`/`>` indicator
	first, last   int // content lines (last < first when empty)
	contentIndent int
	folded        bool
	chomp         byte // 0 clip, '-' strip, '+' keep
}

// blockHeaderRE matches a line ending in a block scalar indicator: `key: |`, `- >-`, `- key: |2`.
var blockHeaderRE = regexp.MustCompile(`^( *)((?:- +)*)((?:[^\s#'"{\[\]&*!|>%@` + "`" + `-][^#:]*|"[^"]*"|'[^']*')?: +)?([|>])([-+]?)([1-9]?)([-+]?)[ \t]*(?:#.*)?$`)

// minMaskBytes is the size below which masking is skipped: none, since it paid at every size measured
// (the corpus of mostly small recipes checks ~20 % faster masked: goccy scans block scalars char by char).
const minMaskBytes = 0

// mask returns the masked text and its blocks, or nil when nothing was masked.
func mask(li *source.LineIndex, minBytes int) ([]byte, []maskedBlock) {
	text := li.Text()
	if len(text) < minBytes || bytes.IndexByte(text, '|') < 0 && bytes.IndexByte(text, '>') < 0 {
		return nil, nil
	}
	var blocks []maskedBlock
	n := li.LineCount()
	for l := 0; l < n; l++ {
		line := text[li.LineStart(l):li.LineEnd(l)]
		if len(line) == 0 || (line[len(line)-1] != '|' && line[len(line)-1] != '>' && !bytes.ContainsAny(line, "|>")) {
			continue
		}
		m := blockHeaderRE.FindSubmatch(line)
		if m == nil {
			continue
		}
		if len(m[2]) == 0 && len(m[3]) == 0 {
			continue // a bare `|` header (document root or next-line value): leave it to goccy
		}
		parent := len(m[1])
		if len(m[3]) > 0 {
			parent += len(m[2]) // `- key: |`: the key's column
		}
		b := maskedBlock{header: l, folded: m[4][0] == '>'}
		for _, c := range [][]byte{m[5], m[7]} {
			if len(c) > 0 {
				b.chomp = c[0]
			}
		}
		if len(m[6]) > 0 {
			continue // explicit indentation indicators are rare; goccy's reading of them is left alone
		}
		b.first, b.last = l+1, l
		b.contentIndent = -1
		k := l + 1
		for ; k < n; k++ {
			cl := text[li.LineStart(k):li.LineEnd(k)]
			ind := indentOf(cl)
			if ind == len(cl) { // spaces only: content when longer than the content indentation
				if b.contentIndent >= 0 && len(cl) > b.contentIndent {
					b.last = k
				}
				continue
			}
			if b.contentIndent < 0 {
				if ind <= parent {
					break
				}
				b.contentIndent = ind
			}
			if ind < b.contentIndent {
				break
			}
			b.last = k
		}
		if b.contentIndent < 0 || b.last < b.first {
			continue
		}
		// a block left to goccy is still skipped whole: a header-like line in its text is content, and
		// masking it would only make goccy refuse the mask (the whole text parsed twice)
		l = b.last
		if trailingBlanksGoccyMayTrim(li, b) {
			continue // goccy trims trailing blanks in ways that depend on position: leave such blocks to it
		}
		if hasTabAfterIndent(li, b) {
			continue // libyaml refuses a tab where the indentation is still being read: the mask would hide it
		}
		if rest := text[li.LineEnd(b.last):]; len(bytes.TrimSpace(rest)) == 0 && !bytes.HasSuffix(text, []byte("\n")) {
			continue // the block runs into an unterminated end of text, where goccy trims differently
		}
		blocks = append(blocks, b)
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	removed := 0 // sized exactly first: the masked text is a fraction of the text, of no predictable share
	for _, b := range blocks {
		for k := b.first; k <= b.last; k++ {
			if cut, resume, ok := maskedCut(text, li.LineStart(k), li.LineEnd(k)); ok {
				removed += resume - cut - 1 // the line keeps one byte, 'x'
			}
		}
	}
	out := make([]byte, 0, len(text)-removed)
	prev := 0
	for _, b := range blocks {
		for k := b.first; k <= b.last; k++ {
			if cut, resume, ok := maskedCut(text, li.LineStart(k), li.LineEnd(k)); ok {
				out = append(out, text[prev:cut]...)
				out = append(out, 'x')
				prev = resume
			}
		}
	}
	out = append(out, text[prev:]...)
	return out, blocks
}

// maskedCut is how a content line [s, e) is masked: the text before cut is kept and followed by 'x',
// and the text resumes at resume (its trailing blanks are kept: goccy's token positions depend on them);
// ok is false for a line of spaces only, which is kept as it is.
func maskedCut(text []byte, s, e int) (cut, resume int, ok bool) {
	ind := indentOf(text[s:e])
	if ind == e-s {
		return 0, 0, false
	}
	t := e
	for t > s+ind+1 && (text[t-1] == ' ' || text[t-1] == '\t') {
		t--
	}
	return s + ind, t, true
}

// trailingBlanksGoccyMayTrim: a content line ends in blanks where goccy's value may differ from the rebuilt
// one (any line of a folded block, the last line of a literal one). A literal block keeps the blanks at
// the end of its other lines (goccy scans them as content; the masked line keeps them too).
func trailingBlanksGoccyMayTrim(li *source.LineIndex, b maskedBlock) bool {
	text := li.Text()
	first := b.first
	if !b.folded { // from its last line with content
		for first = b.last; first > b.first; first-- {
			if s, e := li.LineStart(first), li.LineEnd(first); indentOf(text[s:e]) < e-s {
				break
			}
		}
	}
	for k := first; k <= b.last; k++ {
		s, e := li.LineStart(k), li.LineEnd(k)
		if e > s && indentOf(text[s:e]) < e-s && (text[e-1] == ' ' || text[e-1] == '\t') {
			return true
		}
	}
	return false
}

// hasTabAfterIndent: the first content line has a tab right after its leading spaces (libyaml's "found a
// tab character where an indentation space is expected" while the block's indentation is undecided),
// which the mask's 'x' would replace. On a later line the spaces reach the content indentation (a less
// indented line ends the block), so a tab there is content to libyaml and goccy alike.
func hasTabAfterIndent(li *source.LineIndex, b maskedBlock) bool {
	text := li.Text()
	for k := b.first; k <= b.last; k++ {
		s, e := li.LineStart(k), li.LineEnd(k)
		ind := indentOf(text[s:e])
		if s+ind == e {
			continue // spaces only
		}
		return text[s+ind] == '\t'
	}
	return false
}

func indentOf(line []byte) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// blockValue rebuilds a masked block scalar's value from the original lines.
func blockValue(li *source.LineIndex, b maskedBlock) string {
	text := li.Text()
	if !b.folded {
		return literalValue(li, b)
	}
	var lines []string
	trailingBlank := 0
	seenContent := false
	for k := b.first; k <= b.last; k++ {
		l := string(text[li.LineStart(k):li.LineEnd(k)])
		if indentOf([]byte(l)) >= len(l) && (len(l) <= b.contentIndent || !seenContent) {
			lines = append(lines, "")
			continue
		}
		seenContent = true
		if len(l) >= b.contentIndent {
			l = l[b.contentIndent:]
		} else {
			l = strings.TrimLeft(l, " ")
		}
		lines = append(lines, l)
	}
	// blank lines after the content up to the next token count for `keep` chomping
	for k := b.last + 1; k < li.LineCount(); k++ {
		if l := text[li.LineStart(k):li.LineEnd(k)]; indentOf(l) == len(l) && k+1 < li.LineCount() {
			trailingBlank++
			continue
		}
		break
	}
	var sb strings.Builder
	if !b.folded {
		sb.WriteString(strings.Join(lines, "\n"))
	} else {
		foldLines(&sb, lines)
	}
	// the final line break exists only when the last content line is not the end of the text
	if li.LineEnd(b.last) < len(text) {
		switch b.chomp {
		case '-':
		case '+':
			sb.WriteByte('\n')
			sb.WriteString(strings.Repeat("\n", trailingBlank))
		default:
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// literalValue is blockValue for a literal (`|`) block, written in one buffer: the content lines less
// their indentation joined by line breaks (the value of a long instructions block is read again on
// every keystroke in it).
func literalValue(li *source.LineIndex, b maskedBlock) string {
	text := li.Text()
	var sb strings.Builder
	sb.Grow(li.LineEnd(b.last) - li.LineStart(b.first) + 1)
	seenContent := false
	for k := b.first; k <= b.last; k++ {
		if k > b.first {
			sb.WriteByte('\n')
		}
		l := text[li.LineStart(k):li.LineEnd(k)]
		if indentOf(l) >= len(l) && (len(l) <= b.contentIndent || !seenContent) {
			continue // an empty line
		}
		seenContent = true
		if len(l) >= b.contentIndent {
			l = l[b.contentIndent:]
		} else {
			l = bytes.TrimLeft(l, " ")
		}
		sb.Write(l)
	}
	if li.LineEnd(b.last) < len(text) {
		switch b.chomp {
		case '-':
		case '+':
			sb.WriteByte('\n')
			sb.WriteString(strings.Repeat("\n", trailingBlankLines(li, b)))
		default:
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// trailingBlankLines counts the blank lines after a block's content up to the next token (they count
// for `keep` chomping).
func trailingBlankLines(li *source.LineIndex, b maskedBlock) int {
	text := li.Text()
	n := 0
	for k := b.last + 1; k < li.LineCount(); k++ {
		if l := text[li.LineStart(k):li.LineEnd(k)]; indentOf(l) == len(l) && k+1 < li.LineCount() {
			n++
			continue
		}
		break
	}
	return n
}

// foldLines joins folded-scalar lines: a break between two plain lines becomes a space, empty lines
// become newlines, and breaks next to more-indented lines are kept.
func foldLines(sb *strings.Builder, lines []string) {
	spaced := func(s string) bool { return s != "" && (s[0] == ' ' || s[0] == '\t') }
	lastNonEmpty := -1
	for i, l := range lines {
		switch {
		case i == 0:
			if l == "" {
				sb.WriteByte('\n') // a leading empty line is kept as a line break
			}
		case l == "":
			sb.WriteByte('\n')
		case lines[i-1] == "":
			if spaced(l) || (lastNonEmpty >= 0 && spaced(lines[lastNonEmpty])) {
				sb.WriteByte('\n')
			}
		case spaced(l) || spaced(lines[i-1]):
			sb.WriteByte('\n')
		default:
			sb.WriteByte(' ')
		}
		sb.WriteString(l)
		if l != "" {
			lastNonEmpty = i
		}
	}
}
