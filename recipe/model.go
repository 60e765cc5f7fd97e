// Typed view of a recipe over its YAML tree: each field keeps its node so rules and editors get ranges.

package recipe

import (
	"strconv"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// Node is a YAML node with a byte range.
type Node = yamltree.Node

// Recipe is the parsed recipe; fields are nil when absent or of the wrong shape.
type Recipe struct {
	Root         *Node
	Title        *Node
	Description  *Node
	Instructions *Node
	Prompt       *Node
	Parameters   []*Parameter
	Extensions   []*Extension
	SubRecipes   []*SubRecipe
	Settings     *Node
	Retry        *Node
	Response     *Node
}

// Parameter is one `parameters` entry.
type Parameter struct {
	Index       int
	Node        *Node // the entry's mapping
	Key         string
	KeyNode     *Node // value node of `key:`
	InputType   string
	Requirement string
	Description string
	Default     *Node // nil when absent or null
	Options     *Node
}

// Path is serde's path of the entry, e.g. parameters[2].
func (p *Parameter) Path() string { return "parameters[" + strconv.Itoa(p.Index) + "]" }

// Extension is one `extensions` entry.
type Extension struct {
	Index int
	Node  *Node
	Type  string
	Name  string
}

// SubRecipe is one `sub_recipes` entry.
type SubRecipe struct {
	Index    int
	Node     *Node
	Name     string
	NameNode *Node
	Path     string
	PathNode *Node
	Values   *Node
}

// scalarText is the text serde would give a string field (plain scalars are coerced); ok is false for
// collections and null.
func scalarText(n *Node) (string, bool) {
	if n == nil || n.Kind != yamltree.Scalar || n.Type == yamltree.Null {
		return "", false
	}
	return n.Value, true
}

func buildRecipe(root *Node) *Recipe {
	r := &Recipe{Root: root}
	if root == nil || root.Kind != yamltree.Map {
		return r
	}
	r.Title = root.Get("title")
	r.Description = root.Get("description")
	r.Instructions = root.Get("instructions")
	r.Prompt = root.Get("prompt")
	r.Settings = root.Get("settings")
	r.Retry = root.Get("retry")
	r.Response = root.Get("response")
	if ps := root.Get("parameters"); ps != nil && ps.Kind == yamltree.Seq {
		for i, item := range ps.Items {
			if item.Kind != yamltree.Map {
				continue
			}
			p := &Parameter{Index: i, Node: item, KeyNode: item.Get("key")}
			p.Key, _ = scalarText(p.KeyNode)
			p.InputType, _ = scalarText(item.Get("input_type"))
			p.Requirement, _ = scalarText(item.Get("requirement"))
			p.Description, _ = scalarText(item.Get("description"))
			if d := item.Get("default"); d != nil && !d.IsNull() {
				p.Default = d
			}
			p.Options = item.Get("options")
			r.Parameters = append(r.Parameters, p)
		}
	}
	if es := root.Get("extensions"); es != nil && es.Kind == yamltree.Seq {
		for i, item := range es.Items {
			if item.Kind != yamltree.Map {
				continue
			}
			e := &Extension{Index: i, Node: item}
			e.Type, _ = scalarText(item.Get("type"))
			e.Name, _ = scalarText(item.Get("name"))
			r.Extensions = append(r.Extensions, e)
		}
	}
	if ss := root.Get("sub_recipes"); ss != nil && ss.Kind == yamltree.Seq {
		for i, item := range ss.Items {
			if item.Kind != yamltree.Map {
				continue
			}
			s := &SubRecipe{Index: i, Node: item, NameNode: item.Get("name"), PathNode: item.Get("path"), Values: item.Get("values")}
			s.Name, _ = scalarText(s.NameNode)
			s.Path, _ = scalarText(s.PathNode)
			r.SubRecipes = append(r.SubRecipes, s)
		}
	}
	return r
}

// Param returns the first parameter with key, or nil.
func (r *Recipe) Param(key string) *Parameter {
	if r == nil { // a check stopped before the model was built
		return nil
	}
	for _, p := range r.Parameters {
		if p.Key == key {
			return p
		}
	}
	return nil
}

// entryRange is where a diagnostic about a whole list entry goes: its first key line.
func entryRange(n *Node) Range {
	if n == nil {
		return Range{}
	}
	if n.Kind == yamltree.Map && len(n.Pairs) > 0 {
		p := n.Pairs[0]
		end := p.Value.R.End
		if p.Value.Kind != yamltree.Scalar || p.Value.Style == yamltree.Literal || p.Value.Style == yamltree.Folded {
			end = p.Key.R.End
		}
		return Range{Start: p.Key.R.Start, End: end}
	}
	return n.R
}

// fieldRange is where a diagnostic about one field of an entry goes: its `key: value` line when the
// field is present, else the entry's first line.
func fieldRange(n *Node, key string) Range {
	if n != nil {
		if p := n.Pair(key); p != nil {
			return pairRange(p)
		}
	}
	return entryRange(n)
}

// pairRange covers `key: value` of a mapping entry (just the key for block values).
func pairRange(p *yamltree.Pair) Range {
	end := p.Value.R.End
	if p.Value.Kind != yamltree.Scalar || p.Value.Style == yamltree.Literal || p.Value.Style == yamltree.Folded || end < p.Key.R.End {
		end = p.Key.R.End
	}
	return Range{Start: p.Key.R.Start, End: end}
}
