// The edits a user makes to the heavy recipe, as an editor sends them (one range replaced on one line):
// typing into the instructions and the edits that change the recipe's structure, each with its undo.

package testgen

import (
	"fmt"
	"strings"
)

// Edit replaces the characters [Start, End) of line Line (0-based, ASCII) by Text.
type Edit struct {
	Kind             string
	Line, Start, End int
	Text             string
}

// Edit kinds; the structural ones change what the YAML or schema stages see, typing changes prose only.
const (
	EditTyping       = "typing"        // a character typed into an instructions line (a block scalar)
	EditRenameKey    = "rename-key"    // a top-level key renamed (`parameters:` → `parameter:`)
	EditDedent       = "dedent"        // an instructions line dedented out of its block scalar
	EditEnumTypo     = "enum-typo"     // a typo in a parameter's enum value (`optional` → `optinal`)
	EditUnclosedFlow = "unclosed-flow" // a flow sequence's closing bracket deleted
)

// Structural reports whether e changes the recipe's structure (everything but typing).
func (e Edit) Structural() bool { return e.Kind != EditTyping }

// Apply returns text with e applied.
func (e Edit) Apply(text string) string {
	ls := lineStart(text, e.Line)
	return text[:ls+e.Start] + e.Text + text[ls+e.End:]
}

// Undo returns the edit that restores text (the text e was made on).
func (e Edit) Undo(text string) Edit {
	ls := lineStart(text, e.Line)
	return Edit{Kind: e.Kind + " undo", Line: e.Line, Start: e.Start, End: e.Start + len(e.Text), Text: text[ls+e.Start : ls+e.End]}
}

func lineStart(text string, line int) int {
	p := 0
	for i := 0; i < line; i++ {
		p += strings.IndexByte(text[p:], '\n') + 1
	}
	return p
}

// HeavyEdits returns one edit of each kind for the heavy recipe's text h (testgen.HeavyRecipe().Text).
func HeavyEdits(h string) []Edit {
	lines := strings.Split(h, "\n")
	find := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return i
			}
		}
		panic(fmt.Sprintf("testgen: no line starts with %q in the heavy recipe", prefix))
	}
	prose := HeavyInstructionsFirstLine + 2 // "  Keep the changes small, …"
	typed := HeavyInstructionsFirstLine + 8 // "  Plain prose follows …" (another line than the dedented one)
	param := find("  - key: p90") + 2       // "    requirement: optional"
	flow := find(`    args: ["-y", "server-2"]`)
	return []Edit{
		{Kind: EditTyping, Line: typed, Start: 2, End: 2, Text: "x"},
		{Kind: EditRenameKey, Line: find("parameters:"), Start: 9, End: 10, Text: ""},
		{Kind: EditDedent, Line: prose, Start: 0, End: 2, Text: ""},
		{Kind: EditEnumTypo, Line: param, Start: 19, End: 20, Text: ""},
		{Kind: EditUnclosedFlow, Line: flow, Start: len(lines[flow]) - 1, End: len(lines[flow]), Text: ""},
	}
}
