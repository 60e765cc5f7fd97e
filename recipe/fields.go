// Which schema object a YAML path denotes, so editors can offer the right keys, values and docs.

package recipe

import "github.com/goose-ls/goose-ls/recipe/schema"

// ObjectAt returns the schema object of the mapping at path (nil when the path is not an object).
func ObjectAt(path []Step) *schema.Object {
	objs := schemaObjects().Objects
	obj := objs["recipe"]
	for i := 0; i < len(path); i++ {
		st := path[i]
		if obj == nil || st.Index >= 0 {
			return nil
		}
		f := obj.Field(st.Key)
		if f == nil || f.Def == "" {
			return nil
		}
		next := objs[f.Def]
		if next == nil {
			return nil
		}
		// lists of objects: the index step is part of reaching the object
		if i+1 < len(path) && path[i+1].Index >= 0 {
			i++
		} else if st.Key == "parameters" || st.Key == "extensions" || st.Key == "sub_recipes" || st.Key == "checks" {
			return nil // the list itself
		}
		obj = next
	}
	return obj
}

// FieldAt returns the schema field a mapping key at path denotes (path ends with the key's step).
func FieldAt(path []Step) *schema.Field {
	if len(path) == 0 || path[len(path)-1].Index >= 0 {
		return nil
	}
	obj := ObjectAt(path[:len(path)-1])
	if obj == nil {
		return nil
	}
	return obj.Field(path[len(path)-1].Key)
}
