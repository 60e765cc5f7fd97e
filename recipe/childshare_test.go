// A check's shared sub-recipe summary (Options.ShareChildInfo) is exactly what parseChildInfo computes
// from the same bytes, on every corpus recipe and on the texts whose YAML stage parses something else.

package recipe

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// childShareCase is a text and whether its check may share its summary.
type childShareCase struct {
	name   string
	src    string
	shared bool
}

var childShareCases = []childShareCase{
	{"plain", "title: T\ndescription: d\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: A\n  - key: b\n    input_type: number\n    requirement: optional\n    default: 3\n    description: B\nprompt: '{{ a }} {{ b }}'\n", true},
	{"desktop wrapper", "recipe:\n  title: T\n  description: d\n  parameters:\n    - key: a\n      input_type: string\n      requirement: user_prompt\n      description: A\n  prompt: '{{ a }}'\n", true},
	{"json", `{"title": "T", "description": "d", "parameters": [{"key": "k", "input_type": "string", "requirement": "required", "description": "K"}], "prompt": "{{ k }}"}`, true},
	{"plain scalars coerced", "title: 12\ndescription: true\nparameters:\n  - key: 7\n    input_type: string\n    requirement: required\n    description: 1.5\nprompt: x\n", true},
	{"byte order mark", "\ufefftitle: T\ndescription: d\nprompt: x\n", false},
	{"patched template value", "title: T\ndescription: d\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: {{ a }}\nprompt: x\n", false},
	{"literal braces", "title: T\ndescription: '{{ not a variable! }}'\nprompt: x\n", false},
	{"extends", "{% extends \"base.yaml\" %}\ntitle: T\ndescription: d\nprompt: x\n", false},
	{"no title", "description: d\nprompt: x\n", false},
	{"not a map", "- title\n- d\n", false},
	{"syntax error", "title: T\ndescription: [d\nprompt: x\n", false},
}

// checkShared checks src as the CLI does and returns the shared summary (nil: not shared) and what a
// parent would compute from the same bytes.
func checkShared(t *testing.T, path string, src []byte) (shared, want *ChildInfo, wantErr error) {
	t.Helper()
	f := Check(path, src, &Options{NoSubRecipes: true, Roots: []string{filepath.Dir(path)}})
	shared = f.sharedChildInfo(string(f.Text[f.BOM:]))
	want, wantErr = parseChildInfo(src)
	return shared, want, wantErr
}

func TestSharedChildInfoCases(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "base.yaml"), []byte("instructions: base\n{% block body %}{% endblock %}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range childShareCases {
		t.Run(tc.name, func(t *testing.T) {
			shared, want, wantErr := checkShared(t, filepath.Join(dir, "r.yaml"), []byte(tc.src))
			if (shared != nil) != tc.shared {
				t.Fatalf("shared = %v, want %v", shared != nil, tc.shared)
			}
			if shared == nil {
				return
			}
			if wantErr != nil {
				t.Fatalf("the check shared a summary of a text parseChildInfo refuses: %v", wantErr)
			}
			if diff := cmp.Diff(want, shared); diff != "" {
				t.Errorf("shared summary differs from parseChildInfo (-parse +shared):\n%s", diff)
			}
		})
	}
}

func TestSharedChildInfoMatchesParseOnCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus", "recipes")
	files, shared := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		abs, _ := filepath.Abs(p)
		got, want, wantErr := checkShared(t, abs, src)
		if got == nil {
			return nil
		}
		shared++
		if wantErr != nil {
			t.Errorf("%s: shared a summary, but parseChildInfo says %v", p, wantErr)
		} else if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: shared summary differs (-parse +shared):\n%s", p, diff)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	// nearly every corpus recipe is parsed from its own text; far fewer would mean the sharing stopped
	if files < 150 || shared < files*9/10 {
		t.Errorf("%d of %d corpus files shared their summary", shared, files)
	}
}

func TestShareChildInfoFillsTheCache(t *testing.T) {
	src := []byte("title: Shared child " + t.Name() + "\ndescription: d\nparameters:\n  - key: q\n    input_type: string\n    requirement: required\n    description: Q\nprompt: '{{ q }}'\n")
	dir := t.TempDir()
	Check(filepath.Join(dir, "child.yaml"), src, &Options{NoSubRecipes: true, ShareChildInfo: true})
	childInfos.mu.Lock()
	r, ok := childInfos.entries[sha256.Sum256(src)]
	childInfos.mu.Unlock()
	if !ok || r.err != nil || r.info == nil || len(r.info.Parameters) != 1 || r.info.Parameters[0].Key != "q" {
		t.Fatalf("cache entry after a sharing check: present %v, %+v", ok, r)
	}
	if info, _ := childInfos.get(src); info != r.info {
		t.Error("a parent's lookup did not return the shared summary")
	}
}
