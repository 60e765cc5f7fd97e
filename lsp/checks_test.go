// capDiagnostics: errors first, original order kept, one diagnostic counting the rest.
package lsp

import (
	"fmt"
	"testing"

	"go.lsp.dev/protocol"
)

func TestCapDiagnostics(t *testing.T) {
	var ds []protocol.Diagnostic
	for i := 0; i < 10; i++ {
		sev := protocol.DiagnosticSeverityHint
		if i%3 == 0 {
			sev = protocol.DiagnosticSeverityError
		}
		ds = append(ds, protocol.Diagnostic{Severity: sev, Message: fmt.Sprint(i)})
	}
	got := capDiagnostics(ds, 5)
	var msgs []string
	for _, d := range got {
		msgs = append(msgs, d.Message)
	}
	// errors 0 3 6 9, then the first hint (1), in text order; 5 left out
	if want := "[0 1 3 6 9 5 more problems not shown]"; fmt.Sprint(msgs) != want {
		t.Fatalf("got %v, want %s", msgs, want)
	}
	if got[len(got)-1].Code != codeMoreProblems {
		t.Errorf("last code %v", got[len(got)-1].Code)
	}
	if n := len(capDiagnostics(ds, 10)); n != 10 {
		t.Errorf("under the cap: %d diagnostics, want all 10", n)
	}
}
