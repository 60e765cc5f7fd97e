// The recipe retry flow: shell checks decide whether the task succeeded; on failure on_failure runs
// and the conversation starts over, up to max_retries.

package agent

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/goose-ls/goose-ls/agent/tools"
)

// Default timeouts of goose's retry flow.
const (
	DefaultCheckTimeout     = 300 * time.Second
	DefaultOnFailureTimeout = 600 * time.Second
)

// Retry is a recipe's retry block.
type Retry struct {
	MaxRetries       int
	Checks           []string // shell commands
	OnFailure        string
	Timeout          time.Duration
	OnFailureTimeout time.Duration
}

func (rt *Retry) env() []string { return append(os.Environ(), "GOOSE_TERMINAL=1") }

// run runs the checks in order, stopping at the first failure.
func (rt *Retry) run(ctx context.Context, dir string, emit func(Event)) (bool, error) {
	timeout := rt.Timeout
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	for _, c := range rt.Checks {
		res := tools.Shell(ctx, dir, c, timeout, rt.env())
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if res.IsError {
			emit(Event{Kind: EventNotice, Text: fmt.Sprintf("Check failed: %s\n%s", c, strings.TrimSpace(res.Text))})
			return false, nil
		}
		emit(Event{Kind: EventNotice, Text: "Check passed: " + c})
	}
	return true, nil
}

func (rt *Retry) onFailure(ctx context.Context, dir string, emit func(Event)) error {
	if strings.TrimSpace(rt.OnFailure) == "" {
		return nil
	}
	timeout := rt.OnFailureTimeout
	if timeout <= 0 {
		timeout = DefaultOnFailureTimeout
	}
	res := tools.Shell(ctx, dir, rt.OnFailure, timeout, rt.env())
	if res.IsError {
		return fmt.Errorf("On_failure command failed: %s", strings.TrimSpace(res.Text))
	}
	emit(Event{Kind: EventNotice, Text: "Ran on_failure: " + rt.OnFailure})
	return nil
}
