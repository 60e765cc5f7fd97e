// Case mapping as Rust's standard library does it for minijinja's upper, lower, title and capitalize
// filters: full Unicode mappings (ß → SS, İ → i̇, ﬀ → FF) and, for whole strings, the final-sigma rule.

package template

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// asciiOnly reports s has no byte past ASCII (the mappings are then strings.ToUpper/ToLower's).
func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// rustUpper is str::to_uppercase.
func rustUpper(s string) string {
	if asciiOnly(s) {
		return strings.ToUpper(s)
	}
	return cases.Upper(language.Und).String(s)
}

// rustLower is str::to_lowercase (Σ at the end of a word becomes ς).
func rustLower(s string) string {
	if asciiOnly(s) {
		return strings.ToLower(s)
	}
	return cases.Lower(language.Und).String(s)
}

// rustCharUpper and rustCharLower are char::to_uppercase and char::to_lowercase: one character, no context.
func rustCharUpper(r rune) string {
	if r < utf8.RuneSelf {
		return string(unicode.ToUpper(r))
	}
	return cases.Upper(language.Und).String(string(r))
}

func rustCharLower(r rune) string {
	if r < utf8.RuneSelf {
		return string(unicode.ToLower(r))
	}
	return cases.Lower(language.Und, cases.HandleFinalSigma(false)).String(string(r))
}

// titleCase is minijinja's title: a character after ASCII punctuation or white space (or first) upper
// case, every other lower case.
func titleCase(s string) string {
	var b strings.Builder
	capNext := true
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && unicode.IsPunct(r) || r < utf8.RuneSelf && unicode.IsSymbol(r) || unicode.IsSpace(r):
			b.WriteRune(r)
			capNext = true
		case capNext:
			b.WriteString(rustCharUpper(r))
			capNext = false
		default:
			b.WriteString(rustCharLower(r))
		}
	}
	return b.String()
}

// capitalize is minijinja's capitalize: the first character upper case, the rest as str::to_lowercase.
func capitalize(s string) string {
	for i, r := range s {
		return rustCharUpper(r) + rustLower(s[i+utf8.RuneLen(r):])
	}
	return s
}

// isLowercase and isUppercase are Rust's char::is_lowercase / is_uppercase: Unicode's Lowercase and
// Uppercase properties (letters plus Other_Lowercase such as ª and ʰ, Other_Uppercase such as Ⅰ and Ⓐ).
func isLowercase(r rune) bool { return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r) }

func isUppercase(r rune) bool { return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) }
