// Inline <think>…</think> blocks in a model's text, split out as goose's ThinkFilter does, chunk by chunk.

package openai

import (
	"regexp"
	"strings"
)

// thinkFilter separates streamed text into content and the reasoning written inside <think> or
// <thinking> tags (any case, attributes allowed, nested blocks counted). A close tag outside a block is
// ordinary text. A chunk that ends in what may still become a tag is held back until the next chunk.
type thinkFilter struct {
	buf   string
	depth int
}

// push adds a chunk and returns what is now known to be content and reasoning.
func (f *thinkFilter) push(chunk string) (content, thinking string) {
	f.buf += chunk
	var c, th strings.Builder
	emit := func(s string) {
		if f.depth > 0 {
			th.WriteString(s)
		} else {
			c.WriteString(s)
		}
	}
	for {
		pos, end, kind, partial := f.next()
		if pos < 0 {
			emit(f.buf)
			f.buf = ""
			break
		}
		emit(f.buf[:pos])
		if partial {
			f.buf = f.buf[pos:]
			break
		}
		f.buf = f.buf[end:]
		switch kind {
		case tagOpen:
			f.depth++
		case tagClose:
			f.depth--
		}
	}
	return c.String(), th.String()
}

// finish returns what was held back: reasoning inside an unclosed block, else content.
func (f *thinkFilter) finish() (content, thinking string) {
	content, thinking = f.push("")
	if f.buf != "" {
		if f.depth > 0 {
			thinking += f.buf
		} else {
			content += f.buf
		}
		f.buf = ""
	}
	return content, thinking
}

// splitThinkBlocks splits a whole text at once.
func splitThinkBlocks(text string) (content, thinking string) {
	var f thinkFilter
	c1, t1 := f.push(text)
	c2, t2 := f.finish()
	return c1 + c2, t1 + t2
}

// maxHeldTag bounds what may be held back as the start of a tag. goose holds any length, so text such as
// `<think "` with no closing quote would be rescanned with every chunk (quadratic); past this length it is
// text, which no real tag comes near.
const maxHeldTag = 4 << 10

type tagKind int

const (
	tagOpen tagKind = iota
	tagClose
	tagSelfClosing
)

// next finds the first tag the filter acts on (an open or self-closing one, or a close one inside a
// block) at pos..end, or the start of a possible partial tag (partial), or pos -1.
func (f *thinkFilter) next() (pos, end int, kind tagKind, partial bool) {
	for from := 0; ; {
		i := strings.IndexByte(f.buf[from:], '<')
		if i < 0 {
			return -1, 0, 0, false
		}
		pos = from + i
		if kind, end, ok := parseThinkTag(f.buf, pos); ok {
			if f.depth > 0 || kind != tagClose {
				return pos, end, kind, false
			}
		} else if rest := f.buf[pos:]; len(rest) <= maxHeldTag && partialThinkTag(rest) && !hasUnquotedGT(rest) {
			return pos, 0, 0, true
		}
		from = pos + 1
	}
}

// parseThinkTag reads a think or thinking tag at s[start] ('<'): its kind and the index after its '>'.
func parseThinkTag(s string, start int) (tagKind, int, bool) {
	i := start + 1
	closing := i < len(s) && s[i] == '/'
	if closing {
		i++
	}
	nameStart := i
	for i < len(s) && isASCIILetter(s[i]) {
		i++
	}
	name := strings.ToLower(s[nameStart:i])
	if name != "think" && name != "thinking" {
		return 0, 0, false
	}
	if closing {
		for i < len(s) && isASCIISpace(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '>' {
			return tagClose, i + 1, true
		}
		return 0, 0, false
	}
	// the name must end at a tag boundary: <thinking-mode> is not a think tag
	if i >= len(s) || (s[i] != '>' && s[i] != '/' && !isASCIISpace(s[i])) {
		return 0, 0, false
	}
	gt, last := unquotedGT(s, i)
	switch {
	case gt < 0:
		return 0, 0, false
	case last == '/':
		return tagSelfClosing, gt + 1, true
	}
	return tagOpen, gt + 1, true
}

// unquotedGT finds the first '>' at or after from that is outside quotes ('"' or '\”), and the last
// byte before it that is not white space (a quote mark counts); gt is -1 when there is none.
func unquotedGT(s string, from int) (gt int, last byte) {
	var quote byte
	for i := from; i < len(s); i++ {
		b := s[i]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			quote, last = b, b
		case b == '>':
			return i, last
		case !isASCIISpace(b):
			last = b
		}
	}
	return -1, last
}

var (
	partialOpen  = regexp.MustCompile(`(?is)^<(?:t(?:h(?:i(?:n(?:k(?:i(?:n(?:g)?)?)?)?)?)?)?)(?:\s.*|/)?$`)
	partialClose = regexp.MustCompile(`(?is)^</(?:t(?:h(?:i(?:n(?:k(?:i(?:n(?:g)?)?)?)?)?)?)?)(?:\s*)?$`)
)

// partialThinkTag reports whether s (from a '<' to the end of what was received) may still become a
// think tag, a self-closing one's trailing '/' included.
func partialThinkTag(s string) bool { return partialOpen.MatchString(s) || partialClose.MatchString(s) }

// hasUnquotedGT reports whether s has a '>' outside quotes.
func hasUnquotedGT(s string) bool {
	gt, _ := unquotedGT(s, 0)
	return gt >= 0
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// isASCIISpace is Rust's u8::is_ascii_whitespace (no vertical tab).
func isASCIISpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }
