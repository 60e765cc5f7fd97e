// Tests of the sub-recipe summary cache: a known text is not parsed again, a changed text is, errors are
// remembered like results, and the cache stays within its bound.

package recipe

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
)

func TestChildInfoCacheSharesByContent(t *testing.T) {
	c := &childInfoCache{}
	a := []byte("title: A\ndescription: d\nparameters:\n  - key: x\n    input_type: string\n    requirement: required\n    description: x\n")
	first, err := c.get(a)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.get(append([]byte{}, a...)) // same text, another slice
	if again != first {
		t.Error("the same text was parsed again instead of reusing its summary")
	}
	if len(first.Parameters) != 1 || first.Parameters[0].Key != "x" || first.Parameters[0].Requirement != "required" {
		t.Errorf("summary = %+v", first)
	}
	changed, _ := c.get([]byte("title: A\nparameters:\n  - key: y\n    input_type: string\n    requirement: optional\n    description: y\n"))
	if changed == first || changed.Parameters[0].Key != "y" {
		t.Errorf("a changed text returned the old summary: %+v", changed)
	}
	if _, err := c.get([]byte("description: no title\n")); !errors.Is(err, errNotRecipe) {
		t.Errorf("a text without title: err = %v, want errNotRecipe", err)
	}
	if _, err := c.get([]byte("description: no title\n")); !errors.Is(err, errNotRecipe) {
		t.Errorf("the cached error was not returned again: %v", err)
	}
}

func TestChildInfoCacheIsBounded(t *testing.T) {
	c := &childInfoCache{}
	for i := 0; i < childCacheEntries+50; i++ {
		if _, err := c.get(fmt.Appendf(nil, "title: T%d\n", i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.entries) != childCacheEntries || len(c.order) != childCacheEntries {
		t.Errorf("cache holds %d entries (%d in order), want %d", len(c.entries), len(c.order), childCacheEntries)
	}
	first := fmt.Appendf(nil, "title: T%d\n", 0)
	c.mu.Lock()
	_, kept := c.entries[sha256.Sum256(first)]
	c.mu.Unlock()
	if kept {
		t.Error("the oldest entry was not evicted")
	}
}
