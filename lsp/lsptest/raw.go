// A raw frame-level client for robustness tests: it writes arbitrary bytes and reads framed replies.

package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goose-ls/goose-ls/lsp"
)

// Raw is a frame-level connection to a running server.
type Raw struct {
	t        testing.TB
	conn     net.Conn
	in       *bufio.Reader
	ExitCode chan int
}

// Reply is a decoded JSON-RPC message from the server.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// NewRaw starts a server and returns a raw connection to it.
func NewRaw(t testing.TB) *Raw {
	serverEnd, clientEnd := net.Pipe()
	r := &Raw{t: t, conn: clientEnd, in: bufio.NewReader(clientEnd), ExitCode: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { r.ExitCode <- lsp.Serve(ctx, serverEnd, lsp.Options{}) }()
	t.Cleanup(func() { cancel(); clientEnd.Close() })
	return r
}

// Write writes raw bytes.
func (r *Raw) Write(s string) {
	r.t.Helper()
	_ = r.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(r.conn, s); err != nil {
		r.t.Fatalf("write: %v", err)
	}
}

// Send writes one well-framed body.
func (r *Raw) Send(body string) {
	r.Write(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// Read reads the next framed message from the server, skipping server-initiated notifications.
func (r *Raw) Read() Reply {
	r.t.Helper()
	for {
		_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		length := -1
		for {
			line, err := r.in.ReadString('\n')
			if err != nil {
				r.t.Fatalf("read header: %v", err)
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		buf := make([]byte, length)
		if _, err := io.ReadFull(r.in, buf); err != nil {
			r.t.Fatalf("read body: %v", err)
		}
		var rep Reply
		if err := json.Unmarshal(buf, &rep); err != nil {
			r.t.Fatalf("server sent invalid JSON %q: %v", buf, err)
		}
		if rep.Method != "" && len(rep.ID) == 0 {
			continue // a notification
		}
		return rep
	}
}

// Close closes the client's end of the connection.
func (r *Raw) Close() { r.conn.Close() }
