// FuzzParse: any bytes in a custom provider file either parse into a provider goose would accept or
// give an error; never a panic.
package registry

import "testing"

func FuzzParse(f *testing.F) {
	for _, p := range []string{customGroq, `{"name":"x","engine":"ollama","display_name":"X","base_url":"h","models":[],"env_vars":[{"name":"A","default":"d"}]}`,
		`{"name":"x","engine":"anthropic","display_name":"X","base_url":"h","models":[{"name":"m","context_limit":-1}]}`, `null`, `[]`, `{"models":null}`} {
		f.Add([]byte(p))
	}
	for _, e := range mustEntries(f) {
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		if p.Engine != EngineOpenAI && p.Engine != EngineAnthropic && p.Engine != EngineOllama {
			t.Fatalf("engine %q accepted", p.Engine)
		}
		for _, m := range p.Models {
			if m.ContextLimit < 0 {
				t.Fatalf("negative context limit accepted: %+v", m)
			}
		}
	})
}

func mustEntries(f *testing.F) [][]byte {
	entries, err := builtinFiles.ReadDir("builtin")
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		b, err := builtinFiles.ReadFile("builtin/" + e.Name())
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
