package earlyexec

import "testing"

func TestIsAgentCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"check", "r.yaml"}, false},
		{[]string{"serve"}, false},
		{[]string{"acp", "--debug"}, true},
		{[]string{"sessions"}, true},
		{[]string{"run", "--prompt", "hi"}, true},
		{[]string{"run", "r.yaml", "--params", "k=v"}, true},
		{[]string{"run", "r.yaml", "--explain"}, false},
		{[]string{"run", "r.yaml", "-explain=true"}, false},
		{[]string{"run", "--render-recipe", "r.yaml"}, false},
		{[]string{"run", "-render-recipe=1", "r.yaml"}, false},
		{[]string{"run", "explain.yaml"}, true},                    // a recipe named like the flag
		{[]string{"run", "--prompt", "--explain the code"}, false}, // errs towards goose-ls's own path
		{[]string{"runner"}, false},
	} {
		if got := IsAgentCommand(c.args); got != c.want {
			t.Errorf("IsAgentCommand(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestAgentBeside(t *testing.T) {
	for self, want := range map[string]string{
		"/usr/local/bin/goose-ls": "/usr/local/bin/goose-ls-agent",
		"/goose-ls":               "/goose-ls-agent",
		"goose-ls":                "",
	} {
		if got := agentBeside(self); got != want {
			t.Errorf("agentBeside(%q) = %q, want %q", self, got, want)
		}
	}
}
