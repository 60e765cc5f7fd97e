// Table tests for every rule: each case lists the diagnostics it must produce, with exact ranges.

package recipe_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goose-ls/goose-ls/recipe"
)

// diagLine renders a diagnostic as "CODE L:C-L:C" with 1-based lines and character columns.
func diagLine(f *recipe.File, d recipe.Diagnostic) string {
	s, e := f.Lines.RunePos(d.R.Start), f.Lines.RunePos(d.R.End)
	return fmt.Sprintf("%s %d:%d-%d:%d", d.Code, s.Line+1, s.Col+1, e.Line+1, e.Col+1)
}

func diagLines(f *recipe.File) []string {
	out := []string{}
	for _, d := range f.Diags {
		out = append(out, diagLine(f, d))
	}
	sort.Strings(out)
	return out
}

type ruleCase struct {
	name  string
	file  string // file name; default recipe.yaml
	src   string
	files map[string]string // other files in the recipe's folder
	want  []string
	msg   string // a substring one diagnostic's message must contain
}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			name := c.file
			if name == "" {
				name = "recipe.yaml"
			}
			f := recipe.Check(filepath.Join(dir, name), []byte(c.src), nil)
			want := append([]string{}, c.want...)
			sort.Strings(want)
			if want == nil {
				want = []string{}
			}
			if diff := cmp.Diff(want, diagLines(f)); diff != "" {
				for _, d := range f.Diags {
					t.Logf("%s: %s", diagLine(f, d), d.Message)
				}
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if c.msg != "" {
				found := false
				for _, d := range f.Diags {
					if strings.Contains(d.Message, c.msg) {
						found = true
					}
				}
				if !found {
					t.Errorf("no message contains %q", c.msg)
				}
			}
		})
	}
}

const head = "title: T\ndescription: D\n"

func TestParameterRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "valid", src: head + "prompt: hi {{ name }}\nparameters:\n  - key: name\n    input_type: string\n    requirement: required\n    description: who\n"},
		{name: "undefined at every use", src: head + "prompt: |\n  {{ a }} and {{ a }} then {{ b|upper }}\n",
			want: []string{"PARAM-UNDEFINED 4:6-4:7", "PARAM-UNDEFINED 4:18-4:19", "PARAM-UNDEFINED 4:31-4:32"},
			msg:  "Missing definitions for parameters in the recipe file: a."},
		{name: "unused at its key entry", src: head + "prompt: hi\nparameters:\n  - key: unused\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"PARAM-UNUSED 5:5-5:16"}, msg: "Unnecessary parameter definitions: unused."},
		{name: "comment counts as a use", src: head + "prompt: hi\n# {{ old }}\nparameters:\n  - key: old\n    input_type: string\n    requirement: required\n    description: x\n"},
		{name: "optional without default", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: optional\n    description: x\n",
			want: []string{"PARAM-OPTIONAL-NO-DEFAULT 7:5-7:26"}, msg: "Optional parameters missing default values in the recipe: p. Please provide defaults."},
		{name: "optional null default", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: optional\n    default: ~\n    description: x\n",
			want: []string{"PARAM-OPTIONAL-NO-DEFAULT 7:5-7:26"}},
		{name: "optional empty default ok", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: optional\n    default: \"\"\n    description: x\n"},
		{name: "file default", src: head + "prompt: \"{{ f }}\"\nparameters:\n  - key: f\n    input_type: file\n    requirement: required\n    default: /etc/passwd\n    description: x\n",
			want: []string{"PARAM-FILE-DEFAULT 8:5-8:25"}, msg: "File parameters cannot have default values to avoid importing sensitive user files: f"},
		{name: "duplicate key", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: required\n    description: x\n  - key: p\n    input_type: string\n    requirement: required\n    description: y\n",
			want: []string{"PARAM-DUPLICATE-KEY 9:10-9:11"}, msg: "Duplicate parameter definition: p."},
		{name: "select without options", src: head + "prompt: \"{{ s }}\"\nparameters:\n  - key: s\n    input_type: select\n    requirement: required\n    description: x\n",
			want: []string{"DOC-ONLY-SELECT-OPTIONS 6:5-6:23"}},
		{name: "required with default", src: head + "prompt: \"{{ s }}\"\nparameters:\n  - key: s\n    input_type: string\n    requirement: required\n    default: v\n    description: x\n",
			want: []string{"DOC-ONLY-REQUIRED-DEFAULT 8:5-8:15"}},
		{name: "recipe_dir is builtin", src: head + "prompt: \"{{ recipe_dir }}/x\"\n"},
		{name: "for target and loop are not parameters", src: head + "prompt: |\n  {% for i in items %}{{ i }} {{ loop.index }}{% endfor %}\nparameters:\n  - key: items\n    input_type: string\n    requirement: required\n    description: x\n"},
		{name: "set inside if does not leak", src: head + "prompt: |\n  {% if a %}{% set b = 1 %}{% endif %}{{ b }}\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"PARAM-UNDEFINED 4:42-4:43"}},
		{name: "dotted name is reported whole", src: head + "prompt: |\n  {% if user %}{{ user.name }}{% endif %}\nparameters:\n  - key: user\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"PARAM-UNDEFINED 4:19-4:28"}, msg: "user.name"},
		{name: "global function counts as a parameter", src: head + "prompt: |\n  {% for i in range(3) %}{{ i }}{% endfor %}\n",
			want: []string{"PARAM-UNDEFINED 4:15-4:20"}, msg: "builtin function"},
		{name: "raw and string literals are not uses", src: head + "prompt: |\n  {% raw %}{{ x }}{% endraw %} {{ '{{y}}' }}\n"},
		{name: "unparseable braces stay literal", src: head + "prompt: Dear {{customer first name}}\n",
			want: []string{"TPL-UNPARSEABLE-LITERAL 3:14-3:37"}},
	})
}

func TestTemplateRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "unclosed if", src: head + "prompt: |\n  {% if x %}\n  text\n",
			want: []string{"TPL-SYNTAX 4:3-4:13"}, msg: "syntax error: unexpected end of input"}, // the unclosed tag
		{name: "macro is not enabled", src: head + "prompt: |\n  {% macro m() %}{% endmacro %}\n",
			want: []string{"TPL-SYNTAX 4:6-4:11"}, msg: "unknown statement macro"},
		{name: "unterminated comment", src: head + "prompt: \"a {# b\"\n",
			want: []string{"TPL-SYNTAX 3:12-3:14"}, msg: "unexpected end of comment"},
		{name: "attribute of undefined", src: head + "prompt: \"{{ user.name }}\"\nparameters:\n  - key: user\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"TPL-RUNTIME 3:13-3:22", "PARAM-UNDEFINED 3:13-3:22", "PARAM-UNUSED 5:5-5:14"}, msg: "undefined value (in recipe:3)"},
		{name: "github expression", src: head + "prompt: \"token ${{ github.token }}\"\n",
			want: []string{"TPL-RUNTIME 3:20-3:32", "PARAM-UNDEFINED 3:20-3:32"}, msg: "{% raw %}"},
		{name: "arithmetic on undefined", src: head + "prompt: \"{{ n + 1 }}\"\nparameters:\n  - key: n\n    input_type: number\n    requirement: required\n    description: x\n",
			want: []string{"TPL-RUNTIME 3:13-3:18"}, msg: "tried to use + operator on unsupported types undefined and number"},
		{name: "unknown filter", src: head + "prompt: \"{{ n | shout }}\"\nparameters:\n  - key: n\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"TPL-RUNTIME 3:17-3:22"}, msg: "unknown filter: filter shout is unknown"},
		{name: "guarded branch is not executed", src: head + "prompt: \"{% if n %}{{ n.x }}{% endif %}\"\nparameters:\n  - key: n\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"PARAM-UNDEFINED 3:23-3:26"}},
		{name: "indent filter works", src: head + "prompt: |\n  {{ body | indent(2) }}\nparameters:\n  - key: body\n    input_type: string\n    requirement: required\n    description: x\n"},
		{name: "template leading plain scalar", src: head + "prompt: {{ x }} and more\n",
			want: []string{"YAML-SYNTAX 3:9-3:25", "PARAM-UNDEFINED 3:12-3:13"}, msg: "must be quoted"},
		// the YAML verdict is libyaml's (goose's serde_yaml): its problem text, at its mark
		{name: "simple key over 1,024 characters (libyaml refuses, goccy accepts)", src: head + "prompt: p\n" + strings.Repeat("k", 1100) + ": v\n",
			// (yaml/v4 does not report this problem, so the range is the line yaml/v3 names)
			want: []string{"YAML-SYNTAX 4:1-4:1104"}, msg: "could not find expected ':'"},
		{name: "flow sequence as a key (goccy refuses, libyaml accepts): no YAML error", src: head + "prompt: p\n[a, b]: c\n",
			want: []string{"INFO-UNKNOWN-FIELD-IGNORED 4:1-4:7"}},
		{name: "template value: libyaml's problem text with the hint", src: head + "prompt: p\nactivities:\n  - {{ r }}/x\n",
			want: []string{"YAML-SYNTAX 5:5-5:14", "PARAM-UNDEFINED 5:8-5:9"}, msg: "did not find expected '-' indicator (a value that starts with `{{` must be quoted"},
		{name: "template value parsed as map", src: head + "prompt: {{ x }}\nparameters:\n  - key: x\n    input_type: string\n    requirement: required\n    description: x\n",
			want: []string{"SCHEMA-INVALID-TYPE 3:9-3:16"}, msg: "prompt: invalid type: map, expected a string"},
		{name: "template value libyaml refuses inside itself: its syntax error, not a map", file: "child.yaml", src: "{% extends \"base.yaml\" %}{% block b %}{{|}}{% endblock %}\n",
			files: map[string]string{"base.yaml": head + "prompt: {% block b %}{% endblock %}\n"},
			want:  []string{"TPL-UNPARSEABLE-LITERAL 1:39-1:44", "YAML-SYNTAX 1:39-1:44"}, msg: "found character that cannot start any token (a value that starts with `{{` must be quoted"},
		{name: "template value libyaml refuses on its line (error placed at the line's start)", file: "child.yaml", src: "{% extends \"base.yaml\" %}{% block b %}{{[}}{% endblock %}\n",
			files: map[string]string{"base.yaml": head + "prompt: {% block b %}{% endblock %}\n"},
			want:  []string{"TPL-UNPARSEABLE-LITERAL 1:39-1:44", "YAML-SYNTAX 1:39-1:44"}, msg: "did not find expected node content (a value that starts with `{{` must be quoted"},
		{name: "extends in folder", file: "child.yaml", src: "{% extends \"base.yaml\" %}{% block b %}more{% endblock %}\n",
			files: map[string]string{"base.yaml": head + "prompt: |\n  {% block b %}x{% endblock %} {{ who }}\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: x\n"}},
		// a syntax error in a loaded file: goose names the file and minijinja's line in it; the range is the tag
		{name: "include of a file with a syntax error", src: head + "prompt: |\n  {% include \"bad.txt\" %}\n",
			files: map[string]string{"bad.txt": "line one\n{% if x %}\nnever closed"},
			want:  []string{"TPL-RUNTIME 4:3-4:26"}, msg: "syntax error: unexpected end of input, expected end of block (in bad.txt:2)"},
		{name: "extends outside folder", src: "{% extends \"../base.yaml\" %}\n",
			want: []string{"TPL-RUNTIME 1:1-1:29"}, msg: "invalid operation: template path must stay within the recipe directory (in recipe:1)"},
		{name: "extends missing", src: "{% extends \"nope.yaml\" %}\n",
			want: []string{"TPL-RUNTIME 1:1-1:26"}, msg: "template not found"},
		{name: "parent variable without parameter", file: "child.yaml", src: "{% extends \"base.yaml\" %}\n",
			files: map[string]string{"base.yaml": head + "prompt: \"{{ who }}\"\n"},
			want:  []string{"PARAM-UNDEFINED 1:1-1:26", "RECIPE-PROMPT-OR-INSTRUCTIONS 1:1-1:26"}, msg: "(used in base.yaml)"},
		// goose counts the variables of every template its validation render loaded: an included or imported
		// file's `{{ pv }}` needs a parameter `pv` (mj-oracle: vars ["pv"]), reported at the statement here
		{name: "include variable without parameter", src: head + "prompt: |\n  {% include \"inc.txt\" %}\n",
			files: map[string]string{"inc.txt": "Use {{ pv }} here\n"},
			want:  []string{"PARAM-UNDEFINED 4:3-4:26"}, msg: "Missing definitions for parameters in the recipe file: pv. (used in inc.txt)"},
		{name: "import variable without parameter", src: head + "prompt: |\n  {% import \"inc.txt\" as m %}{{ m }}\n",
			files: map[string]string{"inc.txt": "{{ pv }}"},
			want:  []string{"PARAM-UNDEFINED 4:3-4:30"}, msg: "(used in inc.txt)"},
		{name: "from import variable without parameter", src: head + "prompt: |\n  {% from \"inc.txt\" import a %}x\n",
			files: map[string]string{"inc.txt": "{% set a = pv %}"},
			want:  []string{"PARAM-UNDEFINED 4:3-4:32"}, msg: "(used in inc.txt)"},
		{name: "nested include variable", src: head + "prompt: |\n  {% include \"outer.txt\" %}x\n",
			files: map[string]string{"outer.txt": "{% include \"sub/inner.txt\" %}", "sub/inner.txt": "{{ deep }}"},
			want:  []string{"PARAM-UNDEFINED 4:3-4:28"}, msg: "(used in sub/inner.txt)"},
		{name: "include variable with parameter", src: head + "prompt: |\n  {% include \"inc.txt\" %}\nparameters:\n  - key: pv\n    input_type: string\n    requirement: required\n    description: d\n",
			files: map[string]string{"inc.txt": "Use {{ pv }} here\n"}},
		{name: "include not rendered loads nothing", src: head + "prompt: |\n  {% if false %}{% include \"inc.txt\" %}{% endif %}x\n",
			files: map[string]string{"inc.txt": "{{ pv }}"}},
		{name: "include a dot-dot path inside the folder", src: head + "prompt: |\n  {% include \"sub/../inc.txt\" %}\n",
			files: map[string]string{"inc.txt": "x", "sub/x.txt": "y"},
			want:  []string{"TPL-RUNTIME 4:3-4:33"}, msg: "invalid operation: template path must stay within the recipe directory (in recipe:4)"},
	})
}

func TestLoadRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "yml extension", file: "r.yml", src: head + "prompt: hi\n", want: []string{"CLI-FILE-EXTENSION 1:1-1:1"}},
		{name: "json recipe with trailing comma", file: "r.json", src: "{\"title\": \"T\", \"description\": \"D\", \"prompt\": \"hi\",}\n"},
		{name: "json syntax error", file: "r.json", src: "{\"title\": \"T\" \"description\": \"D\"}\n", want: []string{"YAML-SYNTAX 1:15-1:34"}},
		{name: "bom and crlf", src: "\uFEFFtitle: T\r\ndescription: D\r\nprompt: \"{{ x }}\"\r\n", want: []string{"PARAM-UNDEFINED 3:13-3:14"}},
		{name: "two documents", src: head + "prompt: hi\n---\ntitle: U\n", want: []string{"YAML-SYNTAX 4:1-4:4"}},
		{name: "tab indentation", src: head + "settings:\n\tgoose_model: x\nprompt: hi\n", want: []string{"YAML-SYNTAX 4:1-4:16"}},
		{name: "invalid utf-8", src: head + "prompt: \xff\n", want: []string{"FILE-INVALID-UTF8 3:9-3:10"}},
		{name: "desktop wrapper", src: "name: x\nisGlobal: true\nrecipe:\n  title: T\n  description: D\n  prompt: hi\n"},
		{name: "desktop wrapper does not coerce", src: "recipe:\n  title: T\n  description: D\n  prompt: \"{{ n }}\"\n  parameters:\n    - key: n\n      input_type: number\n      requirement: optional\n      default: 15\n      description: x\n",
			want: []string{"SCHEMA-INVALID-TYPE 9:16-9:18"}, msg: "invalid type: integer `15`, expected a string"},
		{name: "plain file coerces", src: head + "prompt: \"{{ n }}\"\nparameters:\n  - key: n\n    input_type: number\n    requirement: optional\n    default: 15\n    description: x\n"},
		{name: "empty file", src: "", want: []string{"SCHEMA-MISSING-FIELD 1:1-1:1"}},
		{name: "top level list", src: "- a\n", want: []string{"SCHEMA-INVALID-TYPE 1:1-1:4"}},
		{name: "hidden unicode", src: head + "prompt: \"hi\U000E0041\U000E0042\"\n", want: []string{"SECURITY-HIDDEN-UNICODE 3:12-3:14"}},
	})
}

func TestSchemaRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "missing title", src: "description: D\nprompt: hi\n", want: []string{"SCHEMA-MISSING-FIELD 1:1-1:12"}, msg: "missing field `title`"},
		{name: "no prompt or instructions", src: head, want: []string{"RECIPE-PROMPT-OR-INSTRUCTIONS 1:1-1:6"}},
		{name: "blank prompt", src: head + "prompt: \"  \"\n", want: []string{"RECIPE-PROMPT-OR-INSTRUCTIONS 3:1-3:7"}},
		{name: "scalar coercion in strings", src: "title: 12345\ndescription: true\nprompt: 1.5\n"},
		{name: "parameter missing description", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: required\n",
			want: []string{"SCHEMA-MISSING-FIELD 5:5-5:11"}, msg: "parameters[0]: missing field `description`"},
		{name: "bad input type", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: strin\n    requirement: required\n    description: x\n",
			want: []string{"SCHEMA-UNKNOWN-VARIANT 6:17-6:22"}, msg: "parameters[0].input_type: unknown variant `strin`, expected one of `string`, `number`, `boolean`, `date`, `file`, `select` (did you mean `string`?)"},
		{name: "temperature as string", src: head + "prompt: hi\nsettings:\n  temperature: \"hot\"\n",
			want: []string{"SCHEMA-INVALID-TYPE 5:16-5:21"}, msg: "settings.temperature: invalid type: string \"hot\", expected f32"},
		{name: "negative max_turns", src: head + "prompt: hi\nsettings:\n  max_turns: -5\n",
			want: []string{"SCHEMA-INVALID-TYPE 5:14-5:16"}, msg: "invalid value: integer `-5`, expected usize"},
		{name: "duplicate field", src: head + "prompt: a\nprompt: b\n", want: []string{"SCHEMA-DUPLICATE-FIELD 4:1-4:7"}, msg: "duplicate field `prompt`"},
		{name: "unknown key with suggestion", src: head + "prompt: hi\ninstructons: x\n", want: []string{"INFO-UNKNOWN-FIELD-IGNORED 4:1-4:12"}, msg: "did you mean `instructions`?"},
		{name: "misspelt available_tools", src: head + "prompt: hi\nextensions:\n  - type: builtin\n    name: developer\n    available_tool: [shell]\n",
			want: []string{"INFO-UNKNOWN-FIELD-IGNORED 7:5-7:19"}, msg: "ALL of its tools"},
		{name: "value instead of default", src: head + "prompt: \"{{ p }}\"\nparameters:\n  - key: p\n    input_type: string\n    requirement: optional\n    value: x\n    description: d\n",
			want: []string{"INFO-UNKNOWN-FIELD-IGNORED 8:5-8:10", "PARAM-OPTIONAL-NO-DEFAULT 7:5-7:26"}, msg: "did you mean `default`?"},
		{name: "null optional sections", src: head + "prompt: hi\nsub_recipes:\nextensions: ~\nsettings:\n"},
	})
}

func TestExtensionAndRetryRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "stdio needs args", src: head + "prompt: hi\nextensions:\n  - type: stdio\n    name: x\n    cmd: run\n",
			want: []string{"SCHEMA-MISSING-FIELD 5:5-5:16"}, msg: "extensions[0]: missing field `args`"},
		{name: "unknown extension type", src: head + "prompt: hi\nextensions:\n  - type: sse\n    name: x\n",
			want: []string{"SCHEMA-UNKNOWN-VARIANT 5:11-5:14"}, msg: "unknown variant `sse`"},
		{name: "extension envs must be strings", src: head + "prompt: hi\nextensions:\n  - type: stdio\n    name: x\n    cmd: run\n    args: []\n    envs:\n      PORT: 8080\n",
			want: []string{"SCHEMA-INVALID-TYPE 10:13-10:17"}, msg: "invalid type: integer `8080`, expected a string"},
		{name: "extension checks", src: head + "prompt: hi\nextensions:\n  - type: stdio\n    name: x\n    cmd: run\n    args: []\n    timeout: 0\n    env_keys: [\"BAD-NAME\"]\n    envs:\n      LD_PRELOAD: evil.so\n",
			want: []string{"EXT-TIMEOUT 9:14-9:15", "EXT-ENV-KEY-NAME 10:16-10:26", "EXT-ENV-DENIED 12:7-12:17"}},
		{name: "removed extension type", src: head + "prompt: hi\nextensions:\n  - type: inline_python\n    name: x\n    code: print(1)\n",
			want: []string{"EXT-REMOVED-TYPE 5:11-5:24"}},
		{name: "retry zero", src: head + "prompt: hi\nretry:\n  max_retries: 0\n  timeout_seconds: 0\n  checks: []\n",
			want: []string{"RETRY-INVALID 5:16-5:17", "RETRY-INVALID 6:20-6:21"}, msg: "Invalid retry configuration: max_retries must be greater than 0"},
		{name: "retry missing checks", src: head + "prompt: hi\nretry:\n  max_retries: 2\n",
			want: []string{"SCHEMA-MISSING-FIELD 4:1-4:6"}, msg: "retry: missing field `checks`"},
		{name: "settings warnings", src: head + "prompt: hi\nsettings:\n  temperature: 3.5\n  max_turns: 0\n",
			want: []string{"SETTINGS-TEMPERATURE-RANGE 5:16-5:19", "SETTINGS-MAX-TURNS 6:14-6:15"}},
		{name: "response schema not object", src: head + "prompt: hi\nresponse:\n  json_schema: [1]\n",
			want: []string{"RESPONSE-SCHEMA-NOT-OBJECT 5:16-5:19"}},
		{name: "response schema empty", src: head + "prompt: hi\nresponse:\n  json_schema: {}\n",
			want: []string{"RESPONSE-SCHEMA-EMPTY 5:16-5:18"}},
		{name: "response schema invalid", src: head + "prompt: hi\nresponse:\n  json_schema:\n    type: strng\n",
			want: []string{"RESPONSE-SCHEMA-INVALID 5:3-5:14"}, msg: "JSON schema validation failed"},
	})
}

