// The analyze platform extension (next to a builtin developer): `analyze {path, focus?, max_depth,
// follow_depth, force}`, read-only, through the run's os.Root-confined workspace. Go files are parsed
// with go/parser; goose's other tree-sitter languages have no well-kept pure-Go parser, so their files
// count as "skipped: no parser" (a single such file is goose's "unsupported language" error).

package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/goose-ls/goose-ls/agent/tools"
)

const analyzeInstructions = `Index code structure. Use to navigate or summarize an unfamiliar
and large codebase. Returns one of three views:

  1) Directory path → file tree with LOC, function, and class counts
     (depth-limited).
  2) File path → list of functions (with signatures), classes, imports,
     and call counts. Functions called >3x are marked •N.
  3) Any path + ` + "`focus`" + ` → incoming/outgoing call graph for a symbol
     (case-sensitive).

For large codebases, delegate analysis to a subagent and retain only the summary.

goose-ls parses Go source files; files in other languages are counted as skipped.`

const analyzeDescription = "Analyze code structure in 3 modes: 1) Directory overview - file tree with LOC/function/class counts to max_depth. 2) File details - functions, classes, imports. 3) Symbol focus - call graphs across directory to max_depth (requires file or directory path, case-sensitive). Typical flow: directory → files → symbols. Functions called >3x show •N."

