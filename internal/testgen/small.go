// The typical hand-written recipe of about forty lines that start-up benchmarks check.

package testgen

// SmallRecipe is a valid 42-line recipe: two template uses, an if, three parameters, two extensions,
// settings and a retry check.
const SmallRecipe = `version: 1.0.0
title: Small recipe
description: A typical hand-written recipe of about forty lines
instructions: |
  You are a helpful assistant working on {{ project }}.
  Follow the team's conventions and explain each change.
prompt: |
  Review the changes in {{ path }} and suggest improvements.
  {% if strict == "true" %}Be strict about naming.{% endif %}
parameters:
  - key: project
    input_type: string
    requirement: required
    description: Project name
  - key: path
    input_type: string
    requirement: optional
    default: "."
    description: Folder to review
  - key: strict
    input_type: boolean
    requirement: optional
    default: false
    description: Strict mode
extensions:
  - type: builtin
    name: developer
    timeout: 300
  - type: stdio
    name: git
    cmd: uvx
    args: ["mcp-server-git"]
    timeout: 120
settings:
  goose_provider: anthropic
  goose_model: claude-sonnet-4
  temperature: 0.3
retry:
  max_retries: 2
  checks:
    - type: shell
      command: make lint
`
