// The server under hostile input: cancellation of a request stuck on a slow check while another
// document is served, shared checks, panics, deadlines, impossible edits, recipes that stop looking
// like recipes, and a cap on published diagnostics.
package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

const (
	slowURI = "file:///work/recipes/slow.yaml"
	fastURI = "file:///work/recipes/fast.yaml"
	recipe  = "title: T\ndescription: D\nprompt: hi {{ who }}\n"
)

// gate makes the checks of one file block until the test ends, and counts the checks of each file.
type gate struct {
	path    string
	started chan struct{} // closed when the first check of path starts
	unblock chan struct{}
	once    sync.Once
	mu      sync.Mutex
	checks  map[string]int
}

func newGate(t *testing.T, path string) *gate {
	g := &gate{path: path, started: make(chan struct{}), unblock: make(chan struct{}), checks: map[string]int{}}
	t.Cleanup(func() { close(g.unblock) })
	return g
}

// hook ignores the check's context on purpose: it stands for a check that does not stop by itself.
func (g *gate) hook(_ context.Context, path string) {
	g.mu.Lock()
	g.checks[path]++
	g.mu.Unlock()
	if path == g.path {
		g.once.Do(func() { close(g.started) })
		<-g.unblock
	}
}

func (g *gate) count(path string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.checks[path]
}

func openFrame(u, text string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": u, "languageId": "yaml", "version": 1, "text": text}}})
	return string(b)
}

func hoverFrame(id int, u string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":%q},"position":{"line":2,"character":14}}}`, id, u)
}

func initRaw(r *lsptest.Raw) {
	r.Send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	r.Read()
	r.Send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
}

func TestCancelRequestOnSlowCheckWhileAnotherDocumentIsServed(t *testing.T) {
	g := newGate(t, "/work/recipes/slow.yaml")
	r := lsptest.NewRawWith(t, lsp.Options{CheckHook: g.hook, CheckTimeout: 1 << 40})
	initRaw(r)
	r.Send(openFrame(slowURI, recipe))
	r.Send(openFrame(fastURI, recipe))
	<-g.started // the background check of slow.yaml is stuck

	r.Send(hoverFrame(2, slowURI)) // awaits slow.yaml's running check
	r.Send(hoverFrame(3, fastURI))
	if rep := r.Read(); string(rep.ID) != "3" || rep.Error != nil || !strings.Contains(string(rep.Result), "who") {
		t.Fatalf("hover on the other document: got id %s error %+v result %s, want id 3 answered first", rep.ID, rep.Error, rep.Result)
	}
	r.Send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	if rep := r.Read(); string(rep.ID) != "2" || rep.Error == nil || rep.Error.Code != -32800 {
		t.Fatalf("cancelled hover: got id %s error %+v, want id 2 with -32800", rep.ID, rep.Error)
	}
	// a later request on the slow document joins the same check instead of starting another
	r.Send(hoverFrame(4, slowURI))
	r.Send(hoverFrame(5, fastURI))
	if rep := r.Read(); string(rep.ID) != "5" {
		t.Fatalf("got id %s, want 5 (the slow document's request must not hold it back)", rep.ID)
	}
	g.unblock <- struct{}{} // not closed: one check may pass
	if rep := r.Read(); string(rep.ID) != "4" || rep.Error != nil {
		t.Fatalf("hover after the check finished: id %s error %+v", rep.ID, rep.Error)
	}
	if n := g.count("/work/recipes/slow.yaml"); n != 1 {
		t.Errorf("slow.yaml was checked %d times for one version, want 1 (requests await the running check)", n)
	}
}

func TestCheckDeadlineEndsACheckThatDoesNotStop(t *testing.T) {
	g := newGate(t, "/work/recipes/slow.yaml")
	c := lsptest.NewWith(t, lsp.Options{CheckHook: g.hook})
	c.Call("initialize", map[string]any{"capabilities": map[string]any{}, "initializationOptions": map[string]any{"checkTimeoutMs": 20, "desktopHints": false}}, nil)
	c.Notify("initialized", map[string]any{})
	c.Open(slowURI, "yaml", recipe)
	d := c.Diagnostics(slowURI, 1)
	if len(d) != 1 || d[0].Code != "LSP-CHECK-STOPPED" || !strings.Contains(d[0].Message, "longer than 20ms") {
		t.Fatalf("diagnostics of a check past its deadline: %+v", d)
	}
	// the server goes on; with a deadline a loaded machine meets, the next document is checked in full
	c.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"goose": map[string]any{"checkTimeoutMs": 600000}}})
	c.Open(fastURI, "yaml", recipe)
	if got := lsptest.Codes(c.Diagnostics(fastURI, 1)); len(got) != 1 || !strings.HasPrefix(got[0], "PARAM-UNDEFINED") {
		t.Fatalf("the next document: %v", got)
	}
}

