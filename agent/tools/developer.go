// The builtin developer extension: goose's current tool surface (write, edit, shell, tree) plus read,
// exposed unprefixed, with JSON schemas, annotations and goose's argument errors.

package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

// Spec describes one tool of an extension.
type Spec struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	// Annotated says the tool declared MCP annotations; ReadOnly is its readOnlyHint.
	Annotated bool
	ReadOnly  bool
}

// Developer is the in-process developer extension acting on a Workspace.
type Developer struct {
	WS Workspace
	// Env is the environment shell commands get (nil: the process's).
	Env []string
	// ShellTimeout overrides the default shell timeout (GOOSE_DEFAULT_EXTENSION_TIMEOUT).
	ShellTimeout time.Duration
	// Shell runs a command; nil runs it locally with Shell. The editor may route it elsewhere.
	Shell func(ctx context.Context, dir, command string, timeout time.Duration, env []string) Result
	// WrapSave, when set, wraps the writer of shell output too long for the model (OutputDir.Save of the
	// run's private folder), e.g. to redact the text before it reaches the disk.
	WrapSave func(SaveFunc) SaveFunc

	mu       sync.Mutex
	files    *Files // the workspace folder, opened at the first file tool call of the run
	filesErr error
	outputs  OutputDir
}

// workspaceFiles opens the workspace folder once per run.
func (d *Developer) workspaceFiles() (*Files, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.files == nil && d.filesErr == nil {
		d.files, d.filesErr = OpenFiles(d.WS.Root())
	}
	return d.files, d.filesErr
}

// saveOutput is the run's writer of long shell output, wrapped by WrapSave when set.
func (d *Developer) saveOutput() SaveFunc {
	if d.WrapSave != nil {
		return d.WrapSave(d.outputs.Save)
	}
	return d.outputs.Save
}

// Name is the extension key.
func (d *Developer) Name() string { return "developer" }

// Unprefixed is true: the developer tools keep their bare names, as in goose's platform extension.
func (d *Developer) Unprefixed() bool { return true }

// Instructions go into the system prompt.
func (d *Developer) Instructions() string {
	return `Use the developer extension to build software and operate a terminal.
Use the tools efficiently: every turn costs time and money, so batch independent work.
Use tree to understand a project's structure and file sizes; search with rg; read files with the read tool (or cat/sed through shell).
Always read a file before editing it. Use write to create or overwrite a file and edit for exact, unique replacements.
Test and verify your changes.`
}

var developerSpecs = []Spec{
	{Name: "write", Description: "Create a new file or overwrite an existing file. Creates parent directories if needed.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Path of the file, relative to the working directory"},"content":{"type":"string","description":"The complete new content"}},"required":["path","content"]}`),
		Annotated:   true},
	{Name: "edit", Description: "Edit a file by finding and replacing text. The before text must match exactly and uniquely. Use empty after text to delete.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"before":{"type":"string","description":"Exact text to find (must be unique in the file)"},"after":{"type":"string","description":"Replacement text"}},"required":["path","before","after"]}`),
		Annotated:   true},
	{Name: "shell", Description: "Execute a shell command in the current dir and return its output. Non-zero exit codes are reported as errors.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"timeout_secs":{"type":["integer","null"],"description":"Timeout in seconds (default 300)"}},"required":["command"]}`),
		Annotated:   true},
	{Name: "tree", Description: "List a directory tree with line counts. Traversal respects .gitignore rules.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"depth":{"type":"integer","default":2,"description":"Depth to descend (0 = unlimited)"}},"required":["path"]}`),
		Annotated:   true, ReadOnly: true},
	{Name: "read", Description: "Read a text file with line numbers. Use line (1-based) and limit to read part of a large file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"line":{"type":["integer","null"],"minimum":1},"limit":{"type":["integer","null"],"minimum":1}},"required":["path"]}`),
		Annotated:   true, ReadOnly: true},
}

// Tools lists the developer tools in goose's order (read last).
func (d *Developer) Tools() []Spec { return developerSpecs }

