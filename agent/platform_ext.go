// goose 1.38's in-process platform extensions (todo, skills, tom, analyze): constructors by name.

package agent

// platformExtension returns goose's in-process platform extension called name (goose's config key, e.g.
// "todo"), or false when goose-ls does not implement it. developer and summon are built elsewhere.
func platformExtension(name string, opts *RunOptions) (Extension, bool) {
	_ = name
	_ = opts
	return nil, false
}
