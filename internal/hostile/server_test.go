//go:build linux

// Every hostile case through the built language server: it publishes for the hostile document, stays
// alive, answers a request on another document within a second, and exits cleanly.

package hostile

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// message is one JSON-RPC message from the server.
type message struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// stdioClient speaks LSP framing to a server process over its standard input and output.
type stdioClient struct {
	t    testing.TB
	w    io.Writer
	mu   sync.Mutex
	seq  int
	all  strings.Builder // every byte the server wrote, for the leak check
	msgs chan message
	// published holds the URIs the server has published diagnostics for
	published map[string]bool
}

func newStdioClient(t testing.TB, w io.Writer, r io.Reader) *stdioClient {
	c := &stdioClient{t: t, w: w, msgs: make(chan message, 4096), published: map[string]bool{}}
	go c.read(bufio.NewReaderSize(r, 1<<16))
	return c
}

func (c *stdioClient) read(r *bufio.Reader) {
	defer close(c.msgs)
	tp := textproto.NewReader(r)
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		var m message
		ok := json.Unmarshal(body, &m) == nil
		c.mu.Lock()
		c.all.Write(body)
		if ok && m.Method == "textDocument/publishDiagnostics" {
			var p struct {
				URI string `json:"uri"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				c.published[p.URI] = true
			}
		}
		c.mu.Unlock()
		if ok {
			c.msgs <- m
		}
	}
}

func (c *stdioClient) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatalf("write to the server: %v", err)
	}
}

func (c *stdioClient) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// request sends a request and returns its id.
func (c *stdioClient) request(method string, params any) int {
	c.seq++
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.seq, "method": method, "params": params})
	return c.seq
}

// await reads messages until match accepts one or the timeout passes; server requests get a null result.
func (c *stdioClient) await(timeout time.Duration, match func(message) bool) (message, bool) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				return message{}, false
			}
			if m.ID != nil && m.Method != "" { // a request from the server
				c.send(map[string]any{"jsonrpc": "2.0", "id": *m.ID, "result": nil})
				continue
			}
			if match(m) {
				return m, true
			}
		case <-deadline.C:
			return message{}, false
		}
	}
}

func (c *stdioClient) response(id int) func(message) bool {
	return func(m message) bool { return m.ID != nil && *m.ID == id && m.Method == "" }
}

func (c *stdioClient) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all.String()
}

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// wasPublished reports whether diagnostics were published for uri, waiting up to timeout.
func (c *stdioClient) wasPublished(uri string, timeout time.Duration) bool {
	c.mu.Lock()
	done := c.published[uri]
	c.mu.Unlock()
	if done {
		return true
	}
	c.await(timeout, func(message) bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.published[uri]
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.published[uri]
}

// server is a running language server process and its client.
type server struct {
	c   *stdioClient
	l   *limited
	out *io.PipeWriter // the server's standard output, closed when it exits
}

func TestHostileServer(t *testing.T) {
	url, _ := refServer(t)
	for _, c := range cases(url) {
		if c.dir {
			continue // folder discovery is a CLI feature
		}
		for _, n := range c.sizes {
			t.Run(fmt.Sprintf("%s/%d", c.name, n), func(t *testing.T) {
				t.Parallel()
				ws, outside := workspace(t)
				rel := c.build(t, ws, outside, n)
				text, err := os.ReadFile(filepath.Join(ws, rel))
				if err != nil {
					t.Fatal(err)
				}
				s := serve(t, ws)
				uri := fileURI(filepath.Join(ws, rel))
				s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(text)}})
				// a request on the hostile document awaits its check (or answers at once for a file that is not a
				// recipe); it must be answered, and not with an internal error
				id := s.c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
				if m, ok := s.c.await(watchdog/2, s.c.response(id)); !ok {
					t.Errorf("no answer to a request on the hostile document")
				} else if m.Error != nil && m.Error.Code == -32603 {
					t.Errorf("request on the hostile document: internal error %s", m.Error.Message)
				}
				if strings.HasPrefix(string(text), header) && !s.c.wasPublished(uri, watchdog/4) {
					t.Errorf("no diagnostics published for the hostile recipe")
				}
				s.answersOnAnotherDocument(t, ws)
				res := s.stop(t)
				checkBounded(t, "server", res)
				noMarker(t, "server output", s.c.output())
				noMarker(t, "server stderr", res.stderr)
				t.Logf("%s: %v, peak RSS %d MiB", c.name, res.elapsed.Round(1e6), res.maxRSS>>20)
			})
		}
	}
}

func serve(t testing.TB, ws string) *server {
	t.Helper()
	pr, pw := io.Pipe()
	l := startLimited(t, ws, pw, false)
	c := newStdioClient(t, l.stdin, pr)
	s := &server{c: c, l: l, out: pw}
	id := c.request("initialize", map[string]any{
		"processId": nil, "rootUri": fileURI(ws),
		"workspaceFolders": []any{map[string]any{"uri": fileURI(ws), "name": "ws"}},
		"capabilities":     map[string]any{},
	})
	if _, ok := c.await(watchdog, c.response(id)); !ok {
		t.Fatalf("no answer to initialize\n%s", tail(l.stderr.String()))
	}
	c.notify("initialized", map[string]any{})
	return s
}

// answersOnAnotherDocument opens a small recipe and asks for its symbols: the answer must come within 1 s.
func (s *server) answersOnAnotherDocument(t testing.TB, ws string) {
	t.Helper()
	uri := fileURI(filepath.Join(ws, "other.yaml"))
	s.c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1,
		"text": "title: Other\ndescription: another recipe\nprompt: hello\n"}})
	id := s.c.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	m, ok := s.c.await(time.Second, s.c.response(id))
	if !ok {
		t.Errorf("no answer on another document within 1 s")
		return
	}
	if m.Error != nil {
		t.Errorf("documentSymbol on another document: error %d %s", m.Error.Code, m.Error.Message)
	}
}

// stop shuts the server down and waits for it.
func (s *server) stop(t testing.TB) result {
	t.Helper()
	id := s.c.request("shutdown", nil)
	if _, ok := s.c.await(watchdog, s.c.response(id)); !ok {
		t.Errorf("no answer to shutdown")
	}
	s.c.notify("exit", nil)
	res := s.l.wait()
	s.out.Close()
	if res.exit != 0 {
		t.Errorf("server exit %d after shutdown + exit\n%s", res.exit, tail(res.stderr))
	}
	return res
}
