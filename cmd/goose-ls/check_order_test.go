// `check DIR` checks parents after the other recipes and shares sub-recipe summaries between checks: the
// report is the same whichever order the checks ran in and whatever the summary cache held.

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckFolderParentsReadChildrenChecked(t *testing.T) {
	dir := t.TempDir()
	child := "title: Child " + t.Name() + "\ndescription: D\nprompt: '{{ topic }} {{ depth }}'\nparameters:\n" +
		"  - key: topic\n    input_type: string\n    requirement: required\n    description: T\n" +
		"  - key: depth\n    input_type: string\n    requirement: optional\n    default: low\n    description: how deep\n"
	// "a-parent" sorts before "z/" (its child is found after it); "m-parent" names a child it lacks
	write(t, dir, "a-parent.yaml", "title: A\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: kid\n    path: ./z/child.yaml\n    values:\n      depht: high\n")
	write(t, dir, "m-parent.yaml", "title: M\ndescription: D\nprompt: hi\nsub_recipes:\n  - name: gone\n    path: ./missing.yaml\n")
	write(t, dir, "z/child.yaml", child)
	want := []string{
		"a-parent.yaml:5:5: information: sub-recipe kid: required parameters without a value in `values`: topic",
		"a-parent.yaml:8:7: warning: sub-recipe kid has no parameter `depht`; did you mean `depth`?",
		"m-parent.yaml:6:11: warning: Sub-recipe file does not exist: ./missing.yaml",
		"3 files checked: 0 errors, 2 warnings",
	}
	// the first run parses the child for its own check; the second finds its summary cached
	for run := range 2 {
		code, out, errs := runCLI(t, "check", dir)
		if code != 0 || errs != "" {
			t.Fatalf("run %d: exit %d, stderr %q", run, code, errs)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("run %d: output lacks %q:\n%s", run, w, out)
			}
		}
		if strings.Contains(out, filepath.Join("z", "child.yaml")+":") {
			t.Errorf("run %d: the child has no problem of its own:\n%s", run, out)
		}
		// one file's report checked alone agrees with the folder's
		_, alone, _ := runCLI(t, "check", filepath.Join(dir, "a-parent.yaml"))
		lines := strings.Split(strings.TrimSpace(alone), "\n")
		if len(lines) != 3 || !strings.Contains(out, lines[0]+"\n"+lines[1]+"\n") {
			t.Errorf("run %d: the parent checked alone reports otherwise:\n%s", run, alone)
		}
	}
}
