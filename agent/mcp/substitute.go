// goose's variable substitution in extension settings (a stdio server's cwd, an HTTP server's uri and headers).

package mcp

import (
	"regexp"
	"strings"
)

var (
	braced = regexp.MustCompile(`\$\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}`)
	simple = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)
)

// SubstituteEnv replaces ${VAR} (spaces allowed inside the braces) and then $VAR with env's values, as
// goose's substitute_env_vars does: a variable env lacks stays as written, every occurrence of a pattern
// is replaced as a plain string, and only the original text is scanned, so a value is never expanded
// again. $VAR is skipped for a name the text also writes as ${VAR}.
func SubstituteEnv(value string, env map[string]string) string {
	result := value
	for _, m := range braced.FindAllStringSubmatch(value, -1) {
		if v, ok := env[m[1]]; ok {
			result = strings.ReplaceAll(result, m[0], v)
		}
	}
	for _, m := range simple.FindAllStringSubmatch(value, -1) {
		if strings.Contains(value, "${"+m[1]+"}") {
			continue
		}
		if v, ok := env[m[1]]; ok {
			result = strings.ReplaceAll(result, m[0], v)
		}
	}
	return result
}
