// Memory of the server with `make bench-lsp`'s documents open (issue 17: peak RSS ≤ 30 MiB): the
// 300-line, the 3,000-line and the template-heavy recipe, each edited as lspbench edits it, then
// keystrokes into the heavy one; reports the heap the server keeps between keystrokes. Run with
// -memprofile to see what holds it (inuse_space) and what a keystroke allocates (alloc_space).

package lsp_test

import (
	"context"
	"encoding/json"
	"flag"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/goose-ls/goose-ls/internal/testgen"
	"github.com/goose-ls/goose-ls/lsp"
)

// heapProfile is where BenchmarkServerHeavyMemory writes the heap profile taken while the server still
// holds its documents (-memprofile's is taken after the server stopped).
var heapProfile = flag.String("heapprofile", "", "BenchmarkServerHeavyMemory: write the live server's heap profile here")

// versionWaiter is a minimal LSP client that keeps only the newest published version per document (the
// test client keeps every message, which would count in the heap measured here).
type versionWaiter struct {
	conn jsonrpc2.Conn
	mu   sync.Mutex
	cond *sync.Cond
	seen map[string]int32
}

func newVersionWaiter(b *testing.B, conn net.Conn) *versionWaiter {
	w := &versionWaiter{seen: map[string]int32{}}
	w.cond = sync.NewCond(&w.mu)
	w.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(conn))
	ctx, cancel := context.WithCancel(context.Background())
	w.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "textDocument/publishDiagnostics" {
			var p struct {
				URI     string `json:"uri"`
				Version int32  `json:"version"`
			}
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				w.mu.Lock()
				w.seen[p.URI] = max(w.seen[p.URI], p.Version)
				w.cond.Broadcast()
				w.mu.Unlock()
			}
		}
		return reply(ctx, nil, nil)
	})
	b.Cleanup(func() { cancel(); w.conn.Close() })
	return w
}

// await blocks until diagnostics for uri at version (or later) arrived; it fails b after 20 s.
func (w *versionWaiter) await(b *testing.B, uri string, version int32) {
	timer := time.AfterFunc(20*time.Second, func() { w.mu.Lock(); w.cond.Broadcast(); w.mu.Unlock() })
	defer timer.Stop()
	deadline := time.Now().Add(20 * time.Second)
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.seen[uri] < version {
		if time.Now().After(deadline) {
			b.Fatalf("no diagnostics for %s version %d", uri, version)
		}
		w.cond.Wait()
	}
}

func (w *versionWaiter) notify(b *testing.B, method string, params any) {
	if err := w.conn.Notify(context.Background(), method, params); err != nil {
		b.Fatalf("%s: %v", method, err)
	}
}

// benchDoc is one open document and the version it is at.
type benchDoc struct {
	uri     string
	version int32
}

func (w *versionWaiter) open(b *testing.B, uri, text string) *benchDoc {
	w.notify(b, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	w.await(b, uri, 1)
	return &benchDoc{uri: uri, version: 1}
}

// keystroke replaces the character at line:2 with X or S (alternately, as lspbench does) and awaits
// the edit's diagnostics.
func (w *versionWaiter) keystroke(b *testing.B, d *benchDoc, line int) {
	d.version++
	ch := "X"
	if d.version%2 == 1 {
		ch = "S"
	}
	rng := map[string]any{"start": map[string]any{"line": line, "character": 2}, "end": map[string]any{"line": line, "character": 3}}
	w.notify(b, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": d.uri, "version": d.version},
		"contentChanges": []any{map[string]any{"range": rng, "text": ch}}})
	w.await(b, d.uri, d.version)
}

// startHeavyServer writes the heavy recipe and its sub-recipes to a fresh folder and starts an
// initialized in-process server whose workspace it is.
func startHeavyServer(b *testing.B) (w *versionWaiter, dir string, heavy testgen.Heavy, heavyPath string) {
	b.Helper()
	dir = b.TempDir()
	heavy = testgen.HeavyRecipe()
	heavyPath, err := testgen.WriteHeavy(dir, heavy)
	if err != nil {
		b.Fatal(err)
	}
	serverEnd, clientEnd := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	go lsp.Serve(ctx, serverEnd, lsp.Options{})
	w = newVersionWaiter(b, clientEnd)
	if _, err := w.conn.Call(context.Background(), "initialize", map[string]any{"processId": 1, "rootUri": "file://" + dir,
		"capabilities": map[string]any{}}, nil); err != nil {
		b.Fatal(err)
	}
	w.notify(b, "initialized", map[string]any{})
	return w, dir, heavy, heavyPath
}

// BenchmarkServerHeavyMemory: one op is one keystroke into the heavy recipe with lspbench's three
// documents open; retained-KiB is the live heap after the keystrokes (two collections), which with
// GOGC's doubling sets most of the resident size.
func BenchmarkServerHeavyMemory(b *testing.B) {
	w, dir, heavy, heavyPath := startHeavyServer(b)
	const warmEdits = 200 // lspbench's -n
	for _, doc := range []struct{ name, text string }{
		{"small.recipe.yaml", testgen.Recipe(19, 90)}, {"large.recipe.yaml", testgen.Recipe(190, 900)},
	} {
		d := w.open(b, "file://"+filepath.Join(dir, doc.name), doc.text)
		for range warmEdits {
			w.keystroke(b, d, 4)
		}
	}
	d := w.open(b, "file://"+heavyPath, heavy.Text)
	for range warmEdits {
		w.keystroke(b, d, 4)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.keystroke(b, d, 4)
	}
	b.StopTimer()
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1024, "retained-KiB")
	if *heapProfile != "" {
		out, err := os.Create(*heapProfile)
		if err == nil {
			err = pprof.Lookup("heap").WriteTo(out, 0)
			out.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
