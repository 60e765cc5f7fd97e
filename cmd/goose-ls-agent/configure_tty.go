// The terminal `goose-ls configure` talks to: answers read a line at a time in the terminal's own line
// mode (its editing keys work), keys read without echo (golang.org/x/term), Ctrl-C and end of input
// stopping the set-up with nothing changed.

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// errStopped is Ctrl-D (end of input) at a question.
var errStopped = errors.New("stopped")

// maxAnswer bounds one answer: names, model names and API keys are far shorter.
const maxAnswer = 4096

// prompter asks the set-up's questions.
type prompter interface {
	// line shows prompt and returns the answer, trimmed
	line(prompt string) (string, error)
	// hidden shows prompt and returns the answer typed without echo, trimmed
	hidden(prompt string) (string, error)
}

// ttyPrompter asks on the process's terminal.
type ttyPrompter struct {
	fd  int
	in  io.Reader
	out io.Writer
}

func (p *ttyPrompter) line(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	// one byte at a time, so nothing typed ahead for the next question is taken with this answer
	var buf []byte
	b := make([]byte, 1)
	for {
		n, err := p.in.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return strings.TrimSpace(string(buf)), nil
			}
			if len(buf) < maxAnswer {
				buf = append(buf, b[0])
			}
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				fmt.Fprintln(p.out)
				return "", errStopped
			}
			return "", err
		}
	}
}

func (p *ttyPrompter) hidden(prompt string) (string, error) {
	fmt.Fprint(p.out, prompt)
	data, err := term.ReadPassword(p.fd)
	fmt.Fprintln(p.out) // the Enter that ended the answer was not echoed
	if err != nil {
		if errors.Is(err, io.EOF) {
			return "", errStopped
		}
		return "", err
	}
	if len(data) > maxAnswer {
		return "", fmt.Errorf("the answer is longer than %d bytes", maxAnswer)
	}
	return strings.TrimSpace(string(data)), nil
}

// stdinTerminal is stdin's descriptor when it is a terminal.
func stdinTerminal() (int, bool) {
	fd := int(os.Stdin.Fd())
	return fd, term.IsTerminal(fd)
}
