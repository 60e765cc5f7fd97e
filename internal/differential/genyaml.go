// YAML mutations of corpus recipes: every kind of input where libyaml's verdict is easy to miss.

package differential

import (
	"strings"
)

// yamlMutation rewrites one line (or the text around it) of a recipe.
type yamlMutation struct {
	kind  string
	apply func(g *tmplGen, lines []string, at int) []string
}

func insertAt(lines []string, at int, add ...string) []string {
	out := append([]string{}, lines[:at]...)
	out = append(out, add...)
	return append(out, lines[at:]...)
}

// indentOf is the leading blank part of line.
func indentOf(line string) string { return line[:len(line)-len(strings.TrimLeft(line, " \t"))] }

// insertInLine puts s at a random point of line at.
func insertInLine(g *tmplGen, lines []string, at int, s string) []string {
	l := lines[at]
	i := 0
	if len(l) > 0 {
		i = g.r.IntN(len(l) + 1)
		for i < len(l) && !isRuneStart(l[i]) {
			i++
		}
	}
	lines[at] = l[:i] + s + l[i:]
	return lines
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

var yamlMutations = []yamlMutation{
	{"control character", func(g *tmplGen, lines []string, at int) []string {
		return insertInLine(g, lines, at, g.pick([]string{"\x01", "\x7f", "\x1b", "\x00", "\x0b", "\x0c", "\u0080", "\ufffe", "\x08"}))
	}},
	{"NEL/LS/PS line break", func(g *tmplGen, lines []string, at int) []string {
		br := g.pick([]string{"\u0085", "\u2028", "\u2029"})
		if g.chance(0.5) {
			return insertInLine(g, lines, at, br)
		}
		lines[at] = lines[at] + br + indentOf(lines[at]) + "k2: v"
		return lines
	}},
	{"long simple key", func(g *tmplGen, lines []string, at int) []string {
		n := g.pick([]string{"1020", "1024", "1025", "1030", "2000"})
		size := map[string]int{"1020": 1020, "1024": 1024, "1025": 1025, "1030": 1030, "2000": 2000}[n]
		key := strings.Repeat("k", size-len(indentOf(lines[at])))
		if g.chance(0.3) {
			key = "'" + key[2:] + "'"
		}
		return insertAt(lines, at, indentOf(lines[at])+key+": v")
	}},
	{"undefined anchor", func(g *tmplGen, lines []string, at int) []string {
		return insertAt(lines, at, g.pick([]string{"x_alias: *nope", "x_alias: &a 1", "x_a: &a 1\nx_b: *a", "x_l: [*b, &b 1]", "x_m: *"}))
	}},
	{"bad anchor name", func(g *tmplGen, lines []string, at int) []string {
		return insertAt(lines, at, g.pick([]string{"x_a: & 1", "x_a: &a,b 1", "x_a: &{ 1", "x_a: &é 1", "x_a: &a] 1", "x_a: &-a 1", "x_a: *a]", "x_a: &\n"}))
	}},
	{"directive", func(g *tmplGen, lines []string, _ int) []string {
		d := g.pick([]string{"%YAML 1.1\n---", "%YAML 1.2\n---", "%YAML 2.0\n---", "%YAML 1.1", "%TAG ! tag:x.org,2000:\n---",
			"%TAG !e! tag:e,2000:\n---", "%YAML 1.1\n%YAML 1.1\n---", "%FOO bar\n---", "%YAML\n---", "%TAG !\n---", "---", "--- # c", "...\n"})
		return insertAt(lines, 0, d)
	}},
	{"flow collection as a key", func(g *tmplGen, lines []string, at int) []string {
		return insertAt(lines, at, g.pick([]string{"{}: x", "[a]: b", "? {}\n: x", "{a: 1}: b", "? [a, b]\n: c", "? |\n  lit\n: v"}))
	}},
	{"character that cannot start a token", func(g *tmplGen, lines []string, at int) []string {
		c := g.pick([]string{"@", "`", "%", "\t", "@x", "`x`"})
		l := lines[at]
		if i := strings.Index(l, ": "); i >= 0 && g.chance(0.7) {
			lines[at] = l[:i+2] + c + l[i+2:]
			return lines
		}
		lines[at] = indentOf(l) + c + strings.TrimLeft(l, " \t")
		return lines
	}},
	{"block indicator", func(g *tmplGen, lines []string, at int) []string {
		ind := g.pick([]string{"|+-", "|-+", "|0", ">10", "|2+", "|+2", "|-", ">+", "|1", "|9", "| x", "|#c", "| #c", ">-2", "||"})
		return insertAt(lines, at, indentOf(lines[at])+"x_block: "+ind, indentOf(lines[at])+"  text", indentOf(lines[at])+"   more")
	}},
	{"more-indented key after a value", func(g *tmplGen, lines []string, at int) []string {
		in := indentOf(lines[at])
		return insertAt(lines, at, in+"x_k: value", in+g.pick([]string{"  ", " ", "    ", "\t"})+g.pick([]string{"k2: v", "- a", "more text", "k3:"}))
	}},
	{"tab indentation", func(g *tmplGen, lines []string, at int) []string {
		lines[at] = "\t" + lines[at]
		return lines
	}},
	{"unclosed quote or flow", func(g *tmplGen, lines []string, at int) []string {
		return insertAt(lines, at, indentOf(lines[at])+g.pick([]string{`x_q: "abc`, "x_q: 'abc", "x_q: [a, b", "x_q: {a: 1", `x_q: "a\q"`, "x_q: 'a''", "x_q: [a, ]]", "x_q: {a: b}}"}))
	}},
	{"second document", func(g *tmplGen, lines []string, _ int) []string {
		return append(lines, g.pick([]string{"---", "---\nother: 1", "...", "...\n---\n", "--- [", "---\n..."}))
	}},
	{"colon and comment spacing", func(g *tmplGen, lines []string, at int) []string {
		l := lines[at]
		switch g.r.IntN(4) {
		case 0:
			lines[at] = strings.Replace(l, ": ", ":", 1)
		case 1:
			lines[at] = strings.Replace(l, ": ", " : ", 1)
		case 2:
			lines[at] = l + g.pick([]string{" #c", "#c", " # c: d", " - x", ": x", " &a", " !!str"})
		default:
			lines[at] = strings.Replace(l, ":", "", 1)
		}
		return lines
	}},
	{"indentation shift", func(g *tmplGen, lines []string, at int) []string {
		if g.chance(0.5) {
			lines[at] = " " + lines[at]
		} else {
			lines[at] = strings.TrimPrefix(lines[at], " ")
		}
		return lines
	}},
	{"sequence at mapping level", func(g *tmplGen, lines []string, at int) []string {
		return insertAt(lines, at, indentOf(lines[at])+g.pick([]string{"- item", "-", "-x", "? key", "? ", "! x", "!!map x", "!<tag> x: y"}))
	}},
	{"delete or duplicate a line", func(g *tmplGen, lines []string, at int) []string {
		if g.chance(0.5) {
			return append(lines[:at:at], lines[at+1:]...)
		}
		return insertAt(lines, at, lines[at])
	}},
	{"BOM or special space", func(g *tmplGen, lines []string, at int) []string {
		return insertInLine(g, lines, at, g.pick([]string{"\ufeff", "\u00a0", "\u200b", "\r", "\r\n"}))
	}},
}

// mutateYAML applies one to three mutations to a corpus recipe; it returns the text and the kinds applied.
func (g *tmplGen) mutateYAML(recipe string) (string, []string) {
	lines := strings.Split(recipe, "\n")
	var kinds []string
	for n := 1 + g.r.IntN(2); n > 0; n-- {
		m := yamlMutations[g.r.IntN(len(yamlMutations))]
		at := g.r.IntN(len(lines))
		lines = m.apply(g, lines, at)
		kinds = append(kinds, m.kind)
		if len(lines) == 0 {
			lines = []string{""}
		}
	}
	return strings.Join(lines, "\n"), kinds
}
