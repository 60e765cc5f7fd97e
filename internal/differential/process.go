// A long-lived reference process spoken to in JSON lines: one request per line in, one answer per line out.

package differential

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"sync"
	"time"
)

// answerTimeout is how long a reference may take over one answer before it is killed and restarted.
const answerTimeout = 60 * time.Second

// maxAnswerBytes bounds one answer line (a rendered recipe is at most a few hundred KiB here).
const maxAnswerBytes = 64 << 20

// lineProcess runs a command that answers each JSON line on stdin with one JSON line on stdout, in order.
// It is restarted when it dies (a reference that crashes on one input must not end the run).
type lineProcess struct {
	name string
	args []string
	// timeout is how long one answer may take (answerTimeout unless a test shortens it).
	timeout time.Duration

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
}

func newLineProcess(name string, args ...string) (*lineProcess, error) {
	p := &lineProcess{name: name, args: args, timeout: answerTimeout}
	if err := p.start(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *lineProcess) start() error {
	cmd := exec.Command(p.name, p.args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("stdin of %s: %w", p.name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("stdout of %s: %w", p.name, err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	p.cmd, p.stdin, p.stdout = cmd, in, bufio.NewReaderSize(out, 1<<16)
	return nil
}

// errCrashed reports that the process died while answering (the answer is lost, the process restarted).
var errCrashed = errors.New("reference process crashed")

// askAll sends every request and decodes the answers into out[i] (pointers), writing while it reads so
// neither pipe fills up. A crash fails the request being answered and the rest are sent again.
func (p *lineProcess) askAll(reqs []any, out []any) []error {
	p.mu.Lock()
	defer p.mu.Unlock()
	errs := make([]error, len(reqs))
	for done := 0; done < len(reqs); {
		n, err := p.pipeline(reqs[done:], out[done:])
		done += n
		if err != nil {
			if done < len(reqs) {
				errs[done] = err
				done++
			}
			if rerr := p.restart(); rerr != nil {
				for i := done; i < len(reqs); i++ {
					errs[i] = rerr
				}
				return errs
			}
		}
	}
	return errs
}

// pipeline writes reqs on a goroutine while decoding answers; it returns how many were answered.
func (p *lineProcess) pipeline(reqs []any, out []any) (int, error) {
	writeErr := make(chan error, 1)
	stdin := p.stdin
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<16)
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range reqs {
			if err := enc.Encode(r); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- w.Flush()
	}()
	// a reference that stops answering (an endless loop on one input) is killed, which ends the read below
	cmd := p.cmd
	watchdog := time.AfterFunc(p.timeout, func() { cmd.Process.Kill() })
	defer watchdog.Stop()
	for i := range reqs {
		watchdog.Reset(p.timeout)
		line, err := p.stdout.ReadBytes('\n')
		if err != nil || len(line) > maxAnswerBytes {
			slog.Warn("reference process stopped answering", "cmd", p.name, "err", err)
			return i, fmt.Errorf("%w: %s: %v", errCrashed, p.name, err)
		}
		if err := json.Unmarshal(line, out[i]); err != nil {
			return i + 1, fmt.Errorf("decode answer of %s: %w", p.name, err)
		}
	}
	if err := <-writeErr; err != nil {
		return len(reqs), fmt.Errorf("write to %s: %w", p.name, err)
	}
	return len(reqs), nil
}

func (p *lineProcess) restart() error {
	p.stop()
	return p.start()
}

func (p *lineProcess) stop() {
	if p.cmd == nil {
		return
	}
	p.stdin.Close()
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	p.cmd.Wait()
	p.cmd = nil
}

// Close ends the process.
func (p *lineProcess) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop()
}
