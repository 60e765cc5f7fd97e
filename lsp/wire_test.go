// The wire under hostile frames: bounded header lines answered without echo, non-object JSON, null ids,
// bodies shorter than their Content-Length, oversized messages; and FuzzServerFrames.
package lsp_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/lsp"
	"github.com/goose-ls/goose-ls/lsp/lsptest"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

const probe = `{"jsonrpc":"2.0","id":"probe","method":"goose-ls/probe"}`

// expectReplies reads replies until the probe's answer and returns the ones before it.
func expectReplies(t *testing.T, replies <-chan lsptest.RawReply) []lsptest.RawReply {
	t.Helper()
	var got []lsptest.RawReply
	for rep := range replies {
		if rep.Method == "!error" {
			t.Fatalf("bad frame from the server: %s", rep.Body)
		}
		if string(rep.ID) == `"probe"` {
			if rep.Error == nil || rep.Error.Code != -32002 {
				t.Fatalf("probe: %s", rep.Body)
			}
			return got
		}
		got = append(got, rep)
	}
	t.Fatalf("the server did not answer the probe; before it: %v", got)
	return nil
}

func TestWireHostileFrames(t *testing.T) {
	cases := []struct {
		name  string
		input string
		codes []int    // the error codes of the answers before the probe's
		ids   []string // their ids
	}{
		{"header line of 1 MiB", strings.Repeat("A", 1<<20) + "\r\n\r\n", []int{-32700}, []string{"null"}},
		{"endless header garbage gets one answer", strings.Repeat("X-Junk\r\n", 5000), []int{-32700}, []string{"null"}},
		{"array", frame(`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`), []int{-32600}, []string{"null"}},
		{"number", frame(`42`), []int{-32600}, []string{"null"}},
		{"string", frame(`"shutdown"`), []int{-32600}, []string{"null"}},
		{"null", frame(`null`), []int{-32600}, []string{"null"}},
		{"id null", frame(`{"jsonrpc":"2.0","id":null,"method":"shutdown"}`), []int{-32600}, []string{"null"}},
		{"short body then a message", "Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\"," + frame(`{"jsonrpc":"2.0","id":7,"method":"shutdown"}`), []int{-32700, -32002}, []string{"null", "7"}},
		{"oversized message is skipped", "Content-Length: 67108865\r\n\r\n" + strings.Repeat("x", 1000), []int{-32700}, []string{"null"}},
		{"negative length", "Content-Length: -5\r\n\r\n", []int{-32700}, []string{"null"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := lsptest.NewRaw(t)
			replies := r.Replies(5 * time.Second)
			r.Write(tc.input)
			r.Write(frame(probe))
			got := expectReplies(t, replies)
			var codes []int
			var ids []string
			for _, rep := range got {
				if rep.Error == nil {
					t.Fatalf("answer without error: %s", rep.Body)
				}
				if len(rep.Body) > 300 || bytes.Contains(rep.Body, []byte("AAAA")) || bytes.Contains(rep.Body, []byte("X-Junk")) {
					t.Errorf("answer echoes the input or is long (%d bytes): %.200s", len(rep.Body), rep.Body)
				}
				codes = append(codes, rep.Error.Code)
				ids = append(ids, string(rep.ID))
			}
			if fmt.Sprint(codes) != fmt.Sprint(tc.codes) || fmt.Sprint(ids) != fmt.Sprint(tc.ids) {
				t.Fatalf("answers: codes %v ids %v, want codes %v ids %v", codes, ids, tc.codes, tc.ids)
			}
		})
	}
}

// FuzzServerFrames writes arbitrary bytes to a server, then a request: the server must be alive and
// answer it (or have exited because the input asked it to).
func FuzzServerFrames(f *testing.F) {
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/recipes/a.yaml","languageId":"yaml","version":1,"text":"title: T\nprompt: \"{{ x }}\"\n"}}}`) +
		frame(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/recipes/a.yaml"},"position":{"line":1,"character":12}}}`) +
		frame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)))
	f.Add([]byte("Content-Length: 30\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1}"))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n{}"))
	f.Add([]byte(strings.Repeat("Content-Length: 1\r\n", 50) + "\r\n{"))
	// 80 header blocks without a Content-Length, 80 answers while the input is still being written:
	// the client reads them as they come (the server stops reading while an answer waits)
	f.Add([]byte(strings.Repeat("a:\n\n", 80)))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/recipes/b.yaml","languageId":"yaml","version":1,"text":"title: T\n"}}}`) +
		frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/recipes/b.yaml","version":2},"contentChanges":[{"range":{"start":{"line":90,"character":0},"end":{"line":0,"character":0}},"text":"x"}]}}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		// one check worker: an exec's coverage should depend on its input, not on which worker ran
		r := lsptest.NewRawWith(t, lsp.Options{Workers: 1})
		replies := r.Replies(5 * time.Second)
		mayExit := bytes.Contains(data, []byte("exit")) || bytes.Contains(data, []byte(`\u`))
		if err := r.TryWrite(data); err != nil {
			if mayExit {
				return
			}
			t.Fatalf("the server stopped reading: %v", err)
		}
		// the probe, three times: what the input left pending (a header block, part of a body, a long
		// line) may swallow the first
		for i := 0; i < 3; i++ {
			if err := r.TryWrite([]byte(frame(probe))); err != nil {
				if mayExit {
					return
				}
				t.Fatalf("the server stopped reading: %v", err)
			}
		}
		for rep := range replies {
			if rep.Method == "!error" {
				t.Fatalf("bad frame from the server: %s", rep.Body)
			}
			if string(rep.ID) == `"probe"` {
				if rep.Error == nil {
					t.Fatalf("probe answered without an error: %s", rep.Body)
				}
				return
			}
		}
		select {
		case <-r.ExitCode:
			if mayExit {
				return
			}
			t.Fatal("the server exited")
		default:
		}
		t.Fatal("the server did not answer the probe")
	})
}
