// The YAML syntax verdict as goose reaches it: go.yaml.in/yaml/v3's port of libyaml's reader, scanner and
// parser decides whether the first document parses, with libyaml's problem text, plus serde_yaml's own
// rules (an alias to an unknown anchor; a second document); goccy/go-yaml only builds the ranged tree.
// yaml/v3 prints no column, so the error is placed at go.yaml.in/yaml/v4's problem mark (the same port,
// which reports libyaml's marks) when v4 words the same problem.

package yamltree

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
	yaml4 "go.yaml.in/yaml/v4"

	"github.com/goose-ls/goose-ls/recipe/source"
)

// msgUnknownAnchor is serde_yaml's message for an alias whose anchor is not defined before it.
const msgUnknownAnchor = "unknown anchor"

// verdict is what libyamlVerdict found.
type verdict struct {
	// node is the composed first document (nil on error), for a tree where goccy refuses the text.
	node *yaml3.Node
	err  *Error
	// more: the text holds a second document (serde_yaml refuses it, whatever it holds).
	more bool
}

// cachedVerdict is libyamlVerdict on the masked text goccy parsed when there is one (block scalar
// content cannot fail libyaml's parse, and the mask keeps every other line and column, so an edit inside
// instructions or a prompt finds the verdict in the cache), else on the text. Its node is nil for a masked text.
func cachedVerdict(li *source.LineIndex, masked []byte, cache *Cache) verdict {
	if masked == nil || hasUnicodeBreak(li.Text()) {
		return libyamlVerdict(li)
	}
	v, ok := cache.getVerdict(masked)
	var mli *source.LineIndex
	if !ok {
		mli = source.NewLineIndex(masked)
		v = libyamlVerdict(mli)
		v.node = nil
		cache.putVerdict(masked, v) // the error at its offset in the masked text, which texts share
	}
	if v.err != nil {
		if mli == nil {
			mli = source.NewLineIndex(masked)
		}
		// masked lines are prefixes of the original ones: the same line and byte column
		unmask := func(off int) int {
			l := mli.Line(off)
			return min(li.LineStart(l)+off-mli.LineStart(l), len(li.Text()))
		}
		v.err.Offset = unmask(v.err.Offset)
		if v.err.ContextMsg != "" {
			v.err.Context = unmask(v.err.Context)
		}
	}
	return v
}

// hasUnicodeBreak reports NEL, LS or PS: line breaks to libyaml (YAML 1.1) that a masked block scalar
// line would hide.
func hasUnicodeBreak(text []byte) bool {
	return bytes.Contains(text, []byte("\u0085")) || bytes.Contains(text, []byte("\u2028")) || bytes.Contains(text, []byte("\u2029"))
}

