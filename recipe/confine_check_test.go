// recipe.Check on hostile sub-recipe paths, extends/include names and response-schema `$ref`s: each gets
// its diagnostic, nothing hangs, and nothing of a refused or non-recipe file reaches a diagnostic or a link.

//go:build linux

package recipe_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe"
)

type confineCase struct {
	name  string
	src   string
	roots []string // nil: the recipe's folder
	want  []string // every diagnostic, "CODE L:C-L:C"
	msg   string   // a substring of one diagnostic's message
	leaks bool     // the case reads the marker file on purpose (a trusted root)
}

func runConfineCases(t *testing.T, h hostileTree, cases []confineCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := recipe.Check(filepath.Join(h.ws, "r.yaml"), []byte(c.src), &recipe.Options{Roots: c.roots})
			if diff := cmp.Diff(c.want, diagLines(f)); diff != "" {
				for _, d := range f.Diags {
					t.Logf("%s: %s", diagLine(f, d), d.Message)
				}
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			found := c.msg == ""
			for _, d := range f.Diags {
				found = found || strings.Contains(d.Message, c.msg)
				if !c.leaks && strings.Contains(d.Message, secretMarker) {
					t.Errorf("a diagnostic carries the outside file's content: %s", d.Message)
				}
			}
			if !found {
				t.Errorf("no diagnostic says %q", c.msg)
			}
			for _, l := range f.Links() {
				if !c.leaks && strings.Contains(l.Target, "outside") {
					t.Errorf("a document link points outside the workspace: %s", l.Target)
				}
			}
		})
	}
}

func subRecipeSrc(path string) string {
	return "title: T\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: c\n    path: \"" + path + "\"\n"
}

func TestSubRecipeReadsStayInside(t *testing.T) {
	h := newHostileTree(t)
	mustWrite(t, filepath.Join(h.ws, "broken.yaml"), "title: x\nkey: [unclosed "+secretMarker+"\n")
	mustWrite(t, filepath.Join(h.ws, "plain.yaml"), "name: "+secretMarker+"\n")
	const at = "6:11-6:" // the path value on line 6
	outside := func(name, path, end string) confineCase {
		return confineCase{name: name, src: subRecipeSrc(path), want: []string{"FILE-OUTSIDE-WORKSPACE " + at + end},
			msg: "not checked: outside the workspace: " + path}
	}
	invalid := func(name, path, end, msg string) confineCase {
		return confineCase{name: name, src: subRecipeSrc(path), want: []string{"SUBRECIPE-INVALID " + at + end}, msg: msg}
	}
	abs := filepath.Join(h.outside, "secret.yaml")
	absEnd := func(p string) string { return itoa(11 + len(p) + 2) }
	cases := []confineCase{
		{name: "symlink inside", src: subRecipeSrc("./link-in.yaml"), want: []string{}},
		outside("relative symlink out", "./link-out.yaml", "28"),
		outside("absolute symlink out", "./abs-link.yaml", "28"),
		outside("dot-dot", "../outside/secret.yaml", "35"),
		outside("absolute path", abs, absEnd(abs)),
		outside("through a symlinked folder", "./outdir/secret.yaml", "33"),
		outside("symlink to /dev/zero", "./zero.yaml", "24"),
		outside("symlink to /proc/self/environ", "./environ.yaml", "27"),
		outside("/dev/zero", "/dev/zero", "22"),
		outside("/proc/self/environ", "/proc/self/environ", "31"),
		outside("/dev/stdin", "/dev/stdin", "23"),
		invalid("FIFO", "./pipe.yaml", "24", "sub-recipe ./pipe.yaml cannot be read: not a regular file"),
		invalid("folder", "./dir.yaml", "23", "sub-recipe ./dir.yaml cannot be read: not a regular file"),
		invalid("oversized", "./big.yaml", "23", "sub-recipe ./big.yaml cannot be read: too large (the limit is 1048576 bytes)"),
		invalid("symlink loop", "./loop.yaml", "24", "cannot be read: a symlink loop"),
		invalid("YAML error", "./broken.yaml", "26", "cannot be read as a recipe: YAML syntax error on line 3"),
		invalid("not a recipe", "./plain.yaml", "25", "cannot be read as a recipe: not a recipe"),
		invalid("not a recipe name", "./inside.txt", "25", "is not a .yaml or .json file"),
		{name: "trusted second root", src: subRecipeSrc("../outside/secret.yaml"), roots: []string{h.ws, h.outside}, leaks: true,
			want: []string{"SUBRECIPE-MISSING-VALUE 5:5-5:12"}},
	}
	runConfineCases(t, h, cases)
}

