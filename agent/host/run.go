// Run: one run in the host's table — its ids, cancel, outcome, current turn and the edits of each turn
// kept for undo (capped per run).

package host

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/goose-ls/goose-ls/agent"
)

// StatusDeclined ends a run whose recipe's commands the user did not consent to.
const StatusDeclined agent.Status = "declined"

// ErrUndoDropped says a turn's edits were dropped from the run's undo data (the per-run cap).
var ErrUndoDropped = errors.New("the edits of this turn are no longer kept (the run's undo data is capped)")

// Edit is one file change a run made: the text before (nil when the file was created) and after.
type Edit struct {
	Path          string
	Before, After []byte
	Created       bool
	Turn          int
}

func (e Edit) size() int { return len(e.Before) + len(e.After) }

// Run is one agent run.
type Run struct {
	// ID names the run in the host's table ("run-N").
	ID string
	// Root is the run's workspace folder.
	Root string
	// Title is the recipe's title, or "ask" for a prompt.
	Title string
	// ResumedID is the session the run continues ("" for a new one).
	ResumedID string
	// Mode is the permission mode the run is in (GOOSE_MODE).
	Mode agent.Mode

	ctx      context.Context
	cancel   context.CancelFunc
	done     chan struct{}
	maxUndo  int
	outcome  agent.Outcome
	err      error
	mu       sync.Mutex
	session  string
	turn     int
	edits    map[int][]Edit
	undoSize int
	dropped  map[int]bool
}

func newRun(ctx context.Context, cancel context.CancelFunc, maxUndo int) *Run {
	return &Run{ctx: ctx, cancel: cancel, done: make(chan struct{}), maxUndo: maxUndo, edits: map[int][]Edit{}, dropped: map[int]bool{}}
}

// Cancel stops the run (the loop ends with status cancelled, child processes are killed).
func (r *Run) Cancel() { r.cancel() }

// Context ends when the run is cancelled or has ended (for a front end's own calls made for the run).
func (r *Run) Context() context.Context { return r.ctx }

// Done is closed when the run has ended.
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait blocks until the run ends and returns its outcome, or the error that kept it from running (a
// recipe that cannot run, no prompt, no provider); both are redacted.
func (r *Run) Wait() (agent.Outcome, error) {
	<-r.done
	return r.outcome, r.err
}

// SessionID is the session the run is stored under ("" until its first message is stored, or when
// sessions are off).
func (r *Run) SessionID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.session
}

func (r *Run) setSession(id string) {
	r.mu.Lock()
	r.session = id
	r.mu.Unlock()
}

// Turn is the main agent's current turn (from 1; 0 before the first).
func (r *Run) Turn() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.turn
}

func (r *Run) setTurn(n int) {
	r.mu.Lock()
	r.turn = n
	r.mu.Unlock()
}

// record keeps an edit under the current turn and returns it; past the undo cap the oldest turns' edits
// are dropped (an edit larger than the cap alone is not kept).
func (r *Run) record(e Edit) Edit {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.Turn = r.turn
	if e.size() > r.maxUndo {
		r.dropTurn(e.Turn)
		return e
	}
	if r.dropped[e.Turn] {
		return e
	}
	r.edits[e.Turn] = append(r.edits[e.Turn], e)
	r.undoSize += e.size()
	for r.undoSize > r.maxUndo {
		oldest := -1
		for t := range r.edits {
			if oldest < 0 || t < oldest {
				oldest = t
			}
		}
		r.dropTurn(oldest)
	}
	return e
}

func (r *Run) dropTurn(turn int) {
	for _, e := range r.edits[turn] {
		r.undoSize -= e.size()
	}
	delete(r.edits, turn)
	r.dropped[turn] = true
}

// Edits are the edits of one turn, in the order they were made.
func (r *Run) Edits(turn int) ([]Edit, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dropped[turn] {
		return nil, fmt.Errorf("%s turn %d: %w", r.ID, turn, ErrUndoDropped)
	}
	return append([]Edit(nil), r.edits[turn]...), nil
}

// ForgetTurn drops a turn's edits once they are undone.
func (r *Run) ForgetTurn(turn int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.edits[turn] {
		r.undoSize -= e.size()
	}
	delete(r.edits, turn)
}

// UndoBytes is the size of the texts the run keeps for undo.
func (r *Run) UndoBytes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.undoSize
}
