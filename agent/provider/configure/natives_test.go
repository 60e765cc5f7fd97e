// Every native provider has its set-up facts, and they agree with what Resolve asks for.

package configure

import (
	"strings"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestNativeInfoCoversEveryNativeProvider(t *testing.T) {
	for _, name := range Providers {
		n, ok := Native(name)
		if !ok || n.DisplayName == "" {
			t.Errorf("%s: no set-up facts", name)
			continue
		}
		if name != "azure_openai" && n.DefaultModel == "" {
			t.Errorf("%s: no default model", name)
		}
		// a required key is the one Resolve names when it is missing
		if n.KeyRequired {
			_, err := Resolve(lookup(map[string]string{"GOOSE_PROVIDER": name}), provider.Settings{})
			if err == nil || !strings.Contains(err.Error(), n.Key) {
				t.Errorf("%s without a key: %v, want %s named", name, err, n.Key)
			}
		}
	}
	if _, ok := Native("databricks"); ok {
		t.Error("a provider goose-ls does not run has set-up facts")
	}
}
