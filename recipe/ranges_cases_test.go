// The broken recipes of TestRangesPointWhereTheUserActs: the mistakes users make, each with the text to fix.

package recipe_test

import "github.com/goose-ls/goose-ls/recipe"

// A rangeCase is a recipe with one mistake a user makes. «…» in src marks the text the user must act on
// (the opening tag, quote or bracket, the key, the value); the markers are removed before checking.
type rangeCase struct {
	name  string
	file  string // default recipe.yaml
	src   string
	code  string // the diagnostic the mistake produces
	files map[string]string
}

var rangeCases = []rangeCase{
	// Templates.
	{name: "unclosed if", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% if true %}»
  Be thorough.
prompt: Review the code
‹›`},
	{name: "unclosed if with else", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% if false %}»
  Be brief.
  {% else %}
  Be thorough.
prompt: Review the code
‹›`},
	{name: "unclosed for", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Steps:
  «{% for step in ["read", "test"] %}»
  - {{ step }}
prompt: Review the code
‹›`},
	{name: "unclosed for inside a closed if", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% if true %}
  ‹{% for step in ["read", "test"] %}›
  - {{ step }}
  {% «endif» %}
prompt: Review the code
`},
	{name: "unclosed block", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% block steps %}»
  Read the diff.
prompt: Review the code
‹›`},
	{name: "unclosed raw", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Use GitHub's syntax:
  «{% raw %}»
  ${{ github.token }}
prompt: Review the code‹›
`},
	{name: "unclosed comment", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{#» TODO: say more
  Review the code.
prompt: Review the code‹›
`},
	{name: "unclosed variable across lines", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Review «{{» "the code"
  ‹carefully›.
prompt: Review the code
`},
	{name: "unclosed block tag", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{%» if true
  ‹Be› thorough.
prompt: Review the code
`},
	{name: "stray endif", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Be thorough.
  {% «endif» %}
prompt: Review the code
`},
	{name: "endfor closing an if", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  ‹{% if true %}›
  Be thorough.
  {% «endfor» %}
prompt: Review the code
`},
	{name: "macro", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% «macro» step(n) %}Step {{ n }}{% endmacro %}
prompt: Review the code
`},
	{name: "break", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% for s in ["a", "b"] %}{% «break» %}{% endfor %}
prompt: Review the code
`},
	{name: "unclosed bracket in a tag", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% if «(»true and false %‹}›yes{% endif %}
prompt: Review the code
`},
	{name: "unclosed subscript in a tag", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% for s in «[»"a", "b" %‹}›{{ s }}{% endfor %}
prompt: Review the code
`},
	{name: "unterminated string in a tag", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% if "a" == «"»b %}yes{% endif %}
  Be thorough.
prompt: Review the code‹›
`},
	{name: "unterminated string in a multi-line tag", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% set who = «'»the team
  %}
  Be thorough.
prompt: Review the code‹›
`},
	{name: "if without a condition", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% if «%}»yes{% endif %}
prompt: Review the code
`},
	{name: "for without in", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% for s «["a"]» %}{{ s }}{% endfor %}
prompt: Review the code
`},
	{name: "filter typo", code: recipe.CodeTplRuntime, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Review {{ "code" | «uper» }}.
prompt: Review the code
`},
	{name: "attribute of an undefined value", code: recipe.CodeTplRuntime, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  Token: «${{ github.token }}»
prompt: Review the code
`},
	{name: "include of a missing file", code: recipe.CodeTplRuntime, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% include 'steps.md' %}»
prompt: Review the code
`},
	{name: "syntax error in an included file", code: recipe.CodeTplRuntime, files: map[string]string{"steps.md": "Steps:\n{% if true %}\n- read\n"}, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% include 'steps.md' %}»
