// todo_write's texts, limits and stored state; tom's context from the environment and a file.

package platform

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestTodoWrite(t *testing.T) {
	var saved []TodoState
	todo := &Todo{Getenv: env(map[string]string{"GOOSE_TODO_MAX_CHARS": "10"}), Save: func(st TodoState) error {
		saved = append(saved, st)
		return nil
	}}
	if got := todo.TurnContext(); got != "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n" {
		t.Errorf("empty todo context %q", got)
	}
	cases := []struct {
		args, want string
		isErr      bool
	}{
		{`null`, "Error: Missing arguments", true},
		{`{}`, "Error: Missing required parameter: content", true},
		{`{"content": 3}`, "Error: Missing required parameter: content", true},
		{`{"content": "ééééééééééé"}`, "Error: Todo list too large: 11 chars (max: 10)", true},
		{`{"content": "- [ ] é"}`, "Updated (7 chars)", false},
	}
	for _, c := range cases {
		res := todo.Call(context.Background(), "todo_write", json.RawMessage(c.args))
		if res.Text != c.want || res.IsError != c.isErr {
			t.Errorf("%s: got %q (error %v), want %q", c.args, res.Text, res.IsError, c.want)
		}
	}
	if todo.Content() != "- [ ] é" || len(saved) != 1 || saved[0].Content != "- [ ] é" {
		t.Errorf("content %q, saved %+v", todo.Content(), saved)
	}
	if got := todo.TurnContext(); got != "Current tasks and notes:\n- [ ] é\n" {
		t.Errorf("context %q", got)
	}
	b, _ := json.Marshal(saved[0])
	if string(b) != `{"content":"- [ ] é"}` {
		t.Errorf("todo.v0 JSON %s", b)
	}
	// a store that fails keeps the old content, as goose's session update failing does
	todo.Save = func(TodoState) error { return errors.New("disk full") }
	res := todo.Call(context.Background(), "todo_write", json.RawMessage(`{"content":"new"}`))
	if !res.IsError || res.Text != "Error: Failed to update session metadata" || todo.Content() != "- [ ] é" {
		t.Errorf("failed save: %+v, content %q", res, todo.Content())
	}
	// 0 means no limit
	todo = &Todo{Getenv: env(map[string]string{"GOOSE_TODO_MAX_CHARS": "0"})}
	if res := todo.Call(context.Background(), "todo_write", json.RawMessage(`{"content":"`+strings.Repeat("x", 60000)+`"}`)); res.IsError {
		t.Errorf("no limit: %q", res.Text)
	}
	spec := todo.Tools()[0]
	if spec.Name != "todo_write" || todo.Name() != "todo" || todo.Unprefixed() || spec.ReadOnly || !spec.Annotated {
		t.Errorf("spec %+v", spec)
	}
	if !json.Valid(spec.InputSchema) || !strings.Contains(string(spec.InputSchema), `"required":["content"]`) {
		t.Errorf("schema %s", spec.InputSchema)
	}
}

func TestTomContext(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "moim.txt")
	if err := os.WriteFile(file, []byte("from the file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := func() (string, error) { return dir, nil }
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"nothing", nil, ""},
		{"text", map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": "remember X"}, "remember X"},
		{"blank text", map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": " \n\t"}, ""},
		{"file", map[string]string{"GOOSE_MOIM_MESSAGE_FILE": file}, "from the file\n"},
		{"tilde", map[string]string{"GOOSE_MOIM_MESSAGE_FILE": "~/moim.txt"}, "from the file\n"},
		{"both", map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": "remember X", "GOOSE_MOIM_MESSAGE_FILE": file}, "remember X\nfrom the file\n"},
		{"missing file", map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": "remember X", "GOOSE_MOIM_MESSAGE_FILE": filepath.Join(dir, "nope")}, "remember X"},
		{"a folder", map[string]string{"GOOSE_MOIM_MESSAGE_FILE": dir}, ""},
	}
	for _, c := range cases {
		tom := &Tom{Getenv: env(c.env), Home: home}
		if got := tom.TurnContext(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if res := (&Tom{}).Call(context.Background(), "x", nil); !res.IsError || res.Text != "tom has no tools (called: x)" {
		t.Errorf("call %+v", res)
	}
}

func TestTomReadsTheProcessEnvironment(t *testing.T) {
	t.Setenv("GOOSE_MOIM_MESSAGE_TEXT", "from the environment")
	t.Setenv("GOOSE_MOIM_MESSAGE_FILE", "")
	if got := (&Tom{}).TurnContext(); got != "from the environment" {
		t.Errorf("%q", got)
	}
}
