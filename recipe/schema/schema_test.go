// Tests and benchmarks for the embedded schema: it compiles, indexes its objects, and reports violations.

package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

func TestLoadAndIndex(t *testing.T) {
	s, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"recipe", "parameter", "extension", "settings", "retry", "check", "response", "sub_recipe", "author"} {
		if s.Objects[name] == nil {
			t.Errorf("object %s not indexed", name)
		}
	}
	if f := s.Objects["parameter"].Field("input_type"); f == nil || len(f.Enum) != 6 || f.EnumDocs["file"] == "" {
		t.Errorf("input_type field not indexed with its enum and docs: %+v", f)
	}
	if got := s.RequiredByType["stdio"]; len(got) != 3 {
		t.Errorf("stdio required fields = %v", got)
	}
	if s.Objects["recipe"].Names()[0] != "version" {
		t.Errorf("recipe fields not in schema order: %v", s.Objects["recipe"].Names())
	}
}

func TestValidateViolations(t *testing.T) {
	s := MustLoad()
	var inst any
	_ = json.Unmarshal([]byte(`{"description": "d", "prompt": "p", "settings": {"temperature": "hot"}, "parameters": [{"key": "k", "input_type": "strin", "requirement": "required"}]}`), &inst)
	got := map[string]bool{}
	for _, v := range s.Validate(inst) {
		got[v.Keyword] = true
		if v.Keyword == "type" && v.Expected != "f32" {
			t.Errorf("expected wording for temperature = %q, want f32", v.Expected)
		}
	}
	for _, k := range []string{"required", "type", "enum"} {
		if !got[k] {
			t.Errorf("no %s violation reported (got %v)", k, got)
		}
	}
}

func BenchmarkValidateSmall(b *testing.B) {
	s := MustLoad()
	var inst any
	_ = json.Unmarshal([]byte(`{"version": "1.0.0", "title": "t", "description": "d", "instructions": "i", "prompt": "p",
	  "parameters": [{"key": "a", "input_type": "string", "requirement": "required", "description": "x"},
	                 {"key": "b", "input_type": "string", "requirement": "optional", "default": ".", "description": "x"},
	                 {"key": "c", "input_type": "boolean", "requirement": "optional", "default": "false", "description": "x"}],
	  "extensions": [{"type": "builtin", "name": "developer", "timeout": 300}, {"type": "stdio", "name": "git", "cmd": "uvx", "args": ["x"], "timeout": 120}],
	  "settings": {"goose_provider": "anthropic", "temperature": 0.3}, "retry": {"max_retries": 2, "checks": [{"type": "shell", "command": "make"}]}}`), &inst)
	for b.Loop() {
		if v := s.Validate(inst); len(v) > 0 {
			b.Fatal(v)
		}
	}
}

// The schema is compiled without meta-schema validation at run time (newCompiler); this does it once.
func TestEmbeddedSchemaIsValidDraft7(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	compact, _, err := stripDiscriminator(doc)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string][]byte{"published": raw, "compiled": compact} {
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft7
		if err := c.AddResource(resourceURL, bytes.NewReader(text)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := c.Compile(resourceURL); err != nil {
			t.Errorf("%s schema is not a valid draft-07 schema: %v", name, err)
		}
	}
	bad := jsonschema.NewCompiler()
	bad.Draft = jsonschema.Draft7
	if err := bad.AddResource(resourceURL, strings.NewReader(`{"type": 3}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := bad.Compile(resourceURL); err == nil {
		t.Error("a schema with `type: 3` compiled: the meta-schema validation this test relies on is off")
	}
}

// keyOrderReference is the json.Decoder walk keyOrder replaced (it was a fifth of every start-up's
// schema load); the test holds the scanner to it.
func keyOrderReference(text []byte) map[string][]string {
	out := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(text))
	var walk func(ptr string) error
	walk = func(ptr string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k := fmt.Sprint(kt)
				out[ptr] = append(out[ptr], k)
				if err := walk(ptr + "/" + k); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s/%d", ptr, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	_ = walk("")
	return out
}

func TestKeyOrderMatchesDecoderWalk(t *testing.T) {
	docs := [][]byte{raw, []byte(`{"a": {"z": 1, "y": [ {"q\"x": true, "p": null}, 3, [ {"k": "v"} ] ]}, "b\u00e9": "s", "c": {}}`),
		[]byte(`[]`), []byte(`{"x": -1.5e3, "y": "a,b}]", "z": {"w": {"v": {}}}}`)}
	for i, d := range docs {
		if diff := cmp.Diff(keyOrderReference(d), keyOrder(d)); diff != "" {
			t.Errorf("doc %d: keyOrder differs from the decoder walk (-want +got):\n%s", i, diff)
		}
	}
}

// load strips a deep copy of the decoded schema: the published schema (field docs, key order, the
// extension discriminator) stays whole, and the compiled text is the one stripping a fresh decode gives.
func TestLoadStripsACopy(t *testing.T) {
	s, err := load()
	if err != nil {
		t.Fatal(err)
	}
	decode := func() map[string]any {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if d := cmp.Diff(decode(), s.doc); d != "" {
		t.Fatalf("the published schema was changed by load (-want +got):\n%s", d)
	}
	fromCopy, reqCopy, err := stripDiscriminator(copyJSON(decode()).(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	fromDecode, reqDecode, err := stripDiscriminator(decode())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromCopy, fromDecode) || !cmp.Equal(reqCopy, reqDecode) {
		t.Fatal("stripping a copy gives another compiled schema than stripping a fresh decode")
	}
	if cmp.Equal(reqCopy, map[string][]string{}) {
		t.Fatal("no required fields per extension type found")
	}
}