func TestPanicsBecomeErrorsAndTheServerKeepsServing(t *testing.T) {
	hook := func(_ context.Context, path string) {
		if strings.HasSuffix(path, "boom.yaml") {
			panic("deliberate check panic")
		}
	}
	c := lsptest.NewWith(t, lsp.Options{CheckHook: hook})
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	boom := protocol.DocumentURI("file:///work/recipes/boom.yaml")
	c.Open(boom, "yaml", recipe)
	d := c.Diagnostics(boom, 1)
	if len(d) != 1 || d[0].Code != "LSP-INTERNAL-ERROR" || d[0].Severity != protocol.DiagnosticSeverityError ||
		!strings.Contains(d[0].Message, "deliberate check panic") {
		t.Fatalf("diagnostics of a check that panicked: %+v", d)
	}
	var hov any
	if err := c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": boom}, "position": map[string]any{"line": 2, "character": 14}}, &hov); err != nil || hov != nil {
		t.Errorf("hover on the document whose check panicked: %v %v", hov, err)
	}
	if err := c.Call(lsp.PanicMethod, map[string]any{}, nil); code(err) != -32603 || !strings.Contains(err.Error(), "deliberate test panic") {
		t.Errorf("a panicking handler: %v, want an internal error", err)
	}
	c.Open(fastURI, "yaml", recipe)
	if got := lsptest.Codes(c.Diagnostics(fastURI, 1)); len(got) != 1 {
		t.Fatalf("after the panics: %v", got)
	}
}

func TestImpossibleEditDropsTheTextUntilTheClientResends(t *testing.T) {
	cases := map[string]struct {
		version int32
		rng     protocol.Range
	}{
		"past the last line":  {2, protocol.Range{Start: protocol.Position{Line: 9}, End: protocol.Position{Line: 9}}},
		"end before start":    {2, protocol.Range{Start: protocol.Position{Line: 1, Character: 3}, End: protocol.Position{Line: 1, Character: 1}}},
		"version not newer":   {1, protocol.Range{Start: protocol.Position{Line: 0}, End: protocol.Position{Line: 0}}},
		"after the last line": {2, protocol.Range{Start: protocol.Position{Line: 4, Character: 1}, End: protocol.Position{Line: 4, Character: 1}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := lsptest.New(t)
			c.InitializeWith(nil, lsptest.NoDesktopHints)
			c.Open(uri, "yaml", recipe)
			c.Diagnostics(uri, 1)
			c.Change(uri, tc.version, &tc.rng, "x")
			d := c.Diagnostics(uri, uint32(tc.version))
			if tc.version == 1 { // same version number: wait for the error itself
				d = waitCode(c, uri, "LSP-TEXT-OUT-OF-SYNC")
			}
			if len(d) != 1 || d[0].Code != "LSP-TEXT-OUT-OF-SYNC" || d[0].Severity != protocol.DiagnosticSeverityError {
				t.Fatalf("after an impossible edit: %+v", d)
			}
			var hov any
			if err := c.Call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 2, "character": 14}}, &hov); err != nil || hov != nil {
				t.Errorf("hover on a document whose text is lost: %v %v", hov, err)
			}
			// ranged edits cannot bring it back; the full text does
			c.Change(uri, 5, &protocol.Range{}, "title: X\n")
			c.Change(uri, 6, nil, "title: T\ndescription: D\nprompt: hi\n")
			if d := c.Diagnostics(uri, 6); len(d) != 0 {
				t.Fatalf("after the full text came back: %v", lsptest.Codes(d))
			}
		})
	}
}

// waitCode waits for diagnostics of u that include code.
func waitCode(c *lsptest.Client, u protocol.DocumentURI, code string) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	c.WaitFor("textDocument/publishDiagnostics", func(raw json.RawMessage) bool {
		var p protocol.PublishDiagnosticsParams
		_ = json.Unmarshal(raw, &p)
		if p.URI != u || len(p.Diagnostics) == 0 || p.Diagnostics[0].Code != code {
			return false
		}
		out = p.Diagnostics
		return true
	})
	return out
}

func TestARecipeStaysARecipeWhenDetectionBreaks(t *testing.T) {
	c := lsptest.New(t)
	c.InitializeWith(nil, lsptest.NoDesktopHints)
	c.Open(uri, "yaml", "title: T\ndescription: D\nprompt: hi\n")
	if d := c.Diagnostics(uri, 1); len(d) != 0 {
		t.Fatalf("valid recipe: %v", lsptest.Codes(d))
	}
	c.Change(uri, 2, &protocol.Range{Start: protocol.Position{Line: 0, Character: 0}, End: protocol.Position{Line: 0, Character: 5}}, "titel")
	d := c.Diagnostics(uri, 2)
	found := false
	for _, x := range d {
		found = found || (x.Code == "SCHEMA-MISSING-FIELD" && strings.Contains(x.Message, "missing field `title`"))
	}
	if !found {
		t.Fatalf("after renaming title: to titel: %+v, want missing field `title`", d)
	}
}

func TestPublishedDiagnosticsAreCapped(t *testing.T) {
	c := lsptest.New(t)
	c.Initialize(nil)
	var b strings.Builder
	b.WriteString("title: T\ndescription: D\nprompt: |\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  {{ v%d }}\n", i)
	}
	c.Open(uri, "yaml", b.String())
	d := c.Diagnostics(uri, 1)
	if len(d) > 301 {
		t.Fatalf("%d diagnostics published, want at most 301", len(d))
	}
	if last := d[len(d)-1]; !strings.HasSuffix(last.Message, "more problems not shown") {
		t.Errorf("the last diagnostic does not count the rest: %+v", last)
	}
}
