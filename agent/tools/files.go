// The file tools: write (create or overwrite), edit (exact, unique replacement), read (line ranges),
// with goose's result and error texts.

package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Result is a tool's answer to the model; IsError results are errors the model can recover from.
type Result struct {
	Text    string
	IsError bool
}

func errorf(format string, args ...any) Result {
	return Result{Text: fmt.Sprintf(format, args...), IsError: true}
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// Write creates or overwrites path with content.
func Write(ctx context.Context, ws Workspace, files *Files, path, content string) Result {
	abs, err := files.Abs(path)
	if err != nil {
		return errorf("Failed to write %s: %v", path, err)
	}
	_, ver, rerr := ws.Read(ctx, files, abs)
	exists := rerr == nil
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		// there is something that cannot be read: a link out, a FIFO, a device, a folder, a huge file
		return errorf("Failed to write %s: %v", path, rerr)
	}
	if !exists {
		ver = -1
	}
	if err := ws.Write(ctx, files, abs, []byte(content), ver); err != nil {
		return errorf("Failed to write %s: %v", path, err)
	}
	if exists {
		return Result{Text: fmt.Sprintf("Wrote %s (%d lines)", path, lineCount(content)) + review(ws, abs, []byte(content))}
	}
	return Result{Text: fmt.Sprintf("Created %s (%d lines)", path, lineCount(content)) + review(ws, abs, []byte(content))}
}

// Edit replaces the unique exact occurrence of before with after.
func Edit(ctx context.Context, ws Workspace, files *Files, path, before, after string) Result {
	abs, err := files.Abs(path)
	if err != nil {
		return errorf("Failed to read %s: %v", path, err)
	}
	data, ver, err := ws.Read(ctx, files, abs)
	if err != nil {
		return errorf("Failed to read %s: %v", path, err)
	}
	text := string(data)
	n := strings.Count(text, before)
	if before == "" {
		n = len(text) + 1
	}
	switch {
	case n == 0:
		return Result{Text: noMatch(text, before), IsError: true}
	case n > 1:
		return Result{Text: manyMatches(text, before, n), IsError: true}
	}
	out := strings.Replace(text, before, after, 1)
	if err := ws.Write(ctx, files, abs, []byte(out), ver); err != nil {
		return errorf("Failed to write %s: %v", path, err)
	}
	return Result{Text: fmt.Sprintf("Edited %s (%d lines -> %d lines)", path, lineCount(before), lineCount(after)) + review(ws, abs, []byte(out))}
}

// Reviewer is an optional Workspace ability: feedback on a file the agent just wrote (the language
// server reports its own diagnostics for recipe files), appended to the tool result.
type Reviewer interface {
	Review(abs string, data []byte) string
}

func review(ws Workspace, abs string, data []byte) string {
	if r, ok := ws.(Reviewer); ok {
		if s := r.Review(abs, data); s != "" {
			return "\n\n" + s
		}
	}
	return ""
}

func noMatch(text, before string) string {
	var b strings.Builder
	b.WriteString("No match found for the specified text.")
	lines := strings.Split(text, "\n")
	first := strings.TrimSpace(strings.SplitN(before, "\n", 2)[0])
	if first != "" {
		for i, l := range lines {
			if strings.Contains(l, first) {
				b.WriteString("\n\nDid you mean:\n")
				for j := max(0, i-2); j <= min(len(lines)-1, i+2); j++ {
					fmt.Fprintf(&b, "%4d: %s\n", j+1, lines[j])
				}
				break
			}
		}
	}
	b.WriteString("\n\nFile preview:\n")
	for i := 0; i < min(20, len(lines)); i++ {
		fmt.Fprintf(&b, "%4d: %s\n", i+1, lines[i])
	}
	if len(lines) > 20 {
		fmt.Fprintf(&b, "... (%d more lines)", len(lines)-20)
	}
	return strings.TrimRight(b.String(), "\n")
}

func manyMatches(text, before string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Found %d matches. Please provide more context to identify a unique match:", n)
	lines := strings.Split(text, "\n")
	shown, from := 0, 0
	for shown < 2 && before != "" {
		i := strings.Index(text[from:], before)
		if i < 0 {
			break
		}
		line := strings.Count(text[:from+i], "\n")
		fmt.Fprintf(&b, "\n\nMatch %d (line %d):\n", shown+1, line+1)
		for j := max(0, line-1); j <= min(len(lines)-1, line+1); j++ {
			fmt.Fprintf(&b, "%4d: %s\n", j+1, lines[j])
		}
		from += i + len(before)
		shown++
	}
	if n > 2 {
		fmt.Fprintf(&b, "\n...and %d more", n-2)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Read returns lines [start, end] (1-based, inclusive; 0 means from the start / to the end), numbered.
func Read(ctx context.Context, ws Workspace, files *Files, path string, start, end int) Result {
	abs, err := files.Abs(path)
	if err != nil {
		return errorf("Failed to read %s: %v", path, err)
	}
	data, _, err := ws.Read(ctx, files, abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errorf("File not found: %s", path)
		}
		return errorf("Failed to read %s: %v", path, err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if start <= 0 {
		start = 1
	}
	if end <= 0 || end > len(lines) {
		end = len(lines)
	}
	if start > end {
		return errorf("Line range %d-%d is outside the file (%d lines)", start, end, len(lines))
	}
	var b strings.Builder
	for i := start; i <= end; i++ {
		fmt.Fprintf(&b, "%4d: %s\n", i, lines[i-1])
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}
