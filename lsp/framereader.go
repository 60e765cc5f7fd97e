// Bounded reading for the LSP stream: header lines of at most maxHeaderLine bytes, bodies read whole,
// oversized bodies skipped without being held, and bytes pushed back for resynchronisation.

package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxHeaderLine bounds one header line; a longer line is discarded, never buffered or echoed.
const maxHeaderLine = 8 << 10

// frameReader reads the raw stream. pending holds bytes pushed back (the tail of a body that turned out
// to hold the next message's headers); it is read before in.
type frameReader struct {
	pending []byte
	in      *bufio.Reader
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{in: bufio.NewReaderSize(r, 64<<10)}
}

// unread pushes b back so it is read next.
func (f *frameReader) unread(b []byte) {
	if len(f.pending) == 0 {
		f.pending = b
		return
	}
	f.pending = append(append(make([]byte, 0, len(b)+len(f.pending)), b...), f.pending...)
}

// readLine returns the next line including its '\n' (or what precedes EOF). A line longer than
// maxHeaderLine is consumed up to its newline and reported by tooLong with an empty line; n counts
// every byte consumed either way.
func (f *frameReader) readLine() (line []byte, n int64, tooLong bool, err error) {
	var buf []byte
	for {
		var chunk []byte
		var complete bool
		if len(f.pending) > 0 {
			if i := bytes.IndexByte(f.pending, '\n'); i >= 0 {
				chunk, f.pending, complete = f.pending[:i+1], f.pending[i+1:], true
			} else {
				chunk, f.pending = f.pending, nil
			}
		} else {
			var rerr error
			chunk, rerr = f.in.ReadSlice('\n')
			switch rerr {
			case nil:
				complete = true
			case bufio.ErrBufferFull:
			default:
				err = rerr
			}
		}
		n += int64(len(chunk))
		if !tooLong {
			if len(buf)+len(chunk) > maxHeaderLine {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if complete || err != nil {
			if tooLong {
				return nil, n, true, err
			}
			return buf, n, false, err
		}
	}
}

// errShortBody: the body held the next message's header, so it was shorter than its Content-Length.
var errShortBody = errors.New("message body shorter than its Content-Length")

// readBody reads an n-byte body. It reads as bytes arrive and stops early when they contain a complete
// Content-Length header line (valid JSON cannot: a raw line break cannot follow the digits inside a
// string): the body was shorter than announced and the next message starts there. Then the bytes
// before the header are returned with errShortBody and the rest is pushed back.
func (f *frameReader) readBody(n int64) ([]byte, error) {
	data := make([]byte, 0, min(n, 64<<10))
	var chunk [32 << 10]byte
	for int64(len(data)) < n {
		got, err := f.next(chunk[:min(n-int64(len(data)), int64(len(chunk)))])
		if err != nil {
			return nil, err
		}
		from := max(0, len(data)-headerScanBack)
		data = append(data, got...)
		if i := headerAt(data[from:]); i >= 0 {
			f.unread(bytes.Clone(data[from+i:]))
			return data[:from+i], errShortBody
		}
	}
	return data, nil
}

// next returns up to len(buf) bytes: pushed-back bytes first, else one read into buf (an error only when
// nothing was read).
func (f *frameReader) next(buf []byte) ([]byte, error) {
	if len(f.pending) > 0 {
		k := min(len(f.pending), len(buf))
		got := f.pending[:k]
		f.pending = f.pending[k:]
		return got, nil
	}
	k, err := f.in.Read(buf)
	if err != nil && k == 0 {
		return nil, err
	}
	return buf[:k], nil
}

// headerScanBack is how far before new bytes a header may start: the name, blanks and 20 digits.
const headerScanBack = len(contentLength) + 40

const contentLength = "Content-Length:"

// headerAt finds a complete "Content-Length: N" line (with its line break) in b, or returns -1.
func headerAt(b []byte) int {
	off := 0
	for {
		i := bytes.Index(b[off:], []byte(contentLength))
		if i < 0 {
			return -1
		}
		start := off + i
		j := start + len(contentLength)
		for j < len(b) && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		digits := j
		for j < len(b) && j-digits < 20 && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j > digits && j < len(b) && (b[j] == '\r' || b[j] == '\n') {
			return start
		}
		off = start + 1
	}
}

// skip discards n bytes without holding them, stopping early (like readBody) at a complete
// Content-Length header, from which reading resumes. It reports whether it stopped early.
func (f *frameReader) skip(n int64) (bool, error) {
	var chunk [32 << 10]byte
	var carry []byte // the last bytes seen, where a header may have started
	for n > 0 {
		got, err := f.next(chunk[:min(n, int64(len(chunk)))])
		if err != nil {
			return false, err
		}
		n -= int64(len(got))
		window := append(carry, got...)
		if i := headerAt(window); i >= 0 {
			f.unread(bytes.Clone(window[i:]))
			return true, nil
		}
		carry = append(carry[:0], window[max(0, len(window)-headerScanBack):]...)
	}
	return false, nil
}
