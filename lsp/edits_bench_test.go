// The server on `make bench-edits`'s sequence, in process: typing mixed with the edits that change the
// heavy recipe's structure (testgen.HeavyEdits) and their undos, each awaited until its diagnostics are
// published; one op is one edit. Run with -cpuprofile to see what an edit costs on the server's side
// (the check, converting and publishing its diagnostics).

package lsp_test

import (
	"testing"

	"github.com/goose-ls/goose-ls/internal/testgen"
)

// edit sends e as one didChange of d and awaits its diagnostics.
func (w *versionWaiter) edit(b *testing.B, d *benchDoc, e testgen.Edit) {
	d.version++
	rng := map[string]any{"start": map[string]any{"line": e.Line, "character": e.Start}, "end": map[string]any{"line": e.Line, "character": e.End}}
	w.notify(b, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": d.uri, "version": d.version},
		"contentChanges": []any{map[string]any{"range": rng, "text": e.Text}}})
	w.await(b, d.uri, d.version)
}

func BenchmarkServerHeavyEdits(b *testing.B) {
	w, _, heavy, heavyPath := startHeavyServer(b)
	d := w.open(b, "file://"+heavyPath, heavy.Text)
	// the round's edits, each with the text it applies to (an undo restores the text before its edit)
	text := heavy.Text
	all := testgen.HeavyEdits(text)
	var round []testgen.Edit
	step := func(e testgen.Edit) testgen.Edit {
		undo := e.Undo(text)
		text = e.Apply(text)
		round = append(round, e)
		return undo
	}
	for _, e := range all[1:] {
		step(step(all[0]))
		undo := step(e)
		step(step(all[0]))
		step(undo)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		w.edit(b, d, round[i%len(round)])
	}
	b.StopTimer()
	// leave the document as it was opened whatever b.N was
	for i := b.N; i%len(round) != 0; i++ {
		w.edit(b, d, round[i%len(round)])
	}
}
