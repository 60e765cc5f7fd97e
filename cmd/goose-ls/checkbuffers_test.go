// `check DIR` hands the recipes its walk read to the checks as buffers: a parent's sub-recipe is taken from
// there, and a symlinked recipe never is (a narrower root, a template parent's folder, must still refuse
// a link that leaves it).

//go:build linux

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestWalkKeepsRegularRecipesOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.yaml", "title: A\ndescription: D\nprompt: hi\n")
	write(t, dir, "sub/b.yaml", "title: B\ndescription: D\nprompt: hi\n")
	write(t, dir, "notes.yaml", "just: data\n")
	if err := os.Symlink("sub/b.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	walked := newWalkedFiles()
	var emitted []string
	if failed := collectDir(dir, io.Discard, opened, walked, func(c checkTarget) { emitted = append(emitted, c.abs) }); failed {
		t.Fatal("the walk failed")
	}
	if len(emitted) != 3 { // a.yaml, link.yaml, sub/b.yaml
		t.Fatalf("emitted %v", emitted)
	}
	for name, want := range map[string]bool{"a.yaml": true, "sub/b.yaml": true, "link.yaml": false, "notes.yaml": false} {
		data, ok := walked.Buffer(filepath.Join(dir, name))
		if ok != want {
			t.Errorf("%s kept: %v, want %v", name, ok, want)
		}
		if ok && !strings.HasPrefix(string(data), "title: ") {
			t.Errorf("%s kept as %q", name, data)
		}
	}
}

// The parent's check reads its sub-recipe from the walk's buffer (here one that differs from the disk, as
// if the file had changed since: the check sees what the walk read), and a path outside the roots is
// refused before any buffer is looked at.
func TestCheckTakesSubRecipeFromWalk(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	parent := write(t, dir, "parent.yaml", "title: P\ndescription: D\nprompt: hi\nsub_recipes:\n"+
		"  - name: kid\n    path: ./kid.yaml\n  - name: far\n    path: "+filepath.Join(other, "far.yaml")+"\n")
	kid := write(t, dir, "kid.yaml", "title: Kid\ndescription: D\nprompt: hi\n")
	far := write(t, other, "far.yaml", "title: Far\ndescription: D\nprompt: hi\n")
	walked := newWalkedFiles()
	walked.keep(kid, []byte("title: Kid\ndescription: D\nprompt: '{{ topic }}'\nparameters:\n"+
		"  - key: topic\n    input_type: string\n    requirement: required\n    description: T\n"))
	walked.keep(far, []byte("title: Far\ndescription: D\nprompt: hi\n"))
	data, err := os.ReadFile(parent)
	if err != nil {
		t.Fatal(err)
	}
	opened := recipe.NewOpenRoots()
	defer opened.Close()
	r := checkOne(checkTarget{path: parent, abs: parent, root: dir, data: data}, nil, false, opened, walked)
	var msgs []string
	for _, d := range r.File.Diags {
		msgs = append(msgs, d.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "required parameters without a value in `values`: topic") {
		t.Errorf("the sub-recipe was not read from the walk's buffer:\n%s", all)
	}
	if !strings.Contains(all, "not checked: outside the workspace: "+filepath.Join(other, "far.yaml")) {
		t.Errorf("a buffer outside the roots was taken:\n%s", all)
	}
}
