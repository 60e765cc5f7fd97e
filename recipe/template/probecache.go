// The probe cache: goose's pre-processing probe (does `{{v}}` parse as a template?) answered per
// document, so a keystroke takes the answers for every brace content it already met from the cache
// instead of parsing each again (the probe parses were a tenth of a keystroke in the heavy recipe's
// profile).

package template

import "sync"

// maxProbeCache bounds the answers a cache keeps; past it the cache starts over with the current text's.
const maxProbeCache = 4096

// ProbeCache remembers, per brace content, whether `{{content}}` parses. The zero value is ready; safe
// for concurrent use (checks of successive versions of one document may overlap).
type ProbeCache struct {
	mu     sync.Mutex
	parses map[string]bool
}

// probeRun is one pre-processing pass's view of the cache: the answers it starts from (read only) and
// those it finds (its own), merged back when the pass ends.
type probeRun struct {
	known map[string]bool
	found map[string]bool
}

// start takes the cache's answers for one pass (m may be nil: the pass caches for itself only).
func (m *ProbeCache) start() *probeRun {
	r := &probeRun{}
	if m != nil {
		m.mu.Lock()
		r.known = m.parses // replaced, never written, once published
		m.mu.Unlock()
	}
	return r
}

// parses reports whether `{{v}}` parses, from the cache or by parsing it.
func (r *probeRun) parses(v string) bool {
	if ok, hit := r.known[v]; hit {
		return ok
	}
	if ok, hit := r.found[v]; hit {
		return ok
	}
	_, err := Parse("probe", "{{"+v+"}}")
	if r.found == nil {
		r.found = map[string]bool{}
	}
	r.found[v] = err == nil
	return err == nil
}

// finish publishes a pass's new answers as a fresh map (readers of the old one are not disturbed).
func (m *ProbeCache) finish(r *probeRun) {
	if m == nil || len(r.found) == 0 || len(r.found) > maxProbeCache {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	base := m.parses
	if len(base)+len(r.found) > maxProbeCache {
		base = nil // start over: a document whose brace contents keep changing must not grow it
	}
	next := make(map[string]bool, len(base)+len(r.found))
	for k, v := range base {
		next[k] = v
	}
	for k, v := range r.found {
		next[string([]byte(k))] = v // its own copy: a key must not keep the whole text alive
	}
	m.parses = next
}
