// DESKTOP-FORM hints: goose Desktop's form limits, reported only when asked for, with exact ranges.

package recipe_test

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestDesktopHints(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
		msgs []string
	}{
		{name: "fits Desktop", src: "title: Code review\ndescription: Reviews the staged diff\ninstructions: Review the staged changes carefully.\n"},
		{name: "short title and description, prompt only",
			src:  "title: CR\ndescription: Reviews\nprompt: Review the staged changes.\n",
			want: []string{"DESKTOP-FORM 1:8-1:10", "DESKTOP-FORM 2:14-2:21", "DESKTOP-FORM 3:1-3:7"},
			msgs: []string{"goose Desktop: Title must be at least 3 characters (the CLI accepts it; Desktop's recipe form does not)",
				"goose Desktop: Description must be at least 10 characters (the CLI accepts it; Desktop's recipe form does not)",
				"goose Desktop: Instructions are required (the CLI accepts it; Desktop's recipe form does not)"}},
		{name: "short instructions", src: "title: Code review\ndescription: Reviews the staged diff\ninstructions: Be brief.\n",
			want: []string{"DESKTOP-FORM 3:15-3:24"},
			msgs: []string{"goose Desktop: Instructions must be at least 20 characters (the CLI accepts it; Desktop's recipe form does not)"}},
		{name: "long title counted in UTF-16 units",
			// 34 emoji are 68 UTF-16 units; with 40 letters: 108 > 100 (but only 74 code points)
			src:  "title: " + repeat("😀", 34) + repeat("a", 40) + "\ndescription: Reviews the staged diff\ninstructions: Review the staged changes carefully.\n",
			want: []string{"DESKTOP-FORM 1:8-1:82"},
			msgs: []string{"goose Desktop: Title must be 100 characters or less (the CLI accepts it; Desktop's recipe form does not)"}},
		{name: "empty title and parameter description",
			src:  "title: ''\ndescription: Reviews the staged diff\ninstructions: Review {{ x }} changes carefully.\nparameters:\n- key: x\n  input_type: string\n  requirement: required\n  description: ''\n",
			want: []string{"DESKTOP-FORM 1:8-1:10", "DESKTOP-FORM 8:16-8:18"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "recipe.yaml")
			plain := recipe.Check(path, []byte(c.src), nil)
			for _, d := range plain.Diags {
				if d.Code == recipe.CodeDesktopForm {
					t.Errorf("hint without DesktopHints: %s", d.Message)
				}
			}
			f := recipe.Check(path, []byte(c.src), &recipe.Options{DesktopHints: true})
			got := []string{}
			var msgs []string
			for _, d := range f.Diags {
				if d.Code != recipe.CodeDesktopForm {
					continue
				}
				if d.Severity != recipe.SeverityHint {
					t.Errorf("%s has severity %v, want hint", d.Message, d.Severity)
				}
				got = append(got, diagLine(f, d))
				msgs = append(msgs, d.Message)
			}
			want := append([]string{}, c.want...)
			sort.Strings(want)
			sort.Strings(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hints (-want +got):\n%s", diff)
			}
			if c.msgs != nil {
				sort.Strings(msgs)
				wantMsgs := append([]string{}, c.msgs...)
				sort.Strings(wantMsgs)
				if diff := cmp.Diff(wantMsgs, msgs); diff != "" {
					t.Errorf("messages (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
