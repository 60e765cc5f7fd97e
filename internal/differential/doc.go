// Package differential measures how often goose-ls agrees with the engines goose really runs: generated
// templates and mutated corpus recipes go to goose-ls (recipe.Check, recipe/render) and to the references
// (mj-oracle 2.24: minijinja 2.24.0, what goose resolves today, with goose's features; libyaml through
// python3-yaml plus serde_yaml's two rules), and the answers are compared per dimension (verdicts,
// variables, outputs, messages, and goose's parameter verdict on recipes that load templates), each
// disagreement grouped into a class and shrunk to a small reproduction.
//
// Listed exceptions (compared on purpose in a way that is not plain equality):
//   - minijinja panics on a few inputs (negative-step slices of empty values); goose would crash there.
//     goose-ls must give an honest error instead: any error agrees, and no message is compared.
//   - goose-ls may add a hint in parentheses after libyaml's words ("did not find expected key (a value
//     that starts with `{{` must be quoted …)"): the YAML message agrees when libyaml's text comes first.
//   - The run-time render is compared only where goose reaches it: after a clean validation (syntax and
//     validation render), as `goose run` validates first. YAML is compared only where goose parses it
//     (no template error), on the text goose parses (pre-processed, or rendered for extends/include).
//   - debug() lists the templates a render loaded: goose in its hash map's order (random from run to
//     run when there are several), goose-ls in load order; outputs compare that list as a set.
//   - mj-oracle's loader is goose 1.38's (the folder joined to the name, any path read); goose's today
//     refuses names that are absolute, have a `..` component or lead out of the folder through a symlink
//     (goose-today.md §2.2 item 4). The loads generator (genloads.go) names such templates beside the
//     folder; where the oracle's render reached one, goose's answer is taken from that rule instead
//     (refusals.go): the validation render fails at the statement with goose's loader message.
//   - The parameter verdict (missing and unnecessary definitions) is compared on the generated loads
//     recipes only, whose parameter keys are known from the text goose parses; mj-oracle gives the
//     variables (the union over every template the validation render loaded), the keys come from that text.
package differential
