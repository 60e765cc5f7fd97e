// A resilient LSP stream: Content-Length framing that answers a malformed frame or body with a JSON-RPC
// error and keeps reading, where jsonrpc2's own stream would close the connection.

package lsp

import (
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

// maxMessage bounds one message's body so a hostile length cannot exhaust memory; a longer message is
// answered with an error and skipped without being held.
const maxMessage = 64 << 20

type stream struct {
	in  *frameReader
	out io.Writer
	c   io.Closer
	wmu sync.Mutex
	// resync: after a bad header, lines are dropped silently until a blank line or the next
	// Content-Length header, so a garbage flood gets one answer, not one per line
	resync bool
	// toSkip is the length of an oversized body still to skip
	toSkip int64
}

func newStream(rwc io.ReadWriteCloser) *stream {
	return &stream{in: newFrameReader(rwc), out: rwc, c: rwc}
}

// frameError is a recoverable framing problem: the stream stays usable. Its message never quotes the
// input.
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
		msg, derr := decodeMessage(data)
		if derr != nil {
			code, id := classify(data)
			slog.Warn("lsp: malformed message", "error", derr, "bytes", len(data))
			s.writeError(id, code, "invalid message: "+derr.Error())
			continue
		}
		return msg, n, nil
	}
}

// decodeMessage decodes one JSON-RPC message, refusing what jsonrpc2 would silently misread: a request
// without a method (taken for a response) and a request whose id is null (taken for a notification).
func decodeMessage(data []byte) (jsonrpc2.Message, error) {
	msg, err := jsonrpc2.DecodeMessage(data)
	if err != nil {
		return nil, errors.New("not a JSON-RPC message")
	}
	switch msg.(type) {
	case *jsonrpc2.Response:
		if !isResponseShape(data) {
			return nil, errors.New("a request needs a method")
		}
	case *jsonrpc2.Notification:
		// `"id"` can only appear raw as a key or a string ending in id (quotes inside strings are escaped)
		if bytes.Contains(data, []byte(`"id"`)) && hasNullID(data) {
			return nil, errors.New("a request id must be a number or a string, not null")
		}
	}
	return msg, nil
}

// hasNullID reports whether the object has an "id" member whose value is null.
func hasNullID(data []byte) bool {
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	id, ok := probe["id"]
	return ok && bytes.Equal(bytes.TrimSpace(id), []byte("null"))
}

// readFrame reads headers and body. A header block without a usable Content-Length is a frameError;
// the reader then resynchronises on the next Content-Length header.
func (s *stream) readFrame() ([]byte, int64, error) {
	if n := s.toSkip; n > 0 {
		s.toSkip = 0
		if _, err := s.in.skip(n); err != nil {
			return nil, 0, io.ErrUnexpectedEOF
		}
	}
	var total int64
	length := int64(-1)
	sawHeader := false
	for {
		raw, n, tooLong, err := s.in.readLine()
		total += n
		if tooLong {
			if s.resync {
				continue
			}
			s.resync = true
			return nil, total, &frameError{fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)}
		}
		if err != nil {
			if err == io.EOF && len(raw) == 0 {
				return nil, total, io.EOF
			}
			return nil, total, io.ErrUnexpectedEOF
		}
		line := string(raw)
		// a body without a trailing newline may be glued to the next header: resynchronise on it
		if i := strings.Index(line, contentLength); i > 0 {
			line = line[i:]
			sawHeader, length = false, -1
		}
		t := strings.TrimSpace(line)
		if s.resync {
			// silent until the next header block: a blank line or a Content-Length header
			if t == "" {
				s.resync = false
				continue
			}
			if !hasPrefixFold(t, contentLength) {
				continue
			}
			s.resync = false
		}
		if t == "" {
			if !sawHeader {
				continue // stray blank line between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(t, ":")
		if !ok {
			s.resync = true
			return nil, total, &frameError{fmt.Sprintf("invalid header line (%d bytes)", len(t))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, perr := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if perr != nil || v <= 0 {
				s.resync = true
				return nil, total, &frameError{"invalid Content-Length"}
			}
			length = v
		}
	}
	if length < 0 {
		return nil, total, &frameError{"missing Content-Length header"}
	}
	if length > maxMessage {
		s.toSkip = length // skipped on the next read, after the answer went out
		return nil, total, &frameError{fmt.Sprintf("message of %d bytes skipped: the limit is %d", length, maxMessage)}
	}
	data, err := s.in.readBody(length)
	if errors.Is(err, errShortBody) {
		return nil, total + int64(len(data)), &frameError{errShortBody.Error()}
	}
	if err != nil {
		return nil, total, io.ErrUnexpectedEOF
	}
	return data, total + length, nil
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
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
		if json.Valid(data) {
			return jsonrpc2.InvalidRequest, nil // JSON, but not an object
		}
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

// Write sends one message. It ignores ctx: the answer to a cancelled request must still go out.
func (s *stream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeRaw(body)
}

// Close closes the underlying connection.
func (s *stream) Close() error { return s.c.Close() }
