// Redaction of secrets (API keys, extension envs/env_keys values) in every form they are written in.

package agent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// RedactedMarker replaces every occurrence of a secret.
const RedactedMarker = "[REDACTED]"

// MinSecretLen is the shortest value redacted. Shorter values ("1", "true", "8080", "debug") are not
// secrets worth the damage: replacing them everywhere would mangle ordinary text, and no credential
// goose-ls knows of is that short.
const MinSecretLen = 6

// Redactor replaces known secret values with RedactedMarker. It knows each value's forms: raw, as
// encoding/json writes it inside a string (with and without HTML escaping, and escaped twice for JSON
// inside JSON), URL query and path escaped, and base64 (standard and URL alphabets, padded or not) of
// the value on its own. The zero value is ready; a nil *Redactor redacts nothing.
type Redactor struct {
	mu       sync.RWMutex
	values   map[string]bool
	forms    *formSet
	replacer *strings.Replacer
}

// formSet is every form of every secret, longest first (so the longest form wins where several start),
// with the bytes forms start with: a stream only looks for a secret's beginning where one can start.
type formSet struct {
	forms []string
	first [256]bool
}

// Add registers secret values; values shorter than MinSecretLen, or occurring inside the marker, are
// ignored.
func (r *Redactor) Add(values ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, v := range values {
		if len(v) < MinSecretLen || strings.Contains(RedactedMarker, v) || r.values[v] {
			continue
		}
		if r.values == nil {
			r.values = map[string]bool{}
		}
		r.values[v] = true
		changed = true
	}
	if !changed {
		return
	}
	seen := map[string]bool{}
	set := &formSet{} // a new set: streams may still read the old one
	for v := range r.values {
		for _, f := range secretForms(v) {
			if !seen[f] {
				seen[f] = true
				set.forms = append(set.forms, f)
				set.first[f[0]] = true
			}
		}
	}
	slices.SortFunc(set.forms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	r.forms = set
	pairs := make([]string, 0, 2*len(set.forms))
	for _, f := range set.forms {
		pairs = append(pairs, f, RedactedMarker)
	}
	r.replacer = strings.NewReplacer(pairs...)
}

// secretForms lists the ways v can be written.
func secretForms(v string) []string {
	forms := []string{v}
	for _, once := range []string{jsonEscape(v, true), jsonEscape(v, false)} {
		forms = append(forms, once, jsonEscape(once, true), jsonEscape(once, false))
	}
	forms = append(forms, url.QueryEscape(v), url.PathEscape(v))
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		forms = append(forms, enc.EncodeToString([]byte(v)))
	}
	return forms
}

// jsonEscape is v as encoding/json writes it between the quotes of a string.
func jsonEscape(v string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(v)
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// Redact hides every registered secret in s.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	r.mu.RLock()
	rep := r.replacer
	r.mu.RUnlock()
	if rep == nil || s == "" {
		return s
	}
	return rep.Replace(s)
}

// RedactJSON hides secrets in a JSON text and keeps it valid JSON: where replacing text would break the
// syntax (a secret spanning quotes), the decoded value's strings are redacted one by one instead.
func (r *Redactor) RedactJSON(raw json.RawMessage) json.RawMessage {
	if r == nil || len(raw) == 0 {
		return raw
	}
	out := r.Redact(string(raw))
	if out == string(raw) || json.Valid([]byte(out)) || !json.Valid(raw) {
		return json.RawMessage(out)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return json.RawMessage(out)
	}
	b, err := json.Marshal(r.redactValue(v))
	if err != nil {
		return json.RawMessage(out)
	}
	return b
}

func (r *Redactor) redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return r.Redact(x)
	case []any:
		for i := range x {
			x[i] = r.redactValue(x[i])
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, val := range x {
			m[r.Redact(k)] = r.redactValue(val)
		}
		return m
	}
	return v
}

// Stream redacts text that arrives in pieces (streamed assistant text), where a secret can be split
// across two pieces.
func (r *Redactor) Stream() *RedactStream { return &RedactStream{r: r} }

// RedactStream holds back the end of the text while it could still become a secret.
type RedactStream struct {
	r       *Redactor
	pending string
}

// Write adds a piece and returns the redacted text that can be shown now.
func (s *RedactStream) Write(piece string) string {
	s.pending += piece
	if s.r == nil {
		out := s.pending
		s.pending = ""
		return out
	}
	s.r.mu.RLock()
	set := s.r.forms
	s.r.mu.RUnlock()
	if set == nil {
		out := s.pending
		s.pending = ""
		return out
	}
	cut := safeCut(s.pending, set)
	out := s.r.Redact(s.pending[:cut])
	s.pending = s.pending[cut:]
	return out
}

// Flush returns the rest, redacted: the stream ended.
func (s *RedactStream) Flush() string {
	out := s.r.Redact(s.pending)
	s.pending = ""
	return out
}

// safeCut returns the length of the prefix of p that can be redacted and shown now: it ends before the
// first suffix of p that could still grow into a form, and no form occurrence crosses it.
func safeCut(p string, set *formSet) int {
	forms := set.forms
	cut := len(p)
	for i := max(0, len(p)-len(forms[0])+1); i < len(p); i++ {
		if set.first[p[i]] && isProperPrefixOfAny(p[i:], forms) {
			cut = i
			break
		}
	}
	// an occurrence that crosses the cut ends inside p: none can when nothing is held back
	for moved := cut < len(p); moved; {
		moved = false
		for _, f := range forms {
			for from := max(0, cut-len(f)+1); from < cut; {
				j := strings.Index(p[from:], f)
				if j < 0 {
					break
				}
				start := from + j
				if start >= cut {
					break
				}
				if start+len(f) > cut {
					cut, moved = start, true
					break
				}
				from = start + 1
			}
		}
	}
	return cut
}

func isProperPrefixOfAny(s string, forms []string) bool {
	for _, f := range forms {
		if len(s) < len(f) && strings.HasPrefix(f, s) {
			return true
		}
	}
	return false
}