func (c *Cache) getVerdict(masked []byte) (verdict, bool) {
	if c == nil {
		return verdict{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.verdictMasked == nil || !bytes.Equal(c.verdictMasked, masked) {
		return verdict{}, false
	}
	v := c.verdict
	if v.err != nil {
		e := *v.err // callers own the error they get
		v.err = &e
	}
	return v, true
}

func (c *Cache) putVerdict(masked []byte, v verdict) {
	if c == nil {
		return
	}
	if v.err != nil {
		e := *v.err
		v.err = &e
	}
	c.mu.Lock()
	c.verdictMasked, c.verdict = masked, v
	c.mu.Unlock()
}

// libyamlVerdict parses text as serde_yaml does (libyaml's events, aliases resolved in order).
func libyamlVerdict(li *source.LineIndex) verdict {
	fixed, shrinks, ok := asLibyamlReadsIt(li.Text())
	if !ok {
		return verdictOn(li)
	}
	v := verdictOn(source.NewLineIndex(fixed))
	if v.err != nil {
		v.err.Offset = min(originalOffset(v.err.Offset, shrinks), len(li.Text()))
		if v.err.ContextMsg != "" {
			v.err.Context = min(originalOffset(v.err.Context, shrinks), len(li.Text()))
		}
	}
	return v
}

// verdictOn is libyamlVerdict on a text without line-start byte order marks.
func verdictOn(li *source.LineIndex) verdict {
	text := li.Text()
	v, line := decodeV3(text)
	colon, colonOK := unexpectedColonInFlow(text)
	if v.err == nil {
		if colonOK && flowCollectionBefore(v.node, li.Line(colon)+1) {
			return verdict{err: &Error{Offset: colon, Msg: msgUnexpectedColon}}
		}
		if w, ok := tabAfterComment(li); ok {
			return w
		}
		return v
	}
	if strings.HasPrefix(v.err.Msg, "did not find expected ',' or ") {
		if fixed, ok := flowQuestionMarks(text); ok {
			return verdictOn(source.NewLineIndex(fixed)) // `[what?]`: a scalar to libyaml 0.2.5
		}
	}
	if v.err.Msg == "found incompatible YAML document" {
		// libyaml 0.2.5 accepts %YAML 1.1 and 1.2; the Go ports only 1.1
		if fixed, ok := yaml12As11(text); ok {
			if w, _ := decodeV3(fixed); w.err == nil || w.err.Msg != v.err.Msg {
				return verdictOn(source.NewLineIndex(fixed))
			}
		}
	}
	pm := locateProblem(li, v.err.Msg, line)
	off, scanner := pm.off, pm.scanner
	v.err.Offset, v.err.Context, v.err.ContextMsg = off, pm.context, pm.contextMsg
	if colonOK && (colon <= off || (li.Line(colon) == li.Line(off) && (!scanner || off == li.LineStart(li.Line(off))+indentOf(text[li.LineStart(li.Line(off)):])))) {
		// before yaml/v3's error, or on the line of a parser error (libyaml's scanner reads ahead while
		// a flow collection's simple key is pending) or when only the line is known
		v.err = &Error{Offset: colon, Msg: msgUnexpectedColon}
		return v
	}
	if v.err.Msg == msgMappingValues {
		at, msg, ok := off, "did not find expected key", false
		if at, ok = quotedKeyAfterValue(li, off); !ok {
			at, msg, ok = tokenAfterMultilineQuote(li, off)
		}
		if ok {
			v.err = &Error{Offset: at, Msg: msg}
			return v
		}
	}
	if !scanner {
		if bad, ok := badCharacterLater(li, off); ok {
			v.err = &Error{Offset: bad, Msg: msgCannotStartToken}
			return v
		}
	}
	if scanner && off > 0 {
		if w, ok := earlierParserError(text, off, v.err.Msg); ok {
			return w
		}
	}
	return v
}

// earlierParserError: the Go ports scan two tokens further ahead than libyaml (for comments), so a
// scanner error at off can hide the error libyaml meets first on an earlier token. The text is parsed
// again cut before the token that failed (then at off, then after its token): an error the cut text shows
// before its own end
// is that earlier error. Parser errors qualify, and libyaml's stale simple key check ("could not find
// expected ':'"), which libyaml runs before it fetches the next token.
func earlierParserError(text []byte, off int, msg string) (verdict, bool) {
	tokenStart := off
	for tokenStart > 0 && !isSpaceByte(text[tokenStart-1]) && text[tokenStart-1] != ',' {
		tokenStart--
	}
	tokenEnd := off
	for tokenEnd < len(text) && !isSpaceByte(text[tokenEnd]) {
		tokenEnd++
	}
	// off is a line's first token when only yaml/v3's line is known: the failing token may lie after it
	cuts := []int{tokenStart}
	if msg == msgStaleKey {
		// libyaml finds a stale required key only when it fetches the token after it: its parser may
		// fail on the line before the key first (yaml/v3 reports the key at once)
		ls := off
		for ls > 0 && text[ls-1] != '\n' {
			ls--
		}
		for ls > 0 && len(bytes.TrimSpace(text[ls:min(off, lineEndAt(text, ls))])) == 0 {
			// v3 names the line after the key's (its end of text): back to the key's line
			ls--
			for ls > 0 && text[ls-1] != '\n' {
				ls--
			}
		}
		if first := ls + indentOf(text[ls:]); first < tokenStart {
			cuts = []int{first, tokenStart}
		}
	}
	for _, c := range []int{off, tokenEnd} {
		if c != cuts[len(cuts)-1] {
			cuts = append(cuts, c)
		}
	}
	for _, c := range cuts {
		cut := source.NewLineIndex(text[:c])
		w, wline := decodeV3(cut.Text())
		if w.err == nil {
			continue
		}
		pm := locateProblem(cut, w.err.Msg, wline)
		o, sc, exact := pm.off, pm.scanner, pm.exact
		if !exact && cut.Line(o) >= cut.Line(lastToken(cut.Text())) {
			continue // only v3's line is known, and it is the cut's last: the error may be at the cut's end
		}
		// libyaml checks stale simple keys when it reaches the next line's first token
		staleKey := w.err.Msg == msgStaleKey && o <= c && firstTokenOfLaterLine(text, c)
		// libyaml's scanner fetches ahead while the line's first token may still be a simple key (up to
		// the end of its line): an earlier error on the same line counts only at a first token that
		// cannot be a key (an indicator), or after a directive (whose scan eats the line break, so the
		// next line starts where simple keys are not allowed)
		firstOnLine := o == cut.LineStart(cut.Line(o))+indentOf(text[cut.LineStart(cut.Line(o)):])
		seen := cut.Line(o) < cut.Line(min(off, c)) || afterDirective(cut, o) ||
			(firstOnLine && o < len(text) && bytes.IndexByte([]byte("-?:,]}"), text[o]) >= 0) ||
			flowIndicatorWithoutKey(cut, o)
		if seen && !sc && firstOnLine && o < len(text) && (text[o] == '{' || text[o] == '[' ||
			(w.err.Msg == msgExpectedDocumentStart && bytes.IndexByte([]byte("-?:,]}#&*!|>'\"%@`"), text[o]) < 0)) {
			// a flow collection or a plain scalar opening its line stays a possible simple key to the
			// line's end, and libyaml reads the next line's first token before it drops the key (never
			// a required one after the root node)
			full := source.NewLineIndex(text)
			if p, _, ok := nextLineBadCharacter(full, cut.Line(o), o, o); ok && full.Line(p) == full.Line(off) && p <= off {
				seen = false
			}
		}
		if (!sc && o <= lastToken(cut.Text()) && seen) || staleKey {
			w.err.Offset, w.err.Context, w.err.ContextMsg = o, pm.context, pm.contextMsg
			return w, true
		}
	}
	return verdict{}, false
}

// flowIndicatorWithoutKey: o is a `:`, `,`, `]` or `}` inside a flow collection, on a line where no
// simple key can be pending before it (none of `{`, `[`, `,` before it on the line: in a flow
// collection, a token after a line break may not be a simple key). libyaml's parser then meets o's
// token without its scanner reading further, so an error on o comes before a later scanner error.
func flowIndicatorWithoutKey(li *source.LineIndex, o int) bool {
	text := li.Text()
	if o >= len(text) || bytes.IndexByte([]byte(":,]}"), text[o]) < 0 || flowDepthAt(text, o) == 0 {
		return false
	}
	start := li.LineStart(li.Line(o))
	return !bytes.ContainsAny(text[start:o], "{[,")
}

// flowDepthAt is how many flow collections are open at off (quoted scalars and comments passed).
func flowDepthAt(text []byte, off int) int {
	depth := 0
	for i := 0; i < off && i < len(text); i++ {
		c := text[i]
		boundary := i == 0 || tokenBoundary(text[i-1]) || text[i-1] == '\n' || text[i-1] == ':'
		switch {
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < off && text[i] != '\n' {
				i++
			}
		case (c == '\'' || c == '"') && boundary:
			for i++; i < off && text[i] != c; i++ {
				if c == '"' && text[i] == '\\' {
					i++
				} else if c == '\'' && text[i] == '\'' && i+1 < len(text) && text[i+1] == '\'' {
					i++
				}
			}
		case (c == '{' || c == '[') && (boundary || depth > 0):
			depth++
		case (c == '}' || c == ']') && depth > 0:
			depth--
		}
	}
	return depth
}

// firstTokenOfLaterLine: only blanks lie between the start of c's line, which is not the first, and c.
func firstTokenOfLaterLine(text []byte, c int) bool {
	i := c
	for i > 0 && (text[i-1] == ' ' || text[i-1] == '\t') {
		i--
	}
	return i > 0 && text[i-1] == '\n'
}

// lineEndAt is the offset of the line break that ends the line at i (or the text's end).
func lineEndAt(text []byte, i int) int {
	if e := bytes.IndexByte(text[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(text)
}

// msgStaleKey is libyaml's error for a required simple key (a block key at the indentation) whose
// line ends without its `:`.
const msgStaleKey = "could not find expected ':'"

const msgCannotStartToken = "found character that cannot start any token"

// badCharacterLater: libyaml's scanner reads ahead to the end of a line (at most 1,024 characters) while
// the line's first token may still be a simple key, so on a line that opens a flow collection at its
// start (`{{ x }}…`, goose's commonest) a character that cannot start a token later on the line fails
// before the parser error at off. It returns that character's offset.
func badCharacterLater(li *source.LineIndex, off int) (int, bool) {
	text := li.Text()
	l := li.Line(off)
	start, end := li.LineStart(l), li.LineEnd(l)
	first := start + indentOf(text[start:end])
	if first >= end || (text[first] != '{' && text[first] != '[') || off < first {
		return 0, false
	}
	end = min(end, first+1024)
	var quote byte
	for i := first; i < end; i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
			continue
		case i > off && (c == '@' || c == '`' || c == '%') && tokenBoundary(text[i-1]):
			return i, true
		case c == '#' && i > first && (text[i-1] == ' ' || text[i-1] == '\t'):
			return nextLineBadToken(li, l, first, off) // a comment ends the line's tokens
		case (c == '\'' || c == '"') && tokenBoundary(text[i-1]):
			quote = c
		}
	}
	if end < li.LineEnd(l) {
		return 0, false
	}
	return nextLineBadToken(li, l, first, off)
}

// isAnchorChar: a character libyaml allows in an anchor or alias name.
func isAnchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// nextLineBadToken is nextLineBadCharacter for a character that cannot start any token.
func nextLineBadToken(li *source.LineIndex, l, first, off int) (int, bool) {
	p, msg, ok := nextLineBadCharacter(li, l, first, off)
	return p, ok && msg == msgCannotStartToken
}

// nextLineBadCharacter: when the flow collection (or plain scalar) that opens line l is still a possible
// simple key at the line's end (it closes on the line and no `:` follows it), libyaml's scanner goes on to the next
// token (blank and comment lines passed) before it drops the key as stale; a character there that
// cannot start a token fails first.
func nextLineBadCharacter(li *source.LineIndex, l, first, off int) (int, string, bool) {
	text := li.Text()
	line := text[li.LineStart(l):li.LineEnd(l)]
	if c := text[first]; c == '{' || c == '[' {
		end, ok := flowNodeEnd(line, first-li.LineStart(l))
		if !ok {
			return 0, "", false
		}
		if rest := bytes.TrimLeft(line[end:], " \t"); len(rest) > 0 && rest[0] == ':' {
			return 0, "", false // the collection is a key: no read-ahead
		}
	} else if valueIndicator(line) >= 0 {
		return 0, "", false // a plain scalar that is a key
	}
	for k := l + 1; k < li.LineCount(); k++ {
		s, e := li.LineStart(k), li.LineEnd(k)
		p := s + skipLineBlanks(text[s:e], 0)
		if p == e || text[p] == '#' {
			continue
		}
		if p > off && (text[p] == '@' || text[p] == '`') {
			return p, msgCannotStartToken, true
		}
		if p > off && (text[p] == '*' || text[p] == '&') && (p+1 == len(text) || !isAnchorChar(text[p+1])) {
			return p, "did not find expected alphabetic or numeric character", true // an empty anchor name
		}
		return 0, "", false
	}
	return 0, "", false
}

func tokenBoundary(prev byte) bool {
	return prev == ' ' || prev == '\t' || prev == '[' || prev == ']' || prev == '{' || prev == '}' || prev == ','
}

// v3Prefix is yaml/v3's "yaml: line N: " before the problem text.
var v3Prefix = regexp.MustCompile(`^yaml: (?:line ([0-9]+): )?`)

// decodeV3 parses the first document with yaml/v3; line is v3's line number of an error (0: none).
func decodeV3(text []byte) (verdict, int) {
	dec := yaml3.NewDecoder(bytes.NewReader(text))
	var n yaml3.Node
	err := dec.Decode(&n)
	if errors.Is(err, io.EOF) {
		return verdict{}, 0
	}
	if err == nil {
		// what follows the first document: nothing, a second document, or an error libyaml meets
		// while looking for the next document's start (still the first document's error for serde_yaml)
		var next yaml3.Node
		err = dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			return verdict{node: &n}, 0
		}
		if err == nil {
			return verdict{node: &n, more: true}, 0
		}
	}
	msg, line := err.Error(), 0
	if m := v3Prefix.FindStringSubmatch(msg); m != nil {
		msg = msg[len(m[0]):]
		line, _ = strconv.Atoi(m[1])
	}
	if strings.HasPrefix(msg, "unknown anchor ") {
		msg = msgUnknownAnchor
	}
	return verdict{err: &Error{Msg: msg}}, line
}

// placeError finds libyaml's problem mark for msg: yaml/v4's mark when it words the same problem, else
// the start of the line yaml/v3 names; and whether the problem is the scanner's (or the reader's).
func placeError(li *source.LineIndex, msg string, v3line int) (int, bool) {
	pm := locateProblem(li, msg, v3line)
	return pm.off, pm.scanner
}

// problemMark is where libyaml reports a problem.
type problemMark struct {
	off     int
	scanner bool // the scanner's (or the reader's) problem, not the parser's
	exact   bool // yaml/v4's mark (else only yaml/v3's line is known)
	// context is libyaml's context mark when contextMsg names one (exact marks only): where the construct
	// the problem is in starts (a quoted scalar's quote, a flow collection's bracket, a simple key)
	context    int
	contextMsg string
}

// locateProblem is placeError with the rest of what libyaml's error says.
func locateProblem(li *source.LineIndex, msg string, v3line int) problemMark {
	l, err := yaml4.NewLoader(bytes.NewReader(li.Text()), yaml4.WithSingleDocument())
	if err == nil {
		var n yaml4.Node
		err = l.Load(&n)
	}
	var le *yaml4.LoadError
	if errors.As(err, &le) && le.Mark.Line > 0 && sameProblem(le, msg) {
		pm := problemMark{off: li.OffsetFromRuneCol(le.Mark.Line-1, max(le.Mark.Column-1, 0)), scanner: le.Stage == yaml4.ScannerStage, exact: true}
		if le.ContextMsg != "" && le.ContextMark.Line > 0 {
			pm.context = li.OffsetFromRuneCol(le.ContextMark.Line-1, max(le.ContextMark.Column-1, 0))
			pm.contextMsg = le.ContextMsg
		}
		return pm
	}
	pm := problemMark{scanner: !parserProblems[msg]}
	if v3line <= 0 {
		return pm
	}
	line := min(v3line-1, li.LineCount()-1)
	start, end := li.LineStart(line), li.LineEnd(line)
	pm.off = start + indentOf(li.Text()[start:end])
	return pm
}

// parserProblems are libyaml's parser errors (parser.c); every other problem is the scanner's or the
// reader's, found as tokens are fetched.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>": true, "did not find expected <document start>": true,
	"did not find expected key": true, "did not find expected node content": true,
	"did not find expected '-' indicator": true, "did not find expected ',' or ']'": true,
	"did not find expected ',' or '}'": true, "found undefined tag handle": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found duplicate %TAG directive": true, msgUnknownAnchor: true,
}

