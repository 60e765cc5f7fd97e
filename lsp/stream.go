// A resilient LSP stream: Content-Length framing that answers a malformed frame or body with a JSON-RPC
// error and keeps reading, where jsonrpc2's own stream would close the connection.

package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage bounds one message's body so a hostile length cannot exhaust memory.
const maxMessage = 64 << 20

type stream struct {
	in  *bufio.Reader
	out io.Writer
	c   io.Closer
	wmu sync.Mutex
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{in: bufio.NewReaderSize(rwc, 64<<10), out: rwc, c: rwc}
}

// frameError is a recoverable framing problem: the stream stays usable.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// Read returns the next well-formed message, answering malformed ones itself.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		data, n, err := s.readFrame()
		var fe *frameError
		if errors.As(err, &fe) {
			slog.Warn("lsp: malformed frame", "error", fe.msg)
			s.writeError(nil, jsonrpc2.ParseError, fe.msg)
			continue
		}
		if err != nil {
			return nil, n, err
		}
		msg, derr := jsonrpc2.DecodeMessage(data)
		if derr == nil {
			if _, isResp := msg.(*jsonrpc2.Response); isResp && !isResponseShape(data) {
				derr = errors.New("a request needs a method")
			}
		}
		if derr != nil {
			code, id := classify(data)
			slog.Warn("lsp: malformed message", "error", derr)
			s.writeError(id, code, "invalid message: "+derr.Error())
			continue
		}
		return msg, n, nil
	}
}

// readFrame reads headers and body. A header block without a usable Content-Length is a frameError;
// the reader then resynchronises on the next Content-Length header.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	sawHeader := false
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if err == io.EOF && line == "" {
				return nil, total, io.EOF
			}
			return nil, total, io.ErrUnexpectedEOF
		}
		// a body without a trailing newline may be glued to the next header: resynchronise on it
		if i := strings.Index(line, "Content-Length:"); i > 0 {
			line = line[i:]
			sawHeader, length = false, -1
		}
		t := strings.TrimSpace(line)
		if t == "" {
			if !sawHeader {
				continue // stray blank line between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(t, ":")
		if !ok {
			return nil, total, &frameError{fmt.Sprintf("invalid header line %q", t)}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, perr := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if perr != nil || v <= 0 || v > maxMessage {
				return nil, total, &frameError{fmt.Sprintf("invalid Content-Length %q", strings.TrimSpace(value))}
			}
			length = v
		}
	}
	if length < 0 {
		return nil, total, &frameError{"missing Content-Length header"}
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, total, io.ErrUnexpectedEOF
	}
	return data, total + length, nil
}

// isResponseShape reports whether a message with an id carries a result or an error (else it is a
// request without a method, which jsonrpc2 would take for a response and drop).
func isResponseShape(data []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	_, r := probe["result"]
	_, e := probe["error"]
	return r || e
}

// classify decides between a parse error (not JSON) and an invalid request (JSON, wrong shape), and
// recovers the id when there is one.
func classify(data []byte) (jsonrpc2.Code, *jsonrpc2.ID) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return jsonrpc2.ParseError, nil
	}
	if len(probe.ID) == 0 || bytes.Equal(probe.ID, []byte("null")) {
		return jsonrpc2.InvalidRequest, nil
	}
	var id jsonrpc2.ID
	if err := json.Unmarshal(probe.ID, &id); err != nil {
		return jsonrpc2.InvalidRequest, nil
	}
	return jsonrpc2.InvalidRequest, &id
}

func (s *stream) writeError(id *jsonrpc2.ID, code jsonrpc2.Code, msg string) {
	type rpcErr struct {
		Code    jsonrpc2.Code `json:"code"`
		Message string        `json:"message"`
	}
	body, _ := json.Marshal(struct {
		JSONRPC string       `json:"jsonrpc"`
		ID      *jsonrpc2.ID `json:"id"`
		Error   rpcErr       `json:"error"`
	}{"2.0", id, rpcErr{code, msg}})
	s.writeRaw(body)
}

func (s *stream) writeRaw(body []byte) (int64, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	n, err := s.out.Write(b.Bytes())
	return int64(n), err
}

// Write sends one message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(body)
}

// Close closes the underlying connection.
func (s *stream) Close() error { return s.c.Close() }
