// Printing values: template output (String) and minijinja's repr inside lists and maps, bounded.

package template

import (
	"strconv"
	"strings"
)

// String renders the value as template output does.
func (v Value) String() string {
	switch v.kind {
	case KindUndefined:
		return ""
	case KindNone:
		return "None" // minijinja 2.22+ prints none and booleans as Jinja2 does
	case KindBool:
		if v.b {
			return "True"
		}
		return "False"
	case KindInt:
		if v.wide != nil {
			return v.wide.String()
		}
		return strconv.FormatInt(v.i, 10)
	case KindFloat:
		return formatFloat(v.f)
	case KindString:
		return v.s
	case KindSeq, KindMap:
		return v.reprString(maxPrintedBytes)
	case KindInvalid:
		return "<invalid value: " + v.s + ">"
	}
	return "function" // how minijinja prints a function value (`{{ range }}`)
}

// maxPrintedBytes bounds the text of a printed container outside an evaluation (the evaluator checks
// its own, smaller, cap).
const maxPrintedBytes = 4 << 20

// reprString prints v as minijinja's repr, stopping after limit bytes and maxValueDepth levels (a
// namespace can hold itself).
func (v Value) reprString(limit int) string {
	var b strings.Builder
	v.repr(&b, 0, limit)
	return b.String()
}

func (v Value) repr(b *strings.Builder, depth, limit int) {
	if b.Len() > limit {
		return
	}
	if depth > maxValueDepth {
		b.WriteString("...")
		return
	}
	switch v.kind {
	case KindString:
		b.WriteString(rustQuote(v.s)) // Rust's Debug of a string
	case KindUndefined:
		b.WriteString("undefined") // minijinja's repr of undefined inside a list or map
	case KindFloat:
		b.WriteString(formatFloatDebug(v.f))
	case KindSeq:
		if v.iter == iterUnsized {
			b.WriteString("<iterator>")
			return
		}
		b.WriteByte('[')
		for i, it := range v.seq {
			if i > 0 {
				b.WriteString(", ")
			}
			it.repr(b, depth+1, limit)
			if b.Len() > limit {
				return
			}
		}
		b.WriteByte(']')
	case KindMap:
		if v.m.module != nil {
			b.WriteString(*v.m.module)
			return
		}
		if v.m.loop != nil {
			b.WriteString(v.m.loop.String())
			return
		}
		b.WriteByte('{')
		for i, k := range v.m.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			v.m.keyOf(k).repr(b, depth+1, limit)
			b.WriteString(": ")
			mv, _ := v.m.Get(k)
			mv.repr(b, depth+1, limit)
			if b.Len() > limit {
				return
			}
		}
		b.WriteByte('}')
	default:
		b.WriteString(v.String())
	}
}
