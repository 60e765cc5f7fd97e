// The system prompt: goose's base text, the extensions' instructions, then "Additional Instructions"
// (recipe instructions, final-output instructions, hint files).

package agent

import (
	"errors"
	"io/fs"
	"log/slog"
	"strings"

	"github.com/goose-ls/goose-ls/agent/tools"
)

const basePrompt = `You are a general-purpose AI agent called goose, running inside goose-ls. You help users with software engineering and other tasks, using the tools of the extensions below.

# Extensions

Extensions give you tools. Their instructions follow.

`

// hintFiles are goose's context files, read from the working directory.
var hintFiles = []string{".goosehints", "AGENTS.md"}

// SystemPrompt assembles the prompt for a run.
func SystemPrompt(box *Toolbox, instructions string, fo *FinalOutput, workDir string) string {
	var b strings.Builder
	b.WriteString(basePrompt)
	b.WriteString(strings.ReplaceAll(box.Instructions(), "{{WORKING_DIR}}", workDir))
	b.WriteString("# Response Guidelines\n\nUse Markdown. Be concise; say what you changed and how you verified it.\n")
	var extras []string
	if s := strings.TrimSpace(instructions); s != "" {
		extras = append(extras, s)
	}
	if fo != nil {
		extras = append(extras, fo.SystemPrompt())
	}
	// hint files are read through the workspace's os.Root: regular files inside it, under a size cap (a
	// link out, a FIFO or a device is not read, so its content never reaches the provider)
	extras = append(extras, readHints(workDir)...)
	if len(extras) > 0 {
		b.WriteString("\n# Additional Instructions:\n\n")
		b.WriteString(strings.Join(extras, "\n\n"))
		b.WriteString("\n")
	}
	return stripTags(b.String())
}

// stripTags removes Unicode tag characters (U+E0000–U+E007F), which can hide instructions.
func stripTags(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 0xE0000 && r <= 0xE007F {
			return -1
		}
		return r
	}, s)
}

// readHints reads goose's hint files from the working folder through its os.Root (regular files only,
// size-capped), as the main prompt does.
func readHints(workDir string) []string {
	const maxHintBytes = 256 << 10
	files, err := tools.OpenFiles(workDir)
	if err != nil {
		return nil
	}
	defer files.Close()
	var out []string
	for _, name := range hintFiles {
		data, err := files.ReadFile(name, maxHintBytes)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				slog.Warn("hint file not read", "file", name, "err", err)
			}
			continue
		}
		if text := strings.TrimSpace(string(data)); text != "" {
			out = append(out, "### Project Hints ("+name+")\n"+text)
		}
	}
	return out
}
