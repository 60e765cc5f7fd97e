// summon's background delegates (`delegate(async: true)`): at most GOOSE_MAX_BACKGROUND_TASKS running, a
// task id per sub-agent, `load(source: ID)` waiting for (or cancelling) one, finished ones kept a while.

package agent

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// backgroundTask is one running or finished delegate.
type backgroundTask struct {
	id, label string
	started   time.Time
	turns     atomic.Int32
	cancel    context.CancelFunc
	done      chan struct{}
	// set before done is closed
	output   string
	failed   bool
	finished time.Time
}

type backgroundTasks struct {
	mu      sync.Mutex
	running map[string]*backgroundTask
	done    map[string]*backgroundTask // finished, awaiting retrieval
	lookup  func(string) (string, bool)
	// waits are goose's: 300 s for a running task, 5 s for a cancelled one to stop
	wait, cancelWait time.Duration
}

func newBackgroundTasks() *backgroundTasks {
	return &backgroundTasks{running: map[string]*backgroundTask{}, done: map[string]*backgroundTask{},
		wait: 300 * time.Second, cancelWait: 5 * time.Second}
}

// isTaskID is goose's is_session_id: `YYYYMMDD_N`.
func isTaskID(s string) bool {
	parts := strings.Split(s, "_")
	if len(parts) != 2 || len(parts[0]) != 8 {
		return false
	}
	for _, c := range parts[0] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func configInt(lookup func(string) (string, bool), key string, def int) int {
	if lookup != nil {
		if v, ok := lookup(key); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return def
}

// admit refuses a new background task when GOOSE_MAX_BACKGROUND_TASKS (5) are running.
func (b *backgroundTasks) admit(lookup func(string) (string, bool)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lookup = lookup
	b.expire()
	if max := configInt(lookup, "GOOSE_MAX_BACKGROUND_TASKS", 5); len(b.running) >= max {
		return fmt.Errorf("Maximum %d background tasks already running. Wait for completion or use sync mode.", max)
	}
	return nil
}

// expire drops finished tasks older than GOOSE_COMPLETED_TASK_TTL_SECS (600 s). b.mu is held.
func (b *backgroundTasks) expire() {
	ttl := time.Duration(configInt(b.lookup, "GOOSE_COMPLETED_TASK_TTL_SECS", 600)) * time.Second
	for id, t := range b.done {
		if time.Since(t.finished) > ttl {
			delete(b.done, id)
		}
	}
}

// start runs the task in the background (its own context, cancelled by load(cancel) or when the run's
// extensions close) and returns goose's text.
func (b *backgroundTasks) start(ctx context.Context, t *task) string {
	taskCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	bt := &backgroundTask{id: t.opts.sub.id, label: t.label, started: time.Now(), cancel: cancel, done: make(chan struct{})}
	events := t.opts.Events
	t.opts.Events = func(e Event) {
		if e.Kind == EventUsage {
			bt.turns.Add(1)
		}
		if events != nil {
			events(e)
		}
	}
	b.mu.Lock()
	b.running[bt.id] = bt
	b.mu.Unlock()
	go func() {
		defer cancel()
		text, err := runTaskText(taskCtx, t)
		b.mu.Lock()
		bt.output, bt.failed, bt.finished = text, err != nil, time.Now()
		if err != nil {
			bt.output = "Error: " + err.Error()
		}
		if _, still := b.running[bt.id]; still { // not taken by a waiting load
			delete(b.running, bt.id)
			b.done[bt.id] = bt
		}
		b.mu.Unlock()
		close(bt.done)
	}()
	return fmt.Sprintf("Task %s started in background: \"%s\"\nContinue with other work. When you need the result, use load(source: \"%s\").", bt.id, bt.label, bt.id)
}

// roundDuration is goose's: tens of seconds below a minute, else whole minutes.
func roundDuration(d time.Duration) string {
	secs := int(d.Seconds())
	if secs < 60 {
		return fmt.Sprintf("%ds", secs/10*10)
	}
	return fmt.Sprintf("%dm", secs/60)
}

func (t *backgroundTask) report(status string, elapsed time.Duration, output string) string {
	return fmt.Sprintf("# Background Task Result: %s\n\n**Task:** %s\n**Status:** %s\n**Duration:** %s (%d turns)\n\n## Output\n\n%s",
		t.id, t.label, status, roundDuration(elapsed), t.turns.Load(), output)
}

func finishedStatus(t *backgroundTask) string {
	if t.failed {
		return "✗ Failed"
	}
	return "✓ Completed"
}

// result is load(source: ID): a finished task's report, or wait for a running one (cancel: stop it).
func (b *backgroundTasks) result(ctx context.Context, id string, cancel bool) (string, error) {
	b.mu.Lock()
	b.expire()
	if t, ok := b.done[id]; ok {
		delete(b.done, id)
		b.mu.Unlock()
		return t.report(finishedStatus(t), t.finished.Sub(t.started), t.output), nil
	}
	t, ok := b.running[id]
	if ok {
		delete(b.running, id)
	}
	b.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("Task '%s' not found.", id)
	}
	if cancel {
		t.cancel()
		output := "Task did not stop in time (aborted)"
		select {
		case <-t.done:
			output = t.output
		case <-time.After(b.cancelWait):
		}
		return t.report("⊘ Cancelled", time.Since(t.started), output), nil
	}
	select {
	case <-t.done:
		return t.report(finishedStatus(t), t.finished.Sub(t.started), t.output), nil
	case <-ctx.Done():
	case <-time.After(b.wait):
	}
	b.mu.Lock()
	select {
	case <-t.done:
		b.done[id] = t
	default:
		b.running[id] = t
	}
	b.mu.Unlock()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return "", fmt.Errorf("Task '%s' is still running after waiting 5 min. Use load(source: \"%s\") to wait again, or load(source: \"%s\", cancel: true) to stop.", id, id, id)
}

// completedLines lists the finished tasks awaiting retrieval, by id.
func (b *backgroundTasks) completedLines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.expire()
	ids := make([]string, 0, len(b.done))
	for id := range b.done {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	lines := make([]string, len(ids))
	for i, id := range ids {
		status := "completed"
		if b.done[id].failed {
			status = "failed"
		}
		lines[i] = fmt.Sprintf("• %s - \"%s\" (%s)", id, b.done[id].label, status)
	}
	return lines
}

// cancelAll stops every running task (the run's extensions are closing).
func (b *backgroundTasks) cancelAll() {
	b.mu.Lock()
	running := make([]*backgroundTask, 0, len(b.running))
	for _, t := range b.running {
		running = append(running, t)
	}
	b.mu.Unlock()
	for _, t := range running {
		t.cancel()
		<-t.done
	}
}
