// Serialization as serde does it: field order, defaults, skipped optionals, serde_yaml's scalar styles and
// serde_json's escaping.

package library

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRecipeYAML(t *testing.T) {
	r, err := Parse([]byte(`prompt: "yes: no"
title: Hi there
description: "123"
version: 1.0
instructions: |
  line one
    two
settings: {max_turns: 5, temperature: 1}
author: {contact: me}
activities: ["message: hello", "0123", "", "true", "- dash", "plain text", "1e3", inf]
extensions:
- type: stdio
  name: x
  cmd: npx
  args: [a]
  envs: {K: v}
  timeout: 30
- type: streamable_http
  name: web
  uri: http://localhost
parameters:
- {key: a, input_type: string, requirement: optional, default: "", description: x, options: [a]}
response: {}
retry: {max_retries: 2, checks: [{type: shell, command: echo ok}], timeout_seconds: 9}
sub_recipes: [{name: s, path: s.yaml, values: {n: 3, b: x}, description: sub}]
`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.YAML()
	if err != nil {
		t.Fatal(err)
	}
	want := `version: '1.0'
title: Hi there
description: '123'
instructions: |
  line one
    two
prompt: 'yes: no'
extensions:
- type: stdio
  name: x
  description: ''
  cmd: npx
  args:
  - a
  envs:
    K: v
  env_keys: []
  timeout: 30
  bundled: null
  available_tools: []
- type: streamable_http
  name: web
  description: ''
  uri: http://localhost
  envs: {}
  env_keys: []
  headers: {}
  timeout: null
  socket: null
  bundled: null
  available_tools: []
- type: platform
  name: summon
  description: ''
  display_name: null
  bundled: null
  available_tools: []
settings:
  temperature: 1.0
  max_turns: 5
activities:
- 'message: hello'
- '0123'
- ''
- 'true'
- '- dash'
- plain text
- '1e3'
- inf
author:
  contact: me
parameters:
- key: a
  input_type: string
  requirement: optional
  description: x
  default: ''
  options:
  - a
response: {}
sub_recipes:
- name: s
  path: s.yaml
  values:
    n: '3'
    b: x
  sequential_when_repeated: false
  description: sub
retry:
  max_retries: 2
  checks:
  - type: Shell
    command: echo ok
  timeout_seconds: 9
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("YAML (-want +got):\n%s", diff)
	}
}

func TestJSONEscaping(t *testing.T) {
	v := String("<a&b> é \u2028 \"q\" \\ \n\t\x01")
	want := `"<a&b> é ` + "\u2028" + ` \"q\" \\ \n\t\u0001"`
	if got := v.JSON(); got != want {
		t.Errorf("JSON = %s, want %s", got, want)
	}
	for f, want := range map[float64]string{0.7: "0.7", 1: "1.0", 1e20: "1e20", 1.5e-7: "1.5e-7", -2.25: "-2.25"} {
		if got := formatFloat(f, 64); got != want {
			t.Errorf("formatFloat(%v) = %s, want %s", f, got, want)
		}
	}
	if got := formatFloat(float64(float32(0.7)), 32); got != "0.7" {
		t.Errorf("f32 0.7 = %s", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for src, want := range map[string]string{
		"description: d\nprompt: p\n":                              "missing field `title`",
		"title: t\ndescription: d\nsettings: {temperature: hot}\n": "settings.temperature: invalid type: string \"hot\", expected f32",
		"title: t\ndescription: d\nparameters:\n- {key: k, input_type: strin, requirement: required, description: d}\n": "parameters[0].input_type: unknown variant `strin`, expected one of `string`, `number`, `boolean`, `date`, `file`, `select`",
		"title: t\ndescription: d\nextensions:\n- {name: x}\n":                                                          "extensions[0]: missing field `type`",
		"title: t\ndescription: d\nextensions:\n- {type: stdio, name: x, cmd: y}\n":                                     "extensions[0]: missing field `args`",
	} {
		_, err := Parse([]byte(src))
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %s", src, err, want)
		}
	}
}
