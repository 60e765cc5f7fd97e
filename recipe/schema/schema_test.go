// Tests and benchmarks for the embedded schema: it compiles, indexes its objects, and reports violations.

package schema

import (
	"encoding/json"
	"testing"
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
