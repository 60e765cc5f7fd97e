// Marker tests: txtar archives in testdata/markers hold recipes annotated in YAML comments (or, for JSON,
// in a `NAME.markers` section of `LINE: @marker(...)` lines). The runner opens every recipe in the real
// server over JSON-RPC and checks each marker:
//
//	#@diag(re, CODE)          a diagnostic CODE covering the first match of re on this line
//	                          (every diagnostic of the file must be annotated)
//	#@complete(re, label...)  completion at the end of re's match offers every label
//	#@hover(re, text)         hover at re's match contains text
//	#@def(re, text)           definition from re's match lands on a range whose text is text
//	#@refs(re, n)             references (with the declaration) from re's match: n locations
//	#@fix(CODE, golden)       the first quick fix for CODE on this line turns the file into section golden
//	#@rename(re, name, golden) renaming at re's match turns the file into section golden
//	#@highlight(re, n)        document highlights from re's match: n ranges
//	#@link(re, suffix)        a document link covers re's match and targets a path ending in suffix
//	#@token(re, type)         a semantic token of the legend type starts at re's match
//	#@symbol(name)            the outline has a symbol (at any depth) named name
package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	lspuri "go.lsp.dev/uri"
	"golang.org/x/tools/txtar"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
	"github.com/goose-ls/goose-ls/recipe/source"
)

type marker struct {
	line int // zero-based
	name string
	args []string
}

var markerRE = regexp.MustCompile(`@(\w+)\(((?:[^()"]|"(?:[^"\\]|\\.)*")*)\)`)

// parseArgs splits `"a", b, "c, d"` into a, b, c, d (quoted args are Go strings).
func parseArgs(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := 1
			for end < len(s) && (s[end] != '"' || s[end-1] == '\\') {
				end++
			}
			v, err := strconv.Unquote(s[:end+1])
			if err != nil {
				v = s[1:end]
			}
			out = append(out, v)
			s = strings.TrimPrefix(strings.TrimSpace(s[end+1:]), ",")
			continue
		}
		arg, rest, _ := strings.Cut(s, ",")
		out = append(out, strings.TrimSpace(arg))
		s = rest
	}
	return out
}

func markersOf(text, sidecar string) []marker {
	var out []marker
	if sidecar != "" {
		for _, l := range strings.Split(sidecar, "\n") {
			n, rest, ok := strings.Cut(l, ":")
			line, err := strconv.Atoi(strings.TrimSpace(n))
			if !ok || err != nil {
				continue
			}
			for _, m := range markerRE.FindAllStringSubmatch(rest, -1) {
				out = append(out, marker{line: line - 1, name: m[1], args: parseArgs(m[2])})
			}
		}
		return out
	}
	for i, l := range strings.Split(text, "\n") {
		c := strings.Index(l, "#@")
		if c < 0 {
			continue
		}
		for _, m := range markerRE.FindAllStringSubmatch(l[c:], -1) {
			out = append(out, marker{line: i, name: m[1], args: parseArgs(m[2])})
		}
	}
	return out
}

// matchRange finds re's first match on line (excluding the marker comment) as a byte range.
func matchRange(t *testing.T, text string, li *source.LineIndex, line int, re string) source.Range {
	t.Helper()
	start, end := li.LineStart(line), li.LineEnd(line)
	content := text[start:end]
	if c := strings.Index(content, "#@"); c >= 0 {
		content = content[:c]
	}
	loc := regexp.MustCompile(re).FindStringIndex(content)
	if loc == nil {
		t.Fatalf("line %d: %q does not match %q", line+1, re, content)
	}
	return source.Range{Start: start + loc[0], End: start + loc[1]}
}

func pos(li *source.LineIndex, off int) map[string]any {
	p := li.UTF16Pos(off)
	return map[string]any{"line": p.Line, "character": p.Col}
}

func applyEdits(text string, edits []protocol.TextEdit) string {
	li := source.NewLineIndex([]byte(text))
	type e struct {
		s, e int
		t    string
	}
	var es []e
	for _, ed := range edits {
		es = append(es, e{li.OffsetFromUTF16(int(ed.Range.Start.Line), int(ed.Range.Start.Character)), li.OffsetFromUTF16(int(ed.Range.End.Line), int(ed.Range.End.Character)), ed.NewText})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].s > es[j].s })
	for _, x := range es {
		text = text[:x.s] + x.t + text[x.e:]
	}
	return text
}

