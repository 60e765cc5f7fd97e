package heapstart

import "testing"

func TestSecondFieldIsTheCommand(t *testing.T) {
	for in, want := range map[string]string{
		"/bin/goose-ls-agent\x00run\x00--prompt\x00hi\x00": "run",
		"goose-ls-agent\x00acp\x00":                        "acp",
		"goose-ls-agent\x00":                               "",
		"":                                                 "",
		"goose-ls-agent\x00rel":                            "", // cut off: no terminator
	} {
		if got := secondField([]byte(in)); got != want {
			t.Errorf("secondField(%q) = %q, want %q", in, got, want)
		}
	}
}
