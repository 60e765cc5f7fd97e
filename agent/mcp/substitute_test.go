// goose's substitution rules for extension settings, case by case.
package mcp

import "testing"

func TestSubstituteEnvAsGoose(t *testing.T) {
	env := map[string]string{"AUTH_TOKEN": "secret123", "API_KEY": "key456", "NESTED": "abc$API_KEY", "DIR": "tools/srv"}
	for _, c := range []struct{ in, want string }{
		{"Bearer ${ AUTH_TOKEN }", "Bearer secret123"},
		{"Bearer ${AUTH_TOKEN}", "Bearer secret123"},
		{"Bearer $AUTH_TOKEN", "Bearer secret123"},
		{"Key: $API_KEY, Token: ${AUTH_TOKEN}", "Key: key456, Token: secret123"},
		{"Bearer ${UNKNOWN_VAR}", "Bearer ${UNKNOWN_VAR}"}, // unknown: kept as written
		{"$UNKNOWN/x", "$UNKNOWN/x"},
		{"${NESTED}", "abc$API_KEY"}, // a value is not expanded again
		{"$NESTED", "abc$API_KEY"},
		{"$DIR/bin and ${DIR}", "$DIR/bin and tools/srv"}, // $VAR skipped where ${VAR} is also written
		{"no variables", "no variables"},
		{"$", "$"},
		{"${", "${"},
	} {
		if got := SubstituteEnv(c.in, env); got != c.want {
			t.Errorf("SubstituteEnv(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