// analyzeSchema is what schemars generates for goose's AnalyzeParams.
const analyzeSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"AnalyzeParams","type":"object","properties":{"path":{"description":"File or directory path to analyze","type":"string"},"focus":{"description":"Symbol name to focus on (triggers call graph mode)","type":["string","null"],"default":null},"max_depth":{"description":"Directory recursion depth limit (default 3, 0=unlimited). Also limits focus scan depth.","type":"integer","format":"uint32","minimum":0,"default":3},"follow_depth":{"description":"Call graph traversal depth (default 2, 0=definitions only)","type":"integer","format":"uint32","minimum":0,"default":2},"force":{"description":"Allow large outputs without size warning","type":"boolean","default":false}},"required":["path"]}`

// AnalyzeAnnotations are goose's annotations of analyze.
var AnalyzeAnnotations = Annotations{Title: "Analyze", ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: false}

// Bounds of one analyze call (goose has none; a workspace is untrusted).
const (
	maxAnalyzeFiles     = 20000
	maxAnalyzeFileBytes = 2 << 20
)

// Analyze is the analyze extension of one run.
type Analyze struct {
	// WorkDir is the workspace folder; every read goes through an os.Root of it.
	WorkDir string

	mu       sync.Mutex
	files    *tools.Files
	filesErr error
}

// Name is goose's config key.
func (a *Analyze) Name() string { return "analyze" }

// Unprefixed is true: the tool is analyze.
func (a *Analyze) Unprefixed() bool { return true }

// Instructions go into the system prompt.
func (a *Analyze) Instructions() string { return analyzeInstructions }

// Tools lists analyze.
func (a *Analyze) Tools() []tools.Spec {
	return []tools.Spec{{Name: "analyze", Description: analyzeDescription, InputSchema: json.RawMessage(analyzeSchema),
		Annotated: true, ReadOnly: true}}
}

// ToolAnnotations are goose's annotations of a tool of the extension.
func (a *Analyze) ToolAnnotations(tool string) (Annotations, bool) {
	return AnalyzeAnnotations, tool == "analyze"
}

// Close releases the workspace handle.
func (a *Analyze) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.files != nil {
		err := a.files.Close()
		a.files, a.filesErr = nil, errors.New("the analyze extension is closed")
		return err
	}
	return nil
}

func (a *Analyze) workspace() (*tools.Files, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.files == nil && a.filesErr == nil {
		a.files, a.filesErr = tools.OpenFiles(a.WorkDir)
	}
	return a.files, a.filesErr
}

type analyzeParams struct {
	Path        *string `json:"path"`
	Focus       *string `json:"focus"`
	MaxDepth    *uint32 `json:"max_depth"`
	FollowDepth *uint32 `json:"follow_depth"`
	Force       bool    `json:"force"`
}

// Call runs analyze.
func (a *Analyze) Call(ctx context.Context, tool string, args json.RawMessage) tools.Result {
	if tool != "analyze" {
		return errorResult("Error: Unknown tool: %s", tool)
	}
	if len(args) == 0 || string(args) == "null" {
		return errorResult("Error: Missing arguments")
	}
	var p analyzeParams
	if err := json.Unmarshal(args, &p); err != nil {
		return errorResult("Error: Failed to parse arguments: %v", err)
	}
	if p.Path == nil {
		return errorResult("Error: Failed to parse arguments: missing field `path`")
	}
	maxDepth, followDepth := 3, 2
	if p.MaxDepth != nil {
		maxDepth = int(*p.MaxDepth)
	}
	if p.FollowDepth != nil {
		followDepth = int(*p.FollowDepth)
	}
	files, err := a.workspace()
	if err != nil {
		return errorResult("Error: %v", err)
	}
	abs, err := files.Abs(*p.Path)
	if err != nil {
		return errorResult("Error: %v", err)
	}
	st, err := files.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return errorResult("Error: path not found: %s", abs)
	} else if err != nil {
		return errorResult("Error: %v", err)
	}
	var out string
	switch {
	case p.Focus != nil:
		var paths []string
		root := abs
		if st.IsDir() {
			paths = collectFiles(ctx, files, abs, maxDepth)
		} else {
			paths, root = []string{abs}, filepath.Dir(abs)
		}
		analyses := analyzeFiles(ctx, files, paths)
		out = formatFocused(*p.Focus, buildCallGraph(analyses), followDepth, len(analyses), root)
	case !st.IsDir():
		an := analyzeFile(files, abs)
		if an == nil {
			return errorResult("Error: could not analyze %s (unsupported language or binary file)", abs)
		}
		out = formatSemantic(an, filepath.Dir(abs))
	default:
		paths := collectFiles(ctx, files, abs, maxDepth)
		out = formatStructure(analyzeFiles(ctx, files, paths), abs, maxDepth, len(paths))
	}
	if err := ctx.Err(); err != nil {
		return errorResult("Error: %v", err)
	}
	if len(out) > analyzeSizeLimit && !p.Force {
		return errorResult("Output too large (%d chars, limit %d). Use `force: true` to override, or narrow scope with max_depth/focus.", len(out), analyzeSizeLimit)
	}
	return tools.Result{Text: out}
}

// analyzeFile parses one file, nil when there is no parser for it or it cannot be read.
func analyzeFile(files *tools.Files, abs string) *fileAnalysis {
	if filepath.Ext(abs) != ".go" {
		return nil
	}
	src, err := files.ReadFile(abs, maxAnalyzeFileBytes)
	if err != nil {
		return nil
	}
	an, ok := analyzeGo(abs, src)
	if !ok {
		return nil
	}
	return an
}

// analyzeFiles parses the files it can, until ctx ends.
func analyzeFiles(ctx context.Context, files *tools.Files, paths []string) []*fileAnalysis {
	var out []*fileAnalysis
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		if an := analyzeFile(files, p); an != nil {
			out = append(out, an)
		}
	}
	return out
}

// collectFiles lists the files under dir as goose's ignore::WalkBuilder does by default: hidden entries
// and what .gitignore/.ignore files exclude are skipped; maxDepth (0: unlimited) counts dir as depth 0.
func collectFiles(ctx context.Context, files *tools.Files, dir string, maxDepth int) []string {
	var out []string
	var walk func(abs string, domain []string, patterns []gitignore.Pattern, depth int)
	walk = func(abs string, domain []string, patterns []gitignore.Pattern, depth int) {
		if ctx.Err() != nil || len(out) >= maxAnalyzeFiles {
			return
		}
		patterns = append(patterns[:len(patterns):len(patterns)], ignoreFilePatterns(files, abs, domain)...)
		matcher := gitignore.NewMatcher(patterns)
		entries, err := files.ReadDir(abs)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			path := append(append([]string(nil), domain...), name)
			child := filepath.Join(abs, name)
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				continue // the walker does not follow links (WalkBuilder's default)
			}
			if matcher.Match(path, isDir) {
				continue
			}
			switch {
			case isDir:
				if maxDepth == 0 || depth+1 < maxDepth {
					walk(child, path, patterns, depth+1)
				}
			case e.Type().IsRegular():
				if len(out) < maxAnalyzeFiles {
					out = append(out, child)
				}
			}
		}
	}
	walk(dir, nil, nil, 0)
	return out
}

// ignoreFilePatterns reads a folder's .gitignore and .ignore (regular files, size-capped, inside the root).
func ignoreFilePatterns(files *tools.Files, abs string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, name := range []string{".gitignore", ".ignore"} {
		data, err := files.ReadFile(filepath.Join(abs, name), 1<<20)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return ps
}

// String names the extension in logs.
func (a *Analyze) String() string { return fmt.Sprintf("analyze(%s)", a.WorkDir) }
