// Filters whose result can be much larger than their input (indent, replace, join): each is sized
// against the value cap before it is built.

package template

import "strings"

// indentFilter indents every line but the first (unless first=true); blank lines only with blank=true.
func indentFilter(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
	s, err := ec.str(f, v)
	if err != nil {
		return Value{}, err
	}
	if w, ok := arg(args, kw, 0, "width"); ok && (w.kind == KindString || w.kind == KindInt && w.i < 0) {
		// minijinja 2.20's width is a number of spaces (usize), never a text
		return Value{}, ec.fail(f.R, "invalid operation: cannot convert %s to usize", w.typeName())
	}
	width := max(0, intArg(args, kw, 0, "width", 4))
	first, blank := boolArg(args, kw, 1, "first"), boolArg(args, kw, 2, "blank")
	// minijinja's: one trailing line break is dropped, lines split at \n, an empty line is indented only
	// with blank, and the result loses its trailing line break again
	lines := strings.Split(trimLineBreak(s), "\n")
	indented := 0
	for i, l := range lines {
		if (i > 0 || first) && (blank || l != "") {
			indented++
		}
	}
	if err := ec.fits(f.R, addSize(len(s), mulSize(indented, width))); err != nil {
		return Value{}, err
	}
	pad := strings.Repeat(" ", width)
	for i, l := range lines {
		if (i > 0 || first) && (blank || l != "") {
			lines[i] = pad + l
		}
	}
	// (each line was followed by \n, and the last one's is dropped)
	return StringValue(strings.TrimSuffix(strings.Join(lines, "\n"), "\r")), nil
}

// trimLineBreak drops one trailing \n, then one trailing \r.
func trimLineBreak(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// replaceFilter is `replace(old, new[, count])`, sized before it is built.
func replaceFilter(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
	s, err := ec.str(f, v)
	if err != nil {
		return Value{}, err
	}
	old, repl := strArg(args, kw, 0, "old", ""), strArg(args, kw, 1, "new", "")
	n := intArg(args, kw, 2, "count", -1)
	hits := strings.Count(s, old)
	if n >= 0 && n < hits {
		hits = n
	}
	if err := ec.fits(f.R, addSize(len(s), mulSize(hits, len(repl)))); err != nil {
		return Value{}, err
	}
	return StringValue(strings.Replace(s, old, repl, n)), nil
}

// joinFilter is `join(d)`, sized before it is built.
func joinFilter(ec *evalCtx, f *Filter, v Value, args []Value, kw []kwValue) (Value, error) {
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
	sep := strArg(args, kw, 0, "d", "")
	total := mulSize(max(len(items)-1, 0), len(sep))
	parts := make([]string, len(items))
	for i, it := range items {
		if parts[i], err = ec.toString(f.R, it); err != nil {
			return Value{}, err
		}
		if total = addSize(total, len(parts[i])); total > ec.b.maxBytes {
			break
		}
	}
	if err := ec.fits(f.R, total); err != nil {
		return Value{}, err
	}
	return StringValue(strings.Join(parts, sep)), nil
}