// ClassicAliases maps goose's older developer tool names onto the current ones (for available_tools and
// permissions): text_editor covered reading and editing files.
var ClassicAliases = map[string][]string{
	"text_editor": {"write", "edit", "read"},
	"shell":       {"shell"},
	"file_write":  {"write"},
	"file_edit":   {"edit"},
	"write_file":  {"write"},
	"edit_file":   {"edit"},
	"read_file":   {"read"},
}

// Call runs one tool.
func (d *Developer) Call(ctx context.Context, tool string, args json.RawMessage) Result {
	if len(args) == 0 || string(args) == "null" {
		return errorf("Error: Missing arguments")
	}
	var a struct {
		Path        *string `json:"path"`
		Content     *string `json:"content"`
		Before      *string `json:"before"`
		After       *string `json:"after"`
		Command     *string `json:"command"`
		TimeoutSecs *int    `json:"timeout_secs"`
		Depth       *int    `json:"depth"`
		Line        *int    `json:"line"`
		Limit       *int    `json:"limit"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return errorf("Error: Failed to parse arguments: %v", err)
	}
	missing := func(name string) Result {
		return errorf("Error: Failed to parse arguments: missing field `%s`", name)
	}
	var files *Files
	switch tool {
	case "write", "edit", "tree", "read":
		var err error
		if files, err = d.workspaceFiles(); err != nil {
			return errorf("Error: %v", err)
		}
	}
	switch tool {
	case "write":
		switch {
		case a.Path == nil:
			return missing("path")
		case a.Content == nil:
			return missing("content")
		}
		return Write(ctx, d.WS, files, *a.Path, *a.Content)
	case "edit":
		switch {
		case a.Path == nil:
			return missing("path")
		case a.Before == nil:
			return missing("before")
		case a.After == nil:
			return missing("after")
		}
		return Edit(ctx, d.WS, files, *a.Path, *a.Before, *a.After)
	case "shell":
		if a.Command == nil {
			return missing("command")
		}
		timeout := d.ShellTimeout
		if a.TimeoutSecs != nil && *a.TimeoutSecs > 0 {
			timeout = time.Duration(*a.TimeoutSecs) * time.Second
		}
		env := d.Env
		if env == nil {
			env = append(os.Environ(), "GOOSE_TERMINAL=1", "AGENT=goose")
		}
		if d.Shell != nil {
			return d.Shell(ctx, d.WS.Root(), *a.Command, timeout, env)
		}
		return RunShell(ctx, d.WS.Root(), *a.Command, timeout, env, d.saveOutput())
	case "tree":
		if a.Path == nil {
			return missing("path")
		}
		depth := DefaultTreeDepth
		if a.Depth != nil {
			depth = *a.Depth
		}
		return Tree(ctx, files, *a.Path, depth)
	case "read":
		if a.Path == nil {
			return missing("path")
		}
		start, end := 0, 0
		if a.Line != nil {
			start = *a.Line
		}
		if a.Limit != nil {
			end = max(start, 1) + *a.Limit - 1
		}
		return Read(ctx, d.WS, files, *a.Path, start, end)
	}
	return errorf("Error: Unknown tool: %s", tool)
}

// Close ends the run's use of the extension: the workspace folder handle is released and the folder of
// saved shell output removed.
func (d *Developer) Close() error {
	d.mu.Lock()
	files := d.files
	d.files, d.filesErr = nil, errors.New("the developer extension is closed")
	d.mu.Unlock()
	var errs []error
	if files != nil {
		errs = append(errs, files.Close())
	}
	errs = append(errs, d.outputs.Remove())
	return errors.Join(errs...)
}

// OutputDir is the run's folder of saved shell output ("" until some output was saved).
func (d *Developer) OutputDir() string { return d.outputs.Dir() }

// String names the extension in logs.
func (d *Developer) String() string { return fmt.Sprintf("developer(%s)", d.WS.Root()) }