type docEdit struct {
	DocumentChanges []struct {
		Edits []protocol.TextEdit `json:"edits"`
	} `json:"documentChanges"`
}

func (d docEdit) edits() []protocol.TextEdit {
	var out []protocol.TextEdit
	for _, dc := range d.DocumentChanges {
		out = append(out, dc.Edits...)
	}
	return out
}

func TestMarkers(t *testing.T) {
	archives, _ := filepath.Glob("testdata/markers/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no marker archives")
	}
	for _, a := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(a), ".txtar"), func(t *testing.T) { runArchive(t, a) })
	}
}

func runArchive(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sections := map[string]string{}
	for _, f := range ar.Files {
		sections[f.Name] = string(f.Data)
		if strings.HasSuffix(f.Name, ".markers") || strings.HasSuffix(f.Name, ".golden") {
			continue
		}
		p := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := lsptest.New(t)
	c.Initialize(nil)
	for _, f := range ar.Files {
		ext := filepath.Ext(f.Name)
		if ext != ".yaml" && ext != ".json" || strings.HasSuffix(f.Name, ".golden") {
			continue
		}
		text := string(f.Data)
		u := protocol.DocumentURI(lspuri.File(filepath.Join(dir, f.Name)))
		c.Open(u, strings.TrimPrefix(ext, "."), text)
		ms := markersOf(text, sections[f.Name+".markers"])
		if len(ms) == 0 {
			continue
		}
		checkFile(t, c, u, f.Name, text, ms, sections)
	}
}

func checkFile(t *testing.T, c *lsptest.Client, u protocol.DocumentURI, name, text string, ms []marker, sections map[string]string) {
	li := source.NewLineIndex([]byte(text))
	td := map[string]any{"uri": u}
	diags := c.Diagnostics(u, 1)
	var want []string
	for _, m := range ms {
		where := fmt.Sprintf("%s:%d @%s%q", name, m.line+1, m.name, m.args)
		switch m.name {
		case "diag":
			r := matchRange(t, text, li, m.line, m.args[0])
			s, e := li.UTF16Pos(r.Start), li.UTF16Pos(r.End)
			want = append(want, fmt.Sprintf("%s %d:%d-%d:%d", m.args[1], s.Line, s.Col, e.Line, e.Col))
		case "complete":
			r := matchRange(t, text, li, m.line, m.args[0])
			var list struct {
				Items []struct{ Label string } `json:"items"`
			}
			if err := c.Call("textDocument/completion", map[string]any{"textDocument": td, "position": pos(li, r.End)}, &list); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			got := map[string]bool{}
			for _, it := range list.Items {
				got[it.Label] = true
			}
			for _, l := range m.args[1:] {
				if !got[l] {
					t.Errorf("%s: completion lacks %q (got %v)", where, l, got)
				}
			}
		case "hover":
			r := matchRange(t, text, li, m.line, m.args[0])
			var h struct {
				Contents struct{ Value string } `json:"contents"`
			}
			if err := c.Call("textDocument/hover", map[string]any{"textDocument": td, "position": pos(li, r.Start)}, &h); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if !strings.Contains(h.Contents.Value, m.args[1]) {
				t.Errorf("%s: hover %q lacks %q", where, h.Contents.Value, m.args[1])
			}
		case "def":
			r := matchRange(t, text, li, m.line, m.args[0])
			var locs []protocol.Location
			if err := c.Call("textDocument/definition", map[string]any{"textDocument": td, "position": pos(li, r.Start)}, &locs); err != nil || len(locs) != 1 {
				t.Fatalf("%s: definition %v %v", where, locs, err)
			}
			s := li.OffsetFromUTF16(int(locs[0].Range.Start.Line), int(locs[0].Range.Start.Character))
			e := li.OffsetFromUTF16(int(locs[0].Range.End.Line), int(locs[0].Range.End.Character))
			if got := text[s:e]; got != m.args[1] {
				t.Errorf("%s: definition lands on %q", where, got)
			}
		case "refs":
			r := matchRange(t, text, li, m.line, m.args[0])
			var locs []protocol.Location
			if err := c.Call("textDocument/references", map[string]any{"textDocument": td, "position": pos(li, r.Start), "context": map[string]any{"includeDeclaration": true}}, &locs); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if n, _ := strconv.Atoi(m.args[1]); len(locs) != n {
				t.Errorf("%s: %d references, want %s", where, len(locs), m.args[1])
			}
		case "fix":
			var target *protocol.Diagnostic
			for i, d := range diags {
				if d.Code == m.args[0] && int(d.Range.Start.Line) == m.line {
					target = &diags[i]
				}
			}
			if target == nil {
				t.Fatalf("%s: no %s diagnostic on this line", where, m.args[0])
			}
			var actions []struct {
				Edit docEdit `json:"edit"`
			}
			if err := c.Call("textDocument/codeAction", map[string]any{"textDocument": td, "range": target.Range, "context": map[string]any{"diagnostics": []any{target}}}, &actions); err != nil || len(actions) == 0 {
				t.Fatalf("%s: code actions %v %v", where, actions, err)
			}
			if got := applyEdits(text, actions[0].Edit.edits()); got != sections[m.args[1]] {
				t.Errorf("%s: fixed file differs from %s:\n%s", where, m.args[1], got)
			}
		case "rename":
			r := matchRange(t, text, li, m.line, m.args[0])
			var ed docEdit
			if err := c.Call("textDocument/rename", map[string]any{"textDocument": td, "position": pos(li, r.Start), "newName": m.args[1]}, &ed); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if got := applyEdits(text, ed.edits()); got != sections[m.args[2]] {
				t.Errorf("%s: renamed file differs from %s:\n%s", where, m.args[2], got)
			}
		case "highlight":
			r := matchRange(t, text, li, m.line, m.args[0])
			var hs []protocol.DocumentHighlight
			if err := c.Call("textDocument/documentHighlight", map[string]any{"textDocument": td, "position": pos(li, r.Start)}, &hs); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if n, _ := strconv.Atoi(m.args[1]); len(hs) != n {
				t.Errorf("%s: %d highlights, want %s", where, len(hs), m.args[1])
			}
		case "link":
			r := matchRange(t, text, li, m.line, m.args[0])
			var links []protocol.DocumentLink
			if err := c.Call("textDocument/documentLink", map[string]any{"textDocument": td}, &links); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			found := false
			for _, l := range links {
				s := li.OffsetFromUTF16(int(l.Range.Start.Line), int(l.Range.Start.Character))
				e := li.OffsetFromUTF16(int(l.Range.End.Line), int(l.Range.End.Character))
				found = found || (s <= r.Start && r.End <= e && strings.HasSuffix(string(l.Target), m.args[1]))
			}
			if !found {
				t.Errorf("%s: no link over the match to %s in %+v", where, m.args[1], links)
			}
		case "token":
			r := matchRange(t, text, li, m.line, m.args[0])
			var toks struct {
				Data []uint32 `json:"data"`
			}
			if err := c.Call("textDocument/semanticTokens/full", map[string]any{"textDocument": td}, &toks); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			legend := map[string]uint32{"variable": 0, "function": 1, "keyword": 2, "comment": 3, "macro": 4}
			want := li.UTF16Pos(r.Start)
			line, char, found := 0, 0, false
			for i := 0; i+4 < len(toks.Data); i += 5 {
				if toks.Data[i] > 0 {
					char = 0
				}
				line += int(toks.Data[i])
				char += int(toks.Data[i+1])
				found = found || (line == want.Line && char == want.Col && toks.Data[i+3] == legend[m.args[1]])
			}
			if !found {
				t.Errorf("%s: no %s token at %d:%d", where, m.args[1], want.Line, want.Col)
			}
		case "symbol":
			var syms []map[string]any
			if err := c.Call("textDocument/documentSymbol", map[string]any{"textDocument": td}, &syms); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			var names func([]any) bool
			names = func(list []any) bool {
				for _, x := range list {
					sm := x.(map[string]any)
					if sm["name"] == m.args[0] {
						return true
					}
					if ch, ok := sm["children"].([]any); ok && names(ch) {
						return true
					}
				}
				return false
			}
			all := make([]any, len(syms))
			for i := range syms {
				all[i] = syms[i]
			}
			if !names(all) {
				t.Errorf("%s: no symbol %q", where, m.args[0])
			}
		default:
			t.Fatalf("%s: unknown marker", where)
		}
	}
	got := lsptest.Codes(diags)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s diagnostics:\n got %v\nwant %v", name, got, want)
	}
}
