// `response.json_schema` compiled without loading anything: only refs inside the schema resolve; a `$ref` to
// another file or a URL gets an information diagnostic at its value and is left out of the check.

package recipe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/goose-ls/goose-ls/recipe/yamltree"
)

// ErrExternalRef is the refusal of every document a JSON schema refers to outside itself.
var ErrExternalRef = errors.New("loading of external $ref documents is disabled")

// RefuseExternalRef is a jsonschema LoadURL that loads nothing: no file, no URL.
func RefuseExternalRef(url string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%s: %w", url, ErrExternalRef)
}

// NewSchemaCompiler is a jsonschema compiler that resolves only refs inside the schemas added to it.
func NewSchemaCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.LoadURL = RefuseExternalRef
	return c
}

// refKeywords are the keywords whose value is a reference to resolve.
var refKeywords = map[string]bool{"$ref": true, "$dynamicRef": true, "$recursiveRef": true}

// isExternalRef reports whether a ref leaves the document (anything but a fragment of this document).
func isExternalRef(ref string) bool { return !strings.HasPrefix(ref, "#") }

// externalRefs lists the pairs below n whose reference keyword names another document.
func externalRefs(n *Node, out []*yamltree.Pair) []*yamltree.Pair {
	if n == nil {
		return out
	}
	for _, p := range n.Pairs {
		if refKeywords[p.Key.Value] && p.Value != nil && p.Value.Kind == yamltree.Scalar && isExternalRef(p.Value.Value) {
			out = append(out, p)
			continue
		}
		out = externalRefs(p.Value, out)
	}
	for _, it := range n.Items {
		out = externalRefs(it, out)
	}
	return out
}

// withoutExternalRefs is the JSON instance of n with external reference keywords left out.
func withoutExternalRefs(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, val := range t {
			if s, ok := val.(string); ok && refKeywords[k] && isExternalRef(s) {
				continue
			}
			m[k] = withoutExternalRefs(val)
		}
		return m
	case []any:
		s := make([]any, len(t))
		for i, it := range t {
			s[i] = withoutExternalRefs(it)
		}
		return s
	}
	return v
}

// checkResponseSchemaCompiles compiles json_schema (a non-empty map) as goose validates it: Draft 2020-12,
// nothing loaded from outside.
func (f *File) checkResponseSchemaCompiles(resp, js *Node) {
	external := externalRefs(js, nil)
	for _, p := range external {
		f.add(Diagnostic{R: p.Value.R, Severity: SeverityInformation, Code: CodeResponseSchemaExternal,
			Message: fmt.Sprintf("not checked: `%s` to another document (%s); goose-ls loads no files or URLs for a JSON schema, only refs inside it resolve", p.Key.Value, p.Value.Value)})
	}
	data, err := json.Marshal(withoutExternalRefs(instance(js)))
	if err != nil {
		return
	}
	c := NewSchemaCompiler()
	c.Draft = jsonschema.Draft2020
	const url = "file:///response.schema.json"
	if err := c.AddResource(url, bytes.NewReader(data)); err != nil {
		return
	}
	_, err = c.Compile(url)
	switch {
	case err == nil:
	case errors.Is(err, ErrExternalRef):
		// a ref made external by `$id` or a `$schema` meta-schema that is not built in
		if len(external) == 0 {
			f.add(Diagnostic{R: pairRange(resp.Pair("json_schema")), Severity: SeverityInformation, Code: CodeResponseSchemaExternal,
				Message: "not checked: the schema refers to another document (through `$id` or `$schema`); goose-ls loads no files or URLs for a JSON schema"})
		}
	default:
		msg := err.Error()
		if i := strings.Index(msg, "\n"); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		msg = strings.TrimPrefix(msg, "jsonschema: ")
		f.errorf(pairRange(resp.Pair("json_schema")), CodeResponseSchemaInvalid, "JSON schema validation failed: %s", msg)
	}
}
