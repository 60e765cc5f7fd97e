// The todo platform extension: `todo__todo_write` replaces the run's task list, which the per-turn context
// carries on every request (so it survives compaction) and the session keeps under extension_data "todo.v0".

package platform

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// TodoStateKey is goose's extension_data key for the todo content ({"content": …}).
const TodoStateKey = "todo.v0"

// DefaultTodoMaxChars is goose's GOOSE_TODO_MAX_CHARS default (0 means no limit).
const DefaultTodoMaxChars = 50000

const todoInstructions = `Your todo content is automatically available in your context.

Workflow:
- Start: write initial checklist
- During: update progress
- End: verify all complete

Template:
- [x] Requirement 1
- [ ] Task
  - [ ] Sub-task
- [ ] Requirement 2
- [ ] Another task
`

const todoWriteDescription = `Overwrite the entire TODO content.

The content persists across conversation turns and compaction. Use this for:
- Task tracking and progress updates
- Important notes and reminders

WARNING: This operation completely replaces the existing content. Always include
all content you want to keep, not just the changes.
`

// todoWriteSchema is what schemars 1.x generates for goose's TodoWriteParams.
const todoWriteSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"TodoWriteParams","type":"object","properties":{"content":{"type":"string"}},"required":["content"]}`

// TodoWriteAnnotations are goose's annotations of todo_write.
var TodoWriteAnnotations = Annotations{Title: "Write TODO", ReadOnly: false, Destructive: true, Idempotent: false, OpenWorld: false}

// TodoState is the JSON goose stores under TodoStateKey.
type TodoState struct {
	Content string `json:"content"`
}

// Todo is the todo extension of one run.
type Todo struct {
	// Getenv reads GOOSE_TODO_MAX_CHARS (nil: the process environment, as goose reads it).
	Getenv func(string) string
	// Save, when set, stores each new content (the session recorder's extension_data); an error fails
	// the call as goose's does when the session cannot be updated.
	Save func(state TodoState) error

	mu      sync.Mutex
	content string
}

// Name is goose's config key.
func (t *Todo) Name() string { return "todo" }

// Unprefixed is false: the tool is todo__todo_write.
func (t *Todo) Unprefixed() bool { return false }

// Instructions go into the system prompt.
func (t *Todo) Instructions() string { return todoInstructions }

// Tools lists todo_write.
func (t *Todo) Tools() []tools.Spec {
	return []tools.Spec{{Name: "todo_write", Description: todoWriteDescription, InputSchema: json.RawMessage(todoWriteSchema),
		Annotated: true, ReadOnly: TodoWriteAnnotations.ReadOnly}}
}

// ToolAnnotations are goose's annotations of a tool of the extension.
func (t *Todo) ToolAnnotations(tool string) (Annotations, bool) {
	return TodoWriteAnnotations, tool == "todo_write"
}

// Close does nothing: the content lives as long as the run.
func (t *Todo) Close() error { return nil }

// Restore sets the content without a call (a resumed session's stored state).
func (t *Todo) Restore(content string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.content = content
}

// Content is the current todo text.
func (t *Todo) Content() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.content
}

func (t *Todo) maxChars() int {
	getenv := t.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if n, err := strconv.ParseUint(getenv("GOOSE_TODO_MAX_CHARS"), 10, 0); err == nil {
		return int(n)
	}
	return DefaultTodoMaxChars
}

// Call runs todo_write with goose's errors and result text.
func (t *Todo) Call(_ context.Context, tool string, args json.RawMessage) tools.Result {
	if tool != "todo_write" {
		return errorResult("Error: Unknown tool: %s", tool)
	}
	m := objectArgs(args)
	if m == nil {
		return errorResult("Error: Missing arguments")
	}
	content, ok := stringArg(m, "content")
	if !ok {
		return errorResult("Error: Missing required parameter: content")
	}
	n := utf8.RuneCountInString(content)
	if max := t.maxChars(); max > 0 && n > max {
		return errorResult("Error: Todo list too large: %d chars (max: %d)", n, max)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.Save != nil {
		if err := t.Save(TodoState{Content: content}); err != nil {
			return errorResult("Error: Failed to update session metadata")
		}
	}
	t.content = content
	return tools.Result{Text: "Updated (" + strconv.Itoa(n) + " chars)"}
}

// TurnContext is the todo part of the per-turn context.
func (t *Todo) TurnContext() string {
	content := t.Content()
	if isBlank(content) {
		return "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n"
	}
	return "Current tasks and notes:\n" + content + "\n"
}