func includeSrc(tag string) string {
	return tag + "\ntitle: T\ndescription: D\nprompt: hi\n"
}

func TestTemplateReadsStayInRecipeFolder(t *testing.T) {
	h := newHostileTree(t)
	goose := "invalid operation: template path must stay within the recipe directory"
	cases := []confineCase{
		{name: "include symlink out", src: includeSrc(`{% include "link-out.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:30"}, msg: goose},
		{name: "include dot-dot", src: includeSrc(`{% include "../outside/secret.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:39"}, msg: goose},
		{name: "include absolute", src: includeSrc(`{% include "/dev/zero" %}`), want: []string{"TPL-RUNTIME 1:1-1:26"}, msg: goose},
		{name: "include symlink to /dev/zero", src: includeSrc(`{% include "zero.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:26"}, msg: goose},
		{name: "include symlink to /proc/self/environ", src: includeSrc(`{% include "environ.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:29"}, msg: goose},
		{name: "extends symlink out", src: `{% extends "abs-link.yaml" %}`, want: []string{"TPL-RUNTIME 1:1-1:30"}, msg: goose},
		{name: "include FIFO", src: includeSrc(`{% include "pipe.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:26"},
			msg: `invalid operation: could not read template "pipe.yaml": not a regular file`},
		{name: "include folder", src: includeSrc(`{% include "dir.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:25"}, msg: "invalid operation: could not read template (in recipe:1)"},
		{name: "include oversized", src: includeSrc(`{% include "big.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:25"}, msg: "too large"},
		{name: "include symlink loop", src: includeSrc(`{% include "loop.yaml" %}`), want: []string{"TPL-RUNTIME 1:1-1:26"}, msg: "invalid operation: could not read template (in recipe:1)"},
	}
	runConfineCases(t, h, cases)
}

func TestResponseSchemaRefsLoadNothing(t *testing.T) {
	h := newHostileTree(t)
	mustWrite(t, filepath.Join(h.outside, "schema.json"), `{"type":"string","description":"`+secretMarker+`"}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the checker fetched %s", r.URL)
		w.Write([]byte(`{"type":"string"}`))
	}))
	defer srv.Close()
	schemaSrc := func(ref string) string {
		return "title: T\ndescription: D\nprompt: hi\nresponse:\n  json_schema:\n    type: object\n    properties:\n      a:\n        $ref: \"" + ref + "\"\n"
	}
	fileURL := "file://" + filepath.Join(h.outside, "schema.json")
	httpURL := srv.URL + "/schema.json"
	external := "RESPONSE-SCHEMA-EXTERNAL-REF 9:15-9:"
	cases := []confineCase{
		{name: "file URL", src: schemaSrc(fileURL), want: []string{external + itoa(15+len(fileURL)+2)}, msg: "not checked: `$ref` to another document (" + fileURL + ")"},
		{name: "relative file", src: schemaSrc("schema.json"), want: []string{external + "28"}, msg: "goose-ls loads no files or URLs"},
		{name: "http URL", src: schemaSrc(httpURL), want: []string{external + itoa(15+len(httpURL)+2)}},
		{name: "in-document ref", src: schemaSrc("#/$defs/s") + "    $defs:\n      s:\n        type: string\n", want: []string{}},
		{name: "missing in-document ref", src: schemaSrc("#/$defs/missing"), want: []string{"RESPONSE-SCHEMA-INVALID 5:3-5:14"}, msg: "JSON schema validation failed"},
		{name: "external ref beside an invalid type", src: schemaSrc(fileURL) + "      b:\n        type: strng\n",
			want: []string{external + itoa(15+len(fileURL)+2), "RESPONSE-SCHEMA-INVALID 5:3-5:14"}, msg: "JSON schema validation failed"},
		{name: "meta-schema by URL", src: "title: T\ndescription: D\nprompt: hi\nresponse:\n  json_schema:\n    $schema: \"" + httpURL + "\"\n    type: object\n",
			want: []string{"RESPONSE-SCHEMA-EXTERNAL-REF 5:3-5:14"}, msg: "through `$id` or `$schema`"},
	}
	runConfineCases(t, h, cases)
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}
