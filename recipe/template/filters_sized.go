// Filters whose result can be much larger than their input (indent, replace, join): each is sized
// against the value cap before it is built.

package template

import "strings"

// indentFilter indents every line but the first (unless first=true); blank lines only with blank=true.
func indentFilter(ec *evalCtx, f *Filter, v Value, a *boundArgs) (Value, error) {
	s := a.str(0, "")
	// minijinja's indent(value, width, first, blank, kwargs): a positional argument wins over its keyword
	flag := func(i int, name string) (Value, bool, error) {
		if v, ok := a.value(i); ok {
			return v, true, nil
		}
		return a.kw.get(ec, name)
	}
	w, hasWidth, err := flag(1, "width")
	if err != nil {
		return Value{}, err
	}
	first, _, err := flag(2, "first")
	if err != nil {
		return Value{}, err
	}
	blankArg, _, err := flag(3, "blank")
	if err != nil {
		return Value{}, err
	}
	if err := a.kw.assertAllUsed(); err != nil {
		return Value{}, err
	}
	width := 4
	if hasWidth {
		width = int(min(w.i, 1<<40))
	}
	blank := blankArg.b
	// minijinja's: one trailing line break is dropped, lines split at \n, an empty line is indented only
	// with blank, and the result loses its trailing line break again
	lines := strings.Split(trimLineBreak(s), "\n")
	indented := 0
	for i, l := range lines {
		if (i > 0 || first.b) && (blank || l != "") {
			indented++
		}
	}
	if err := ec.fits(f.R, addSize(len(s), mulSize(indented, width))); err != nil {
		return Value{}, err
	}
	pad := strings.Repeat(" ", width)
	for i, l := range lines {
		if (i > 0 || first.b) && (blank || l != "") {
			lines[i] = pad + l
		}
	}
	// (each line was followed by \n, and the last one's is dropped)
	return withSafety(v, strings.TrimSuffix(strings.Join(lines, "\n"), "\r")), nil
}

// trimLineBreak drops one trailing \n, then one trailing \r.
func trimLineBreak(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}
