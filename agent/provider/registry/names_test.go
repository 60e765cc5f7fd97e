// The checker's completion list of provider names (recipe.ProviderNames) is goose's registry.

package registry

import (
	"slices"
	"testing"

	"github.com/goose-ls/goose-ls/recipe"
)

func TestCompletionNamesAreGoosesRegistry(t *testing.T) {
	want := append([]string(nil), GooseNative...)
	for _, p := range Builtins() {
		want = append(want, p.Name)
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(recipe.ProviderNames))
	if !slices.Equal(got, slices.Compact(want)) {
		t.Errorf("recipe.ProviderNames\n%v\nwant goose's names\n%v", got, want)
	}
}
