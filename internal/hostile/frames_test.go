//go:build linux

// Hostile frames through the built server: a huge header line, bodies that are not requests, a body
// shorter than its Content-Length; the server answers briefly and keeps serving.

package hostile

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestHostileFrames(t *testing.T) {
	frames := []struct {
		name string
		raw  func(w io.Writer)
	}{
		{"128MiB-header-line", func(w io.Writer) {
			chunk := strings.Repeat("X", 1<<20)
			for i := 0; i < 128; i++ {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
			io.WriteString(w, "\r\n\r\n")
		}},
		{"array-body", func(w io.Writer) { fmt.Fprintf(w, "Content-Length: 2\r\n\r\n[]") }},
		{"id-null", func(w io.Writer) {
			body := `{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}`
			fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
		}},
		{"short-body", func(w io.Writer) {
			fmt.Fprintf(w, "Content-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\"")
		}},
		{"negative-length", func(w io.Writer) { fmt.Fprintf(w, "Content-Length: -5\r\n\r\n") }},
	}
	for _, f := range frames {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			ws, _ := workspace(t)
			s := serve(t, ws)
			f.raw(s.l.stdin)
			s.answersOnAnotherDocument(t, ws)
			res := s.stop(t)
			checkBounded(t, "server", res)
			if out := s.c.output(); len(out) > 64<<10 {
				t.Errorf("the server wrote %d bytes back: a bad frame must be answered briefly, never echoed", len(out))
			}
		})
	}
}
