// A raw frame-level client for robustness tests: it writes arbitrary bytes and reads framed replies.

package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
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
	// done is closed at cleanup: the Replies goroutines stop handing replies over
	done chan struct{}
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
	return NewRawWith(t, lsp.Options{})
}

// NewRawWith starts a server with opts and returns a raw connection to it.
func NewRawWith(t testing.TB, opts lsp.Options) *Raw {
	serverEnd, clientEnd := net.Pipe()
	r := &Raw{t: t, conn: clientEnd, in: bufio.NewReader(clientEnd), ExitCode: make(chan int, 1), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		r.ExitCode <- lsp.Serve(ctx, serverEnd, withAgent(opts))
	}()
	// the client hangs up, and the test ends once Serve has returned (its read loop saw the end of the
	// connection), so a server's read loop does not run on into the next test
	t.Cleanup(func() {
		close(r.done)
		clientEnd.Close()
		<-served
		cancel()
	})
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

// TryWrite writes raw bytes and reports a failure instead of failing the test (the server may have
// exited or stopped reading).
func (r *Raw) TryWrite(b []byte) error {
	_ = r.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err := r.conn.Write(b)
	return err
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
		rep, raw, err := r.next()
		if err != nil {
			r.t.Fatalf("read: %v (%q)", err, raw)
		}
		if rep.Method != "" && len(rep.ID) == 0 {
			continue // a notification
		}
		return rep
	}
}

// ReadNotification reads messages until a notification with method arrives and returns its params.
func (r *Raw) ReadNotification(method string) json.RawMessage {
	r.t.Helper()
	for {
		_ = r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		rep, raw, err := r.next()
		if err != nil {
			r.t.Fatalf("read: %v (%q)", err, raw)
		}
		if rep.Method == method && len(rep.ID) == 0 {
			var n struct {
				Params json.RawMessage `json:"params"`
			}
			_ = json.Unmarshal(raw, &n)
			return n.Params
		}
	}
}

// Replies reads every message the server sends, until the connection ends or a read waits longer
// than idle, onto the returned channel (closed at the end), with its raw body; a framing or JSON
// error is sent as a Reply with Method "!error". For tests that write while the server answers: the
// connection is read whether or not the test takes the replies (they queue without bound), so the
// server never waits for the test to read and a test's writes never wait for its own reads.
func (r *Raw) Replies(idle time.Duration) <-chan RawReply {
	read := make(chan RawReply)
	go func() {
		defer close(read)
		for {
			_ = r.conn.SetReadDeadline(time.Now().Add(idle))
			rep, raw, err := r.next()
			msg := RawReply{Reply: rep, Body: raw}
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrDeadlineExceeded) {
					return
				}
				msg = RawReply{Reply: Reply{Method: "!error"}, Body: []byte(err.Error())}
			}
			select {
			case read <- msg:
			case <-r.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	out := make(chan RawReply)
	go func() {
		defer close(out)
		var queue []RawReply
		in := read
		for in != nil || len(queue) > 0 {
			var send chan<- RawReply
			var next RawReply
			if len(queue) > 0 {
				send, next = out, queue[0]
			}
			select {
			case rep, ok := <-in:
				if !ok {
					in = nil
					continue
				}
				queue = append(queue, rep)
			case send <- next:
				queue = queue[1:]
			case <-r.done:
				return
			}
		}
	}()
	return out
}

// RawReply is a decoded message with its body.
type RawReply struct {
	Reply
	Body []byte
}

// next reads one framed message.
func (r *Raw) next() (Reply, []byte, error) {
	length := -1
	for {
		line, err := r.in.ReadString('\n')
		if err != nil {
			return Reply{}, nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			length, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if length < 0 || length > 1<<26 {
		return Reply{}, nil, fmt.Errorf("bad Content-Length %d", length)
	}
	buf := make([]byte, length)
	if _, err := io.ReadFull(r.in, buf); err != nil {
		return Reply{}, nil, fmt.Errorf("body: %w", err)
	}
	var rep Reply
	if err := json.Unmarshal(buf, &rep); err != nil {
		return Reply{}, buf, fmt.Errorf("server sent invalid JSON: %w", err)
	}
	return rep, buf, nil
}

// Close closes the client's end of the connection.
func (r *Raw) Close() { r.conn.Close() }
