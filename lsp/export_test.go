// Test-only hooks of package lsp, visible to the lsp_test package.

package lsp

import (
	"context"
	"encoding/json"
)

// PanicMethod is a request that panics in its handler, for the recovery tests.
const PanicMethod = "goose-ls/test/panic"

func init() {
	requests[PanicMethod] = func(context.Context, *Server, json.RawMessage) (any, error) { panic("deliberate test panic") }
}
