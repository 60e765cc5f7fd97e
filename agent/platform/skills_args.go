// Skill argument substitution as goose's skills/arguments.rs does it: $ARGUMENTS, $ARGUMENTS[i] (0-based),
// $1… (1-based) and declared $name placeholders from the shell-split arguments; none → an ARGUMENTS line.

package platform

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

var skillPlaceholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$ARGUMENTS\[(?P<idx>\d+)\]|\$ARGUMENTS\b|\$(?P<pos>\d+)|\$(?P<name>[A-Za-z_][A-Za-z0-9_-]*)`)
})

// ErrUnmatchedQuote is goose's split_command_args error.
var ErrUnmatchedQuote = errors.New("Unmatched quote in command")

// applySkillArguments substitutes args into content; names are the skill's declared arguments.
func applySkillArguments(content, args string, names []string) (string, error) {
	idxGroup, posGroup, nameGroup := skillPlaceholder().SubexpIndex("idx"), skillPlaceholder().SubexpIndex("pos"), skillPlaceholder().SubexpIndex("name")
	declared := func(name string) int {
		for i, n := range names {
			if n == name {
				return i
			}
		}
		return -1
	}
	matches := skillPlaceholder().FindAllStringSubmatchIndex(content, -1)
	resolvable := false
	for _, m := range matches {
		if m[2*nameGroup] < 0 || declared(content[m[2*nameGroup]:m[2*nameGroup+1]]) >= 0 {
			resolvable = true
			break
		}
	}
	if !resolvable {
		return content + "\n\nARGUMENTS: " + args, nil
	}
	tokens, err := splitCommandArgs(args)
	if err != nil {
		return "", err
	}
	nth := func(i int) string {
		if i >= 0 && i < len(tokens) {
			return tokens[i]
		}
		return ""
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(content[last:m[0]])
		last = m[1]
		group := func(g int) (string, bool) {
			if m[2*g] < 0 {
				return "", false
			}
			return content[m[2*g]:m[2*g+1]], true
		}
		if s, ok := group(idxGroup); ok {
			i, err := strconv.Atoi(s)
			if err != nil {
				i = -1
			}
			b.WriteString(nth(i))
		} else if s, ok := group(posGroup); ok {
			p, _ := strconv.Atoi(s)
			b.WriteString(nth(p - 1))
		} else if s, ok := group(nameGroup); ok {
			if i := declared(s); i >= 0 {
				b.WriteString(nth(i))
			} else {
				b.WriteString(content[m[0]:m[1]])
			}
		} else {
			b.WriteString(args)
		}
	}
	b.WriteString(content[last:])
	return b.String(), nil
}

// splitCommandArgs is goose's split_command_args: white space separates, double quotes group, a single
// quote groups only at the start of a word (so "don't" stays one word), quotes are removed.
func splitCommandArgs(input string) ([]string, error) {
	var parts []string
	var cur strings.Builder
	inDouble, inSingle := false, false
	for _, c := range input {
		switch {
		case c == '"' && !inSingle:
			inDouble = !inDouble
		case c == '\'' && !inDouble && (inSingle || cur.Len() == 0):
			inSingle = !inSingle
		case unicode.IsSpace(c) && !inDouble && !inSingle:
			if cur.Len() > 0 {
				parts = append(parts, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(c)
		}
	}
	if inDouble || inSingle {
		return nil, ErrUnmatchedQuote
	}
	if cur.Len() > 0 {
		parts = append(parts, cur.String())
	}
	return parts, nil
}
