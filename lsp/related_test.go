// A syntax error the engine notices past the text to fix: the diagnostic sits on that text and the
// engine's own place reaches the client as relatedInformation.
package lsp_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

func relatedLines(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		for _, r := range d.RelatedInformation {
			out = append(out, fmt.Sprintf("%v %s %d:%d-%d:%d %s", d.Code, r.Location.URI, r.Location.Range.Start.Line, r.Location.Range.Start.Character,
				r.Location.Range.End.Line, r.Location.Range.End.Character, r.Message))
		}
	}
	return out
}

func TestRelatedInformationOfMovedSyntaxErrors(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)

	// an unclosed {% if %}: on its tag; minijinja reaches the end of the text
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: |\n  {% if true %}\n  text\n")
	d := c.Diagnostics(uri, 1)
	if diff := cmp.Diff([]string{"TPL-SYNTAX 3:2-3:15"}, lsptest.Codes(d)); diff != "" {
		t.Fatalf("diagnostics (-want +got):\n%s", diff)
	}
	want := []string{fmt.Sprintf("TPL-SYNTAX %s 5:0-5:0 goose's template engine (minijinja) reaches the end of the text here", uri)}
	if diff := cmp.Diff(want, relatedLines(d)); diff != "" {
		t.Errorf("relatedInformation (-want +got):\n%s", diff)
	}

	// an unterminated quoted scalar: from its opening quote to the end of that line; libyaml reaches the
	// end of the text (the 😀 counts two UTF-16 units)
	c.Change(uri, 2, nil, "title: \"😀 T\ndescription: D\nprompt: P\n")
	d = c.Diagnostics(uri, 2)
	if diff := cmp.Diff([]string{"YAML-SYNTAX 0:7-0:12"}, lsptest.Codes(d)); diff != "" {
		t.Fatalf("diagnostics (-want +got):\n%s", diff)
	}
	want = []string{fmt.Sprintf("YAML-SYNTAX %s 2:9-3:0 goose's YAML parser (libyaml) reaches the end of the text here", uri)}
	if diff := cmp.Diff(want, relatedLines(d)); diff != "" {
		t.Errorf("relatedInformation (-want +got):\n%s", diff)
	}
}