func TestSubRecipeRules(t *testing.T) {
	child := head + "prompt: \"{{ a }} {{ b }}\"\nparameters:\n  - key: a\n    input_type: string\n    requirement: required\n    description: x\n  - key: b\n    input_type: string\n    requirement: optional\n    default: z\n    description: y\n"
	runCases(t, []ruleCase{
		{name: "valid", files: map[string]string{"child.yaml": child}, src: head + "prompt: hi\nsub_recipes:\n  - name: c\n    path: ./child.yaml\n    values:\n      a: 1\n"},
		{name: "not found", src: head + "prompt: hi\nsub_recipes:\n  - name: c\n    path: ./missing.yaml\n",
			want: []string{"RUN-SUBRECIPE-NOT-FOUND 6:11-6:25"}, msg: "Sub-recipe file does not exist: ./missing.yaml"},
		{name: "unknown value and missing required", files: map[string]string{"sub/child.yaml": child},
			src:  head + "prompt: hi\nsub_recipes:\n  - name: c\n    path: sub/child.yaml\n    values:\n      bb: 1\n",
			want: []string{"SUBRECIPE-UNKNOWN-VALUE 8:7-8:9", "SUBRECIPE-MISSING-VALUE 5:5-5:12"}, msg: "did you mean `b`?"},
		{name: "recipe_dir in path", files: map[string]string{"child.yaml": child},
			src: head + "prompt: hi\nsub_recipes:\n  - name: c\n    path: \"{{ recipe_dir }}/child.yaml\"\n    values: {a: x}\n"},
	})
}

func TestTemplateSymlinkEscapeRefused(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("title: leaked\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	src := "{% include \"link.yaml\" %}\ndescription: D\nprompt: hi\n"
	f := recipe.Check(filepath.Join(dir, "r.yaml"), []byte(src), nil)
	found := false
	for _, d := range f.Diags {
		if d.Code == recipe.CodeTplRuntime && strings.Contains(d.Message, "template path must stay within the recipe directory") {
			found = true
		}
	}
	if !found {
		t.Fatalf("a symlink pointing outside the recipe folder was followed: %+v", f.Diags)
	}
}
