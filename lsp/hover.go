// textDocument/hover: parameter details on template variables, schema docs on keys and enum values,
// the child recipe on a sub-recipe path.

package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/recipe"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

func init() { requests["textDocument/hover"] = hover }

func hover(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
	snap, off, err := positionParams(ctx, s, raw)
	if err != nil || snap == nil {
		return nil, err
	}
	f, utf8 := snap.File, snap.UTF8
	text, r := hoverText(f, off, overlayFS{s})
	if text == "" {
		return nil, nil
	}
	rng := toRange(f.Lines, r, utf8)
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: text}, Range: &rng}, nil
}

func hoverText(f *recipe.File, off int, fsys recipe.FS) (string, recipe.Range) {
	loc := f.Locate(off)
	if u := loc.Use; u != nil {
		return useDoc(f, u.Name, u.Root), f.UseRange(u)
	}
	if loc.Pair == nil {
		return "", recipe.Range{}
	}
	field := recipe.FieldAt(loc.Path[:keyDepth(loc)])
	if loc.OnKey && field != nil {
		return fmt.Sprintf("**%s**\n\n%s", loc.Pair.Key.Value, field.Description), loc.Pair.Key.R
	}
	if !loc.OnKey && field != nil && loc.Node != nil && loc.Node.Kind == yamltree.Scalar {
		if doc := field.EnumDocs[loc.Node.Value]; doc != "" {
			return fmt.Sprintf("**%s**: `%s`\n\n%s", field.Name, loc.Node.Value, doc), loc.Node.R
		}
		if field.Name == "path" && len(loc.Path) >= 2 && loc.Path[0].Key == "sub_recipes" {
			return subRecipeDoc(f, loc.Node.Value, fsys), loc.Node.R
		}
	}
	return "", recipe.Range{}
}

// keyDepth is the length of the path up to the entry's key.
func keyDepth(loc *recipe.Location) int {
	for i := len(loc.Path) - 1; i >= 0; i-- {
		if loc.Path[i].Index < 0 && loc.Path[i].Key == loc.Pair.Key.Value {
			return i + 1
		}
	}
	return len(loc.Path)
}

func useDoc(f *recipe.File, name, root string) string {
	if name == recipe.BuiltinRecipeDir {
		return "**recipe_dir** (built in)\n\nThe folder that holds this recipe: " + "`" + f.Dir() + "`"
	}
	p := f.Recipe.Param(name)
	if p == nil {
		if rp := f.Recipe.Param(root); rp != nil && name != root {
			return fmt.Sprintf("**%s**: parameter `%s` is a string; `%s` has no value", name, root, name)
		}
		return fmt.Sprintf("**%s**: no parameter of this name (goose refuses the recipe)", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s, %s\n\n", p.Key, orDash(p.InputType), orDash(p.Requirement))
	if p.Description != "" {
		b.WriteString(p.Description + "\n\n")
	}
	if p.Default != nil {
		fmt.Fprintf(&b, "Default: `%s`\n\n", p.Default.Value)
	}
	if p.Options != nil && p.Options.Kind == yamltree.Seq {
		var opts []string
		for _, o := range p.Options.Items {
			opts = append(opts, "`"+o.Value+"`")
		}
		b.WriteString("Options: " + strings.Join(opts, ", "))
	}
	return strings.TrimSpace(b.String())
}

func orDash(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func subRecipeDoc(f *recipe.File, value string, fsys recipe.FS) string {
	path, ok := recipe.ResolveSubRecipePath(f.Dir(), value)
	if !ok {
		return ""
	}
	child, err := f.ReadChild(fsys, path)
	if err != nil {
		return fmt.Sprintf("`%s`: %v", filepath.Base(path), err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**\n\n%s\n\n", child.Title, child.Description)
	if len(child.Parameters) > 0 {
		b.WriteString("Parameters:\n")
		for _, cp := range child.Parameters {
			fmt.Fprintf(&b, "- `%s` (%s, %s) %s\n", cp.Key, cp.InputType, cp.Requirement, cp.Description)
		}
	}
	return strings.TrimSpace(b.String())
}
