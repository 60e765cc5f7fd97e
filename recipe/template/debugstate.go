// debug(): minijinja's `{:#?}` dump of the render state (template, block, visible variables, environment).

package template

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// debugState prints what minijinja 2.24's `debug()` prints for goose's environment: the names of the
// builtin globals, tests and filters, the templates loaded so far, and every visible variable.
func (ec *evalCtx) debugState() string {
	var b strings.Builder
	name := "recipe"
	if ec.tmpl != nil {
		name = ec.tmpl.Name
	}
	fmt.Fprintf(&b, "State {\n    name: %s,\n", rustQuote(name))
	if ec.block != "" {
		fmt.Fprintf(&b, "    current_block: Some(\n        %s,\n    ),\n", rustQuote(ec.block))
	} else {
		b.WriteString("    current_block: None,\n")
	}
	if ec.autoescape {
		b.WriteString("    auto_escape: Html,\n")
	} else {
		b.WriteString("    auto_escape: None,\n")
	}
	vars := map[string]Value{}
	for k, v := range ec.ctx {
		vars[k] = v
	}
	for _, f := range ec.frames {
		f.each(func(k string, v Value) {
			if k != "super" || v.kind != KindFunc { // goose-ls's own frame for super(), not a variable
				vars[k] = v
			}
		})
	}
	writeDebugMap(&b, sortedKeys(vars), func(k string) Value { return vars[k] }, "ctx", 1)
	b.WriteString("    env: Environment {\n        globals: {\n")
	for _, g := range []string{"debug", "dict", "namespace", "range"} {
		fmt.Fprintf(&b, "            %q: function,\n", g)
	}
	b.WriteString("        },\n")
	writeDebugNames(&b, "tests", TestNames())
	writeDebugNames(&b, "filters", FilterNames())
	// minijinja lists the templates its loader loaded (in its hash map's order, which changes from run to
	// run; goose-ls keeps load order), then the recipe, which goose added itself
	var templates []string
	for _, t := range ec.loaded {
		if t.Name != "recipe" && !containsString(templates, t.Name) {
			templates = append(templates, t.Name)
		}
	}
	templates = append(templates, "recipe")
	writeDebugNames(&b, "templates", templates)
	b.WriteString("    },\n}")
	return b.String()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func writeDebugNames(b *strings.Builder, field string, names []string) {
	fmt.Fprintf(b, "        %s: [\n", field)
	for _, n := range names {
		fmt.Fprintf(b, "            %s,\n", rustQuote(n))
	}
	b.WriteString("        ],\n")
}

func writeDebugMap(b *strings.Builder, keys []string, get func(string) Value, field string, level int) {
	pad := strings.Repeat("    ", level)
	if len(keys) == 0 {
		fmt.Fprintf(b, "%s%s: {},\n", pad, field)
		return
	}
	fmt.Fprintf(b, "%s%s: {\n", pad, field)
	for _, k := range keys {
		fmt.Fprintf(b, "%s    %s: ", pad, rustQuote(k))
		writeDebugValue(b, get(k), level+1)
		b.WriteString(",\n")
	}
	fmt.Fprintf(b, "%s},\n", pad)
}

// writeDebugValue is a value's `{:#?}`: containers one item a line, indented four spaces a level.
func writeDebugValue(b *strings.Builder, v Value, level int) {
	if b.Len() > maxPrintedBytes || level > maxValueDepth {
		b.WriteString("...")
		return
	}
	pad := strings.Repeat("    ", level)
	switch v.kind {
	case KindUndefined:
		b.WriteString("undefined")
	case KindString:
		b.WriteString(rustQuote(v.s))
	case KindFloat:
		b.WriteString(formatFloatDebug(v.f))
	case KindSeq:
		if v.iter == iterUnsized {
			b.WriteString("<iterator>")
			return
		}
		if len(v.seq) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for _, it := range v.seq {
			b.WriteString(pad + "    ")
			writeDebugValue(b, it, level+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad + "]")
	case KindMap:
		if v.m.loop != nil {
			b.WriteString(v.m.loop.String())
			return
		}
		if v.m.module != nil {
			b.WriteString(*v.m.module)
			return
		}
		if len(v.m.Keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for _, k := range v.m.Keys {
			b.WriteString(pad + "    ")
			writeDebugValue(b, v.m.keyOf(k), level+1)
			b.WriteString(": ")
			writeDebugValue(b, v.m.get(k), level+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad + "}")
	default:
		b.WriteString(v.String())
	}
}

// rustQuote is Rust's `{:?}` of a string: double quotes, \" \\ \n \r \t and \u{…} for other controls.
func rustQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == 0:
			b.WriteString(`\0`)
		case r != ' ' && !unicode.IsPrint(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Other_Grapheme_Extend):
			// Rust's escape_debug: what is not printable, and grapheme extenders (combining marks)
			b.WriteString(`\u{` + strconv.FormatInt(int64(r), 16) + `}`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
