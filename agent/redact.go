// Redaction of secrets (API keys, env_keys and envs values) from anything written to logs or sessions.

package agent

import (
	"strings"
	"sync"
)

// Redactor replaces known secret values with [REDACTED].
type Redactor struct {
	mu      sync.RWMutex
	secrets []string
}

// Add registers secret values (short values are ignored: they would mask ordinary text).
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if len(v) >= 6 {
			r.secrets = append(r.secrets, v)
		}
	}
}

// Redact hides every registered secret in s.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, v := range r.secrets {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, "[REDACTED]")
		}
	}
	return s
}
