// Escaping safety through string filters, as minijinja 2.22+ keeps it: a filter that only transforms a
// safe string returns a safe string, and under autoescape `replace`, `join` and a safe `format` string
// escape the unsafe text they mix in and return safe text.

package template

import "strings"

// isSafeString is minijinja's Value::is_safe: a string marked safe (not the silent undefined).
func (v Value) isSafeString() bool { return v.kind == KindString && v.safe }

// withSafety is StringInput::preserve_safety: out, safe when in was a safe string.
func withSafety(in Value, out string) Value {
	if in.isSafeString() {
		return safeString(out)
	}
	return StringValue(out)
}

// escapedText is StringInput::format: a safe string's text as it is, any other text HTML-escaped.
func escapedText(in Value, text string) string {
	if in.isSafeString() {
		return text
	}
	return htmlEscaper.Replace(text)
}

// replaceFilter is minijinja's replace(value, from, to: StringInput): every occurrence; under autoescape,
// when any of the three is safe, the value's and the replacement's text are escaped first (the pattern
// is matched as written) and the result is safe.
func replaceFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	s, old, repl := a.str(0, ""), a.str(1, ""), a.str(2, "")
	from, to := a.vals[1], a.vals[2]
	safetyAware := ec.autoescape && (v.isSafeString() || from.isSafeString() || to.isSafeString())
	if safetyAware {
		s, repl = escapedText(v, s), escapedText(to, repl)
	}
	hits := strings.Count(s, old)
	if err := ec.fits(f.R, addSize(len(s), mulSize(hits, len(repl)))); err != nil {
		return Value{}, err
	}
	out := strings.ReplaceAll(s, old, repl)
	if safetyAware {
		return safeString(out), nil
	}
	return StringValue(out), nil
}

// joinFilter is minijinja's join(value, joiner: Option<StringInput>), sized before it is built. Under
// autoescape a safe joiner, or any safe item, makes the result safe: the other items are then printed
// as autoescaped output prints them, and an unsafe joiner is escaped.
func joinFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	switch v.kind {
	case KindUndefined, KindNone:
		return StringValue(""), nil // minijinja joins nothing without asking the undefined behaviour
	case KindString, KindSeq, KindMap:
	default:
		return Value{}, ec.fail(f.R, "invalid operation: cannot join value of type %s", v.typeName())
	}
	items, err := ec.seqOf(f, v)
	if err != nil {
		return Value{}, err
	}
	sep := a.str(1, "")
	joiner, hasJoiner := a.value(1)
	safe := false
	if ec.autoescape {
		safe = hasJoiner && joiner.isSafeString()
		if !safe {
			for _, it := range items {
				if it.isSafeString() {
					safe = true
					sep = escapedText(joiner, sep)
					break
				}
			}
		}
	}
	total := mulSize(max(len(items)-1, 0), len(sep))
	parts := make([]string, len(items))
	for i, it := range items {
		if safe && ec.strictUndefined(it) { // printed as output prints it: strict mode refuses undefined
			return Value{}, ec.fail(f.R, "undefined value")
		}
		if parts[i], err = ec.toString(f.R, it); err != nil {
			return Value{}, err
		}
		if safe {
			parts[i] = escapedText(it, parts[i])
		}
		if total = addSize(total, len(parts[i])); total > ec.b.maxBytes {
			break
		}
	}
	if err := ec.fits(f.R, total); err != nil {
		return Value{}, err
	}
	if safe {
		return safeString(strings.Join(parts, sep)), nil
	}
	return StringValue(strings.Join(parts, sep)), nil
}
