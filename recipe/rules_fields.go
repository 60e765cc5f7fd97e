// Unknown keys: goose ignores them silently, so a misspelt key silently changes what a recipe does.

package recipe

import (
	"fmt"
	"strings"

	"github.com/goose-ls/goose-ls/recipe/schema"
	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// commonMistakes maps keys people write to the key goose reads, per object.
var commonMistakes = map[string]map[string]string{
	"parameter": {"value": "default", "type": "input_type", "name": "key", "required": "requirement", "choices": "options"},
	"extension": {"env": "envs", "command": "cmd", "arguments": "args", "url": "uri", "tools": "available_tools"},
	"recipe":    {"params": "parameters", "subrecipes": "sub_recipes", "system": "instructions", "extension": "extensions"},
}

func (f *File) checkUnknownFields() {
	sc := schemaObjects()
	f.unknownIn(f.Tree, sc.Objects["recipe"], "")
	for _, name := range []string{"settings", "author", "response", "retry"} {
		if n := f.Tree.Get(name); n != nil {
			f.unknownIn(n, sc.Objects[name], name)
		}
	}
	if retry := f.Tree.Get("retry"); retry != nil {
		if checks := retry.Get("checks"); checks != nil && checks.Kind == yamltree.Seq {
			for _, c := range checks.Items {
				f.unknownIn(c, sc.Objects["check"], "retry.checks")
			}
		}
	}
	for _, p := range f.Recipe.Parameters {
		f.unknownIn(p.Node, sc.Objects["parameter"], p.Path())
	}
	for _, s := range f.Recipe.SubRecipes {
		f.unknownIn(s.Node, sc.Objects["sub_recipe"], fmt.Sprintf("sub_recipes[%d]", s.Index))
	}
	ext := sc.Objects["extension"]
	for _, e := range f.Recipe.Extensions {
		allowed := ext.FieldsByType[e.Type]
		if allowed == nil {
			continue // unknown type: the schema reports it
		}
		f.unknownKeys(e.Node, allowed, "extension", fmt.Sprintf("extensions[%d]", e.Index), e.Type)
	}
}

func (f *File) unknownIn(n *Node, obj *schema.Object, path string) {
	if n == nil || obj == nil || n.Kind != yamltree.Map {
		return
	}
	f.unknownKeys(n, obj.Names(), obj.Name, path, "")
}

func (f *File) unknownKeys(n *Node, allowed []string, objName, path, extType string) {
	if n == nil || n.Kind != yamltree.Map {
		return
	}
	known := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		known[a] = true
	}
	for _, p := range n.Pairs {
		k := p.Key.Value
		if known[k] || (f.Wrapper && objName == "recipe" && k == "recipe") {
			continue
		}
		where := path
		if where == "" {
			where = "the recipe"
		}
		msg := fmt.Sprintf("unknown field `%s` in %s: goose ignores it", k, where)
		if extType != "" {
			msg = fmt.Sprintf("unknown field `%s` for a %s extension in %s: goose ignores it", k, extType, where)
		}
		suggestion := commonMistakes[objName][k]
		if suggestion != "" && !known[suggestion] {
			suggestion = ""
		}
		if suggestion == "" {
			suggestion = closest(k, allowed)
		}
		if suggestion != "" {
			if n.Get(suggestion) != nil {
				msg += fmt.Sprintf(" (`%s` is already set)", suggestion)
				suggestion = ""
			} else {
				msg += fmt.Sprintf("; did you mean `%s`?", suggestion)
			}
		}
		if suggestion == "available_tools" || (objName == "extension" && strings.Contains(k, "tool") && k != "tools") {
			msg += " Because of this the extension offers ALL of its tools to the agent."
		}
		d := Diagnostic{R: p.Key.R, Severity: SeverityWarning, Code: CodeUnknownField, Message: msg}
		if suggestion != "" {
			d.Data = map[string]string{"suggestion": suggestion}
		}
		f.add(d)
	}
}

// closest returns the candidate nearest to s by edit distance when it is near enough to be a typo.
func closest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := editDistance(ls, strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) <= 4 {
		limit = 1
	}
	if len(s) >= 10 {
		limit = 3
	}
	if bestD <= limit && bestD > 0 || (bestD == 0 && best != s) {
		return best
	}
	return ""
}

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return 1 << 20
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