prompt: Review the code
`},
	{name: "unknown parameter", code: recipe.CodeParamUndefined, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
    requirement: required
    description: The repository
instructions: |
  You review code in {{ «repos» }}.
prompt: Review {{ repo }}
`},
	{name: "unused parameter", code: recipe.CodeParamUnused, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - «key: repo»
    input_type: string
    requirement: required
    description: The repository
instructions: Review the code.
`},

	{name: "unclosed elif chain", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  «{% if false %}»Be brief.
  {% elif true %}Be thorough.
prompt: Review the code
‹›`},
	{name: "unclosed variable at the end", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: Review «{{» "the code"‹›
`},
	{name: "unclosed tag at the end", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: |
  «{% if true»‹›
`},
	{name: "unclosed call in a filter", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% set steps = ["read", "test"] | join«(»", " %‹}›
prompt: Review the code
`},
	{name: "two conditions without an operator", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% if true «false» %}yes{% endif %}
prompt: Review the code
`},
	{name: "unterminated string after a string", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% set steps = ["read", "test"] | join(", " «"» ) %}
prompt: Review the code
`},
	{name: "missing comma in a call", code: recipe.CodeTplSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  {% for n in range(1 «5») %}{{ n }}{% endfor %}
prompt: Review the code
`},
	// YAML.
	{name: "unterminated quote before another quoted value", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: «"»Review a pull request
description: "‹Reviews code›"
prompt: Review the code
`},
	{name: "unterminated single quote before an apostrophe", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: «'»Reviews code
prompt: Don'‹t› hurry
`},
	{name: "missing space after a colon", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
«title:Review»
‹description›: Reviews code
prompt: Review the code
`},
	{name: "dedented list item", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
activities:
  - Review the diff
 «- Summarise»
prompt: Review the code
`},
	{name: "missing comma in a multi-line flow sequence", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
activities: [
  "Review the diff",
  "Summarise"
  «"Write the report"»
]
prompt: Review the code
`},
	{name: "JSON unclosed array", file: "recipe.json", code: recipe.CodeYAMLSyntax, src: `{
  "version": "1.0.0",
  "title": "Review",
  "description": "Reviews code",
  "activities": «[»"Review the diff", "Summarise",
  "prompt": "Review the code"
‹}›
`},
	{name: "unterminated double quote", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: «"»Review a pull request
description: Reviews code
prompt: Review the code‹›
`},
	{name: "unterminated single quote", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: «'»Reviews code
prompt: Review the code‹›
`},
	{name: "unterminated quote at the end", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: «"»Review the code‹›
`},
	{name: "unterminated quote in a list", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
activities:
  - «"»Review the diff
  - Write the summary
prompt: Review the code‹›
`},
	{name: "unterminated quote in a flow sequence", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
activities: [«"»Review the diff, Summarise]
prompt: Review the code‹›
`},
	{name: "unclosed flow sequence", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
activities: «[»Review the diff, Summarise
prompt‹:› Review the code
`},
	{name: "unclosed flow sequence at the end", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: Review the code
activities: «[»Review the diff, Summarise‹›
`},
	{name: "unclosed flow mapping", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
settings: «{»temperature: 0.2
prompt‹:› Review the code
`},
	{name: "over-indented key", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
      «requirement: required»
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "under-indented key in a list item", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
   «requirement»: required
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "tab indentation", code: recipe.CodeYAMLSyntax, src: "version: 1.0.0\ntitle: Review\ndescription: Reviews code\nsettings:\n«\t»temperature: 0.2\nprompt: Review the code\n"},
	{name: "dedented line out of a block scalar", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  You review code.
«Be kind to the author.»
‹prompt›: Review the code
`},
	{name: "dedented markdown out of a block scalar", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
instructions: |
  You review code.
«- read the diff»
prompt: Review the code
`},
	{name: "unquoted template value", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
    requirement: required
    description: The repository
prompt: «{{ repo }}» is the repository to review
`},
	{name: "colon in a plain value", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: «Review: the pull request»
description: Reviews code
prompt: Review the code
`},
	{name: "missing colon", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
«description Reviews code»
‹prompt›: Review the code
`},
	{name: "second document", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: Review the code
«---»
title: Other
`},
	{name: "alias before its anchor", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: Review
description: «*desc»
prompt: Review the code
`},
	{name: "JSON missing closing brace", file: "recipe.json", code: recipe.CodeYAMLSyntax, src: `«{»
  "version": "1.0.0",
  "title": "Review",
  "description": "Reviews code",
  "prompt": "Review the code"‹›
`},
	{name: "JSON unterminated string", file: "recipe.json", code: recipe.CodeYAMLSyntax, src: `{
  "version": "1.0.0",
  "title": «"»Review,
  "‹description›": "Reviews code",
  "prompt": "Review the code"
}
`},
	{name: "JSON missing comma", file: "recipe.json", code: recipe.CodeYAMLSyntax, src: `{
  "version": "1.0.0",
  "title": "Review"
  «"description»": "Reviews code",
  "prompt": "Review the code"
}
`},

	{name: "bad escape in a double-quoted scalar", code: recipe.CodeYAMLSyntax, src: `version: 1.0.0
title: "Review «\q»uickly"
description: Reviews code
prompt: Review the code
`},
	// Schema.
	{name: "parameters as a map", code: recipe.CodeInvalidType, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  «repo: The repository»
prompt: Review {{ repo }}
`},
	{name: "retry check type typo", code: recipe.CodeUnknownVariant, src: `version: 1.0.0
title: Review
description: Reviews code
prompt: Review the code
retry:
  max_retries: 2
  checks:
    - type: «shel»
      command: test -f report.md
`},
	{name: "duplicate key", code: recipe.CodeDuplicateField, src: `version: 1.0.0
title: Review
description: Reviews code
«title»: Review again
prompt: Review the code
`},
	{name: "input_type typo", code: recipe.CodeUnknownVariant, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: «strng»
    requirement: required
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "requirement typo", code: recipe.CodeUnknownVariant, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
    requirement: «requried»
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "extension type typo", code: recipe.CodeUnknownVariant, src: `version: 1.0.0
title: Review
description: Reviews code
extensions:
  - type: «builtn»
    name: developer
prompt: Review the code
`},
	{name: "missing description", code: recipe.CodeMissingField, src: `«version»: 1.0.0
title: Review
prompt: Review the code
`},
	{name: "parameter without input_type", code: recipe.CodeMissingField, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - «key»: repo
    requirement: required
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "temperature as a string", code: recipe.CodeInvalidType, src: `version: 1.0.0
title: Review
description: Reviews code
settings:
  temperature: «"0.2"»
prompt: Review the code
`},
	{name: "negative max_turns", code: recipe.CodeInvalidType, src: `version: 1.0.0
title: Review
description: Reviews code
settings:
  max_turns: «-5»
prompt: Review the code
`},
	{name: "misspelt key", code: recipe.CodeUnknownField, src: `version: 1.0.0
title: Review
description: Reviews code
«instuctions»: Review the code carefully.
prompt: Review the code
`},
	{name: "optional parameter without default", code: recipe.CodeParamOptionalNoDefault, src: `version: 1.0.0
title: Review
description: Reviews code
parameters:
  - key: repo
    input_type: string
    «requirement: optional»
    description: The repository
prompt: Review {{ repo }}
`},
	{name: "sub-recipe not found", code: recipe.CodeSubrecipeNotFound, src: `version: 1.0.0
title: Review
description: Reviews code
sub_recipes:
  - name: lint
    path: «./lint.yaml»
prompt: Review the code
`},
}
