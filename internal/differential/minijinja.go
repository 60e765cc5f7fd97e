// The minijinja reference: mj-oracle (minijinja 2.24 with goose's features, driven as goose drives it).

package differential

import (
	"fmt"
	"os"
	"strconv"
)

// MJRequest is one question to mj-oracle.
type MJRequest struct {
	ID      string            `json:"id"`
	Text    string            `json:"text"`
	Dir     string            `json:"dir,omitempty"`
	Values  map[string]string `json:"values,omitempty"`
	WantPre bool              `json:"want_pre,omitempty"`
}

// MJError is a minijinja error as goose prints it.
type MJError struct {
	Kind    string `json:"kind"`
	Detail  string `json:"detail"`
	Line    *int   `json:"line"`
	Display string `json:"display"`
}

// MJAnswer is mj-oracle's answer (README of tools/minijinja-oracle-2.24).
type MJAnswer struct {
	ID            string   `json:"id"`
	PreChanged    bool     `json:"pre_changed"`
	Wrapped       []string `json:"wrapped"`
	Pre           *string  `json:"pre"`
	Syntax        *MJError `json:"syntax"`
	VarsMain      []string `json:"vars_main"`
	Vars          []string `json:"vars"`
	LenientOutput *string  `json:"lenient_output"`
	LenientError  *MJError `json:"lenient_error"`
	Loaded        []string `json:"loaded"`
	StrictOutput  *string  `json:"strict_output"`
	StrictError   *MJError `json:"strict_error"`
	Panic         *string  `json:"panic"`
	// Crashed is set here (not by the oracle) when the process died on this input.
	Crashed bool `json:"-"`
	// Refused is set by the harness (not the oracle): the error goose's loader gives today on a template
	// this render loaded that mj-oracle's loader (goose 1.38's) read (refusals.go); nil when none.
	Refused *MJError `json:"-"`
}

// MiniJinja is one long-lived mj-oracle process.
type MiniJinja struct{ proc *lineProcess }

// StartMiniJinja starts mj-oracle at path.
func StartMiniJinja(path string) (*MiniJinja, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("mj-oracle (expected ../shared beside the checkout): %w", err)
	}
	p, err := newLineProcess(path)
	if err != nil {
		return nil, err
	}
	return &MiniJinja{proc: p}, nil
}

// AskAll answers every request, in order.
func (m *MiniJinja) AskAll(reqs []MJRequest) []MJAnswer {
	in := make([]any, len(reqs))
	out := make([]any, len(reqs))
	answers := make([]MJAnswer, len(reqs))
	for i := range reqs {
		reqs[i].ID = strconv.Itoa(i)
		in[i], out[i] = &reqs[i], &answers[i]
	}
	for i, err := range m.proc.askAll(in, out) {
		if err != nil {
			answers[i] = MJAnswer{Crashed: true}
		}
	}
	return answers
}

// Close stops the process.
func (m *MiniJinja) Close() { m.proc.Close() }
