// The probe cache changes how often goose's pre-processing parses a brace content, never its result.

package template

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestPreprocessWithCacheMatchesWithout(t *testing.T) {
	texts := []string{
		"a: {{ x | upper }} {{ 1 + }} {{ y }}\nb: {{ not valid( }} and {{ 1 + }} again\n",
		"a: {{ x | upper }} {{ y.z }}\nb: {{ ??? }}\n",
		"plain text, no braces\n",
	}
	cache := &ProbeCache{}
	for round := 0; round < 2; round++ { // the second round answers from the cache
		for _, src := range texts {
			if got, want := PreprocessCached(src, cache), Preprocess(src); !reflect.DeepEqual(got, want) {
				t.Errorf("round %d, %q: with the cache %+v, without %+v", round, src, got, want)
			}
		}
	}
	if len(cache.parses) == 0 || cache.parses[" 1 + "] || !cache.parses[" x | upper "] {
		t.Errorf("the cache holds %v", cache.parses)
	}
}

func TestProbeCacheStaysBounded(t *testing.T) {
	cache := &ProbeCache{}
	for i := 0; i < 3; i++ {
		var b strings.Builder
		for j := 0; j < maxProbeCache/2+10; j++ {
			fmt.Fprintf(&b, "{{ v%d_%d | f }}\n", i, j)
		}
		PreprocessCached(b.String(), cache)
		if len(cache.parses) > maxProbeCache {
			t.Fatalf("the cache grew to %d answers", len(cache.parses))
		}
	}
}
