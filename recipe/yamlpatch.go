// Recovery for the commonest template mistake: a plain YAML value that starts with `{{`. goose refuses
// it; goose-ls reports it at the value and parses on with the value replaced, so nothing else is hidden.

package recipe

import (
	"bytes"
	"errors"
	"regexp"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// templateValueRE finds `key: {{…` or `- {{…` at the start of a line's value.
var templateValueRE = regexp.MustCompile(`^(\s*(?:-\s+)?(?:[^\s#'"{][^#]*?:\s+|-\s+))(\{\{.*)$`)

const maxPatches = 200

// parseYAML parses text, patching unquoted `{{`-leading values (each reported) until it parses or fails
// for another reason.
func (f *File) parseYAML(text string, mapBack func(int) int) (*yamltree.Document, error) {
	// the file's own text and line index when goose parses the file as it is (the usual case); a copy
	// before the first patch, which writes into it, and before every patch when the document's cache
	// may keep the text parsed last (yamltree.ParseCached)
	cache := f.cache.yamlCache()
	buf, li, shared := f.Text, f.Lines, true
	if f.BOM != 0 || len(text) != len(f.Text) || text != string(f.Text) {
		buf, shared = []byte(text), false
		li = source.NewLineIndex(buf)
	}
	for i := 0; ; i++ {
		f.yamlPatched = i > 0
		if i > 0 {
			li = source.NewLineIndex(buf)
		}
		doc, err := yamltree.ParseCached(li, cache)
		if i >= maxPatches {
			return doc, err
		}
		if err == nil {
			// libyaml accepts the text; where goccy/go-yaml refused it (the tree is degraded), a
			// `{{ x }}` value is still worth its own message (serde reads it as a map)
			if doc.Refused == nil {
				return doc, nil
			}
			if shared || cache != nil {
				buf, shared = bytes.Clone(buf), false
			}
			if !f.patchTemplateValue(buf, li, doc.Refused, true, mapBack) {
				return doc, nil
			}
			continue
		}
		var ye *yamltree.Error
		if !errors.As(err, &ye) {
			return nil, err
		}
		if shared || cache != nil {
			buf, shared = bytes.Clone(buf), false
		}
		if !f.patchTemplateValue(buf, li, ye, false, mapBack) {
			return nil, err
		}
	}
}

// patchTemplateValue reports and neutralises the `{{`-leading value on the error's line (or the line
// before, where YAML notices late), with libyaml's problem text. It returns false when no such value is
// there, or when the YAML parses (yamlOK) and the value is not one `{{…}}` (goose reports nothing there).
func (f *File) patchTemplateValue(buf []byte, li *source.LineIndex, ye *yamltree.Error, yamlOK bool, mapBack func(int) int) bool {
	errLine := li.Line(ye.Offset)
	for _, l := range []int{errLine, errLine - 1} {
		if l < 0 {
			continue
		}
		start, end := li.LineStart(l), li.LineEnd(l)
		m := templateValueRE.FindSubmatchIndex(buf[start:end])
		if m == nil {
			continue
		}
		vs, ve := start+m[4], end
		// a comment after the last `}}` is not part of the value
		if last := bytes.LastIndex(buf[vs:ve], []byte("}}")); last >= 0 {
			if c := bytes.Index(buf[vs+last+2:ve], []byte(" #")); c >= 0 {
				ve = vs + last + 2 + c
			}
		}
		for ve > vs && (buf[ve-1] == ' ' || buf[ve-1] == '\t') {
			ve--
		}
		value := string(buf[vs:ve])
		r := Range{Start: mapBack(vs), End: mapBack(ve)}
		if r.End < r.Start && ve > vs {
			r.End = mapBack(ve-1) + 1 // the end of a value rendered from a block maps past the block
		}
		key := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(string(buf[start:start+m[3]])), ":"))
		asMap := strings.HasPrefix(value, "{{") && strings.HasSuffix(value, "}}") && strings.Count(value, "{{") == 1
		if asMap && !yamlOK && l == errLine {
			// libyaml fails on the value's own line (`{{|}}`, `{{[f}}`; a `{{ x }}` alone parses): a
			// syntax error, not a map
			asMap = false
		}
		if yamlOK && !asMap {
			return false
		}
		if asMap {
			prefix := ""
			if key != "" && !strings.HasPrefix(key, "-") {
				prefix = key + ": "
			}
			f.errorf(r, CodeInvalidType, "%sinvalid type: map, expected a string (a value that starts with `{{` is read by YAML as a map: quote it, e.g. \"%s\")", prefix, value)
		} else {
			f.errorf(r, CodeYAMLSyntax, "%s (a value that starts with `{{` must be quoted, e.g. \"%s\")", ye.Msg, value)
		}
		// same length, so every offset after it stays valid
		buf[vs] = '\''
		for i := vs + 1; i < ve-1; i++ {
			buf[i] = 'x'
		}
		buf[ve-1] = '\''
		return true
	}
	return false
}