func sameProblem(le *yaml4.LoadError, msg string) bool {
	if msg == msgUnknownAnchor {
		return le.Stage == yaml4.ComposerStage && strings.HasPrefix(le.Message, "unknown anchor ")
	}
	return le.Message == msg
}

// afterDirective: o is the first token of a line that follows a directive line.
func afterDirective(li *source.LineIndex, o int) bool {
	l := li.Line(o)
	if l == 0 || o != li.LineStart(l)+indentOf(li.Text()[li.LineStart(l):li.LineEnd(l)]) {
		return false
	}
	prev := li.Text()[li.LineStart(l-1):li.LineEnd(l-1)]
	return len(prev) > 0 && prev[0] == '%'
}

// lastToken is the offset of the last non-blank byte of text (errors after it are the cut's own).
func lastToken(text []byte) int {
	i := len(text)
	for i > 0 && isSpaceByte(text[i-1]) {
		i--
	}
	return max(i-1, 0)
}

// yaml12Directive is a `%YAML 1.2` directive line.
var yaml12Directive = regexp.MustCompile(`(?m)^%YAML[ \t]+1\.2([ \t#]|$)`)

// yaml12As11 rewrites `%YAML 1.2` directives as 1.1 (same length, so every mark stays).
func yaml12As11(text []byte) ([]byte, bool) {
	locs := yaml12Directive.FindAllIndex(text, -1)
	if locs == nil {
		return nil, false
	}
	out := bytes.Clone(text)
	for _, loc := range locs {
		i := bytes.Index(out[loc[0]:loc[1]], []byte("1.2")) + loc[0]
		out[i+2] = '1'
	}
	return out, true
}

// flowCollectionBefore says whether the composed document holds a flow collection starting on line (1-based)
// or earlier: the text scan of unexpectedColonInFlow can take a bracket inside a multi-line plain scalar
// for a collection, which yaml/v3's composition, accepting the text, tells apart.
func flowCollectionBefore(n *yaml3.Node, line int) bool {
	if n == nil {
		return true // nothing composed to ask: keep the scan's answer
	}
	var walk func(*yaml3.Node) bool
	walk = func(n *yaml3.Node) bool {
		if (n.Kind == yaml3.MappingNode || n.Kind == yaml3.SequenceNode) && n.Style&yaml3.FlowStyle != 0 && n.Line <= line {
			return true
		}
		for _, c := range n.Content {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(n)
}
