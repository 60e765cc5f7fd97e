// Sub-recipe rules: the child file exists (goose fails only at run time), `values` name the child's
// parameters, and the child's required parameters get a value.

package recipe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/goose-ls/goose-ls/recipe/source"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

var recipeDirRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{-?\s*recipe_dir\s*-?\}\}`) })

// ResolveSubRecipePath returns the child's path for a sub-recipe `path` value; ok is false when the
// value holds other template expressions that only a run can resolve.
func ResolveSubRecipePath(recipeDir, value string) (string, bool) {
	v := recipeDirRE().ReplaceAllString(value, recipeDir)
	if strings.Contains(v, "{{") || strings.Contains(v, "{%") {
		return "", false
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(recipeDir, v)
	}
	return filepath.Clean(v), true
}

// ChildParameter is a sub-recipe's parameter as the parent sees it.
type ChildParameter struct {
	Key, InputType, Requirement, Description string
	HasDefault                               bool
}

// ChildInfo is what a parent needs to know about a sub-recipe file. It is shared between checks (see
// childInfos): read it, never change it.
type ChildInfo struct {
	Title, Description string
	Parameters         []ChildParameter
}

// errNotRecipeName: goose's loader reads only .yaml, .yml and .json files as recipes.
var errNotRecipeName = errors.New("not a .yaml or .json file")

// errNotRecipe: the file parses but is not a recipe (no `title`); nothing of it is shown.
var errNotRecipe = errors.New("not a recipe")

// ReadChild parses a sub-recipe's parameters without running its templates. The file is read only inside
// the recipe's roots (a regular file, at most MaxLinkedFileSize bytes) and only if its name is a recipe's;
// errors never quote the file.
func (f *File) ReadChild(fsys FS, path string) (*ChildInfo, error) {
	return f.readChild(f.reader(fsys), path)
}

// readChild is ReadChild through reader (whose roots may stay open for a whole check).
func (f *File) readChild(reader confinedReader, path string) (*ChildInfo, error) {
	if !reader.contains(path) {
		return nil, fmt.Errorf("%s: %w", path, ErrOutsideRoots)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
	default:
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), errNotRecipeName)
	}
	data, err := reader.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return childInfos.get(data)
}

// parseChildInfo reads what a parent needs from a sub-recipe's text (a pure function of the text, so its
// result is shared through childInfos).
func parseChildInfo(data []byte) (*ChildInfo, error) {
	doc, err := yamltree.Parse(source.NewLineIndex(data))
	if err != nil {
		var ye *yamltree.Error
		if errors.As(err, &ye) {
			return nil, fmt.Errorf("YAML syntax error on line %d", source.NewLineIndex(data).Line(ye.Offset)+1)
		}
		return nil, errors.New("YAML syntax error")
	}
	root := doc.Root
	if root != nil && root.Get("recipe") != nil {
		root = root.Get("recipe")
	}
	if root == nil || root.Kind != yamltree.Map || root.Get("title") == nil {
		return nil, errNotRecipe
	}
	return summarizeChild(buildRecipe(root)), nil
}

// summarizeChild is what a parent needs of a sub-recipe's model (strings only: no ranges, no nodes).
func summarizeChild(r *Recipe) *ChildInfo {
	info := &ChildInfo{}
	info.Title, _ = scalarText(r.Title)
	info.Description, _ = scalarText(r.Description)
	for _, p := range r.Parameters {
		info.Parameters = append(info.Parameters, ChildParameter{Key: p.Key, InputType: p.InputType,
			Requirement: p.Requirement, Description: p.Description, HasDefault: p.Default != nil})
	}
	return info
}

// childReadProblem is the diagnostic for a sub-recipe that was not read or is not a recipe; it names the
// path as written and the reason, never the file's content.
func childReadProblem(s *SubRecipe, err error) Diagnostic {
	d := Diagnostic{R: s.PathNode.R, Severity: SeverityWarning, Code: CodeSubrecipeInvalid}
	switch {
	case errors.Is(err, ErrOutsideRoots):
		d.Severity, d.Code = SeverityInformation, CodeFileOutsideWorkspace
		d.Message = fmt.Sprintf("not checked: outside the workspace: %s", s.Path)
	case errors.Is(err, os.ErrNotExist):
		d.Code = CodeSubrecipeNotFound
		d.Message = fmt.Sprintf("Sub-recipe file does not exist: %s (goose fails when the recipe runs)", s.Path)
	case errors.Is(err, errNotRecipeName):
		d.Message = fmt.Sprintf("sub-recipe %s is not a .yaml or .json file: goose's loader refuses it", s.Path)
	case errors.Is(err, ErrNotRegular), errors.Is(err, ErrTooLarge), errors.Is(err, ErrSymlinkLoop), errors.Is(err, ErrUnreadable):
		d.Message = fmt.Sprintf("sub-recipe %s cannot be read: %s", s.Path, ReadError(err))
	default: // parse errors and errNotRecipe, worded without the file's text
		d.Message = fmt.Sprintf("sub-recipe %s cannot be read as a recipe: %v", s.Path, err)
	}
	return d
}

func (f *File) checkSubRecipes(fsys FS, opened *OpenRoots) {
	// the folders are opened once for all the sub-recipes of this check (or of the job, when given)
	reader := f.reader(fsys)
	reader.opened = opened
	if opened == nil {
		reader.opened = NewOpenRoots()
		defer reader.opened.Close()
	}
	for _, s := range f.Recipe.SubRecipes {
		if s.PathNode == nil || s.Path == "" {
			continue
		}
		path, ok := ResolveSubRecipePath(f.Dir(), s.Path)
		if !ok {
			continue
		}
		child, err := f.readChild(reader, path)
		if err != nil {
			f.add(childReadProblem(s, err))
			continue
		}
		if ext := strings.ToLower(filepath.Ext(path)); ext != ".yaml" && ext != ".json" {
			f.add(Diagnostic{R: s.PathNode.R, Severity: SeverityWarning, Code: CodeSubrecipeInvalid,
				Message: fmt.Sprintf("sub-recipe %s is not a .yaml or .json file: goose's loader refuses it", s.Path)})
		}
		keys := make([]string, 0, len(child.Parameters))
		byKey := map[string]bool{}
		for _, p := range child.Parameters {
			keys = append(keys, p.Key)
			byKey[p.Key] = true
		}
		given := map[string]bool{}
		if s.Values != nil && s.Values.Kind == yamltree.Map {
			for _, p := range s.Values.Pairs {
				given[p.Key.Value] = true
				if byKey[p.Key.Value] {
					continue
				}
				msg := fmt.Sprintf("sub-recipe %s has no parameter `%s`", s.Name, p.Key.Value)
				d := Diagnostic{R: p.Key.R, Severity: SeverityWarning, Code: CodeSubrecipeUnknownValue}
				if sug := closest(p.Key.Value, keys); sug != "" {
					msg += fmt.Sprintf("; did you mean `%s`?", sug)
					d.Data = map[string]string{"suggestion": sug}
				} else if len(keys) > 0 {
					msg += " (it has: " + strings.Join(keys, ", ") + ")"
				}
				d.Message = msg
				f.add(d)
			}
		}
		var missing []string
		for _, p := range child.Parameters {
			if p.Requirement == "required" && !p.HasDefault && !given[p.Key] {
				missing = append(missing, p.Key)
			}
		}
		if len(missing) > 0 {
			r := fieldRange(s.Node, "name")
			f.add(Diagnostic{R: r, Severity: SeverityInformation, Code: CodeSubrecipeMissingValue,
				Message: fmt.Sprintf("sub-recipe %s: required parameters without a value in `values`: %s (the agent must supply them on every call)", s.Name, strings.Join(missing, ", ")),
				Data:    map[string]string{"missing": strings.Join(missing, ",")}})
		}
	}
}

// checkHiddenUnicode flags Unicode tag characters (U+E0000–U+E007F), invisible text goose treats as a
// prompt-injection risk.
func (f *File) checkHiddenUnicode() {
	text := f.Text
	for i := 0; i+3 < len(text); i++ {
		// U+E0000..U+E007F encode as F3 A0 80 80 .. F3 A0 81 BF
		if text[i] != 0xF3 || text[i+1] != 0xA0 || (text[i+2] != 0x80 && text[i+2] != 0x81) {
			continue
		}
		start := i
		for i+3 < len(text) && text[i] == 0xF3 && text[i+1] == 0xA0 && (text[i+2] == 0x80 || text[i+2] == 0x81) {
			i += 4
		}
		f.warnf(Range{Start: start, End: i}, CodeHiddenUnicode,
			"hidden Unicode tag characters (U+E0000–U+E007F, %d of them): invisible text that can smuggle instructions; goose flags such recipes as potentially harmful", (i-start)/4)
		i--
	}
}
