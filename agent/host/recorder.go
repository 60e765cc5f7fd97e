// The run's session recorder, pipelined: the store opens and every write runs in order on a goroutine of
// its own, so the first provider request waits neither for SQLite's open (schema check, migrations) nor
// for the synced commit of the first message, and on a busy machine does not even share the CPU with
// them: the store opens once the first request is written (the host's httptrace hook), or once anything
// waits for the recorder, or after openAfter at the latest. The run ends only when everything queued is
// written.

package host

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/goose-ls/goose-ls/agent/provider"
	"github.com/goose-ls/goose-ls/agent/session"
)

// queuedRecorder is an agent.Recorder (and the todo extension's extension-data store) in front of a
// session.Recorder whose store is opened by the queue's goroutine. Writes return at once; reads wait
// for the writes queued before them. A store that cannot be opened stores nothing (open reports why).
type queuedRecorder struct {
	inner      *session.Recorder // the worker's alone (its Store set once open)
	newSession bool              // inner continues no stored session
	done       chan struct{}     // closed when the worker has written everything and stopped
	gate       chan struct{}     // closed when the store may open (openNow)
	gateOnce   sync.Once

	mu       sync.Mutex
	wake     *sync.Cond
	queue    []func(*session.Recorder)
	closed   bool
	recorded bool           // a message was queued: the session exists from then on
	early    map[string]any // extension data set before the first message of a new session
}

// openAfter is how long the store waits for the first request to be written before it opens anyway (a
// provider that does not speak HTTP, a run that fails before its first request).
const openAfter = 250 * time.Millisecond

// newQueuedRecorder starts the worker: open returns the store (on the worker, once openNow is called or
// after openAfter), inner is the recorder it writes through (its Store is set by the worker).
func newQueuedRecorder(inner *session.Recorder, open func() (*session.Store, error), openAfter time.Duration) *queuedRecorder {
	q := &queuedRecorder{inner: inner, newSession: inner.ID == "", done: make(chan struct{}), gate: make(chan struct{})}
	q.wake = sync.NewCond(&q.mu)
	go q.work(open, openAfter)
	return q
}

// openNow lets the store open (the first request is written, or someone waits for the recorder).
func (q *queuedRecorder) openNow() { q.gateOnce.Do(func() { close(q.gate) }) }

func (q *queuedRecorder) work(open func() (*session.Store, error), openAfter time.Duration) {
	defer close(q.done)
	timer := time.NewTimer(openAfter)
	select {
	case <-q.gate:
	case <-timer.C:
	}
	timer.Stop()
	in := q.inner
	if store, err := open(); err != nil {
		in = nil
	} else {
		in.Store = store
	}
	for {
		q.mu.Lock()
		for len(q.queue) == 0 && !q.closed {
			q.wake.Wait()
		}
		if len(q.queue) == 0 {
			q.mu.Unlock()
			return
		}
		op := q.queue[0]
		q.queue[0] = nil
		q.queue = q.queue[1:]
		q.mu.Unlock()
		op(in)
	}
}

// enqueue adds op (given nil when nothing is stored); after close it is dropped.
func (q *queuedRecorder) enqueue(op func(*session.Recorder)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.queue = append(q.queue, op)
	q.wake.Signal()
}

// call runs op after everything queued before it and waits for it.
func (q *queuedRecorder) call(op func(*session.Recorder)) {
	q.openNow()
	ran := make(chan struct{})
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.queue = append(q.queue, func(in *session.Recorder) {
		defer close(ran)
		op(in)
	})
	q.wake.Signal()
	q.mu.Unlock()
	<-ran
}

// flush waits until everything queued so far is written.
func (q *queuedRecorder) flush() { q.call(func(*session.Recorder) {}) }

// close waits until everything queued is written and returns the first storage error.
func (q *queuedRecorder) close() error {
	q.openNow()
	q.mu.Lock()
	q.closed = true
	q.wake.Signal()
	q.mu.Unlock()
	<-q.done
	return q.inner.Err()
}

func (q *queuedRecorder) SetProvider(name, model string) {
	q.enqueue(func(in *session.Recorder) {
		if in != nil {
			in.SetProvider(name, model)
		}
	})
}

// SetRecipe keeps the rendered recipe as the new session's recipe_json (session.Recorder.SetRecipe).
func (q *queuedRecorder) SetRecipe(rendered string) {
	q.enqueue(func(in *session.Recorder) {
		if in != nil {
			in.SetRecipe(rendered)
		}
	})
}

func (q *queuedRecorder) Record(m provider.Message) {
	q.mu.Lock()
	q.recorded = true
	q.mu.Unlock()
	q.enqueue(func(in *session.Recorder) {
		if in != nil {
			in.Record(m)
		}
	})
}

func (q *queuedRecorder) Usage(u provider.Usage) {
	q.enqueue(func(in *session.Recorder) {
		if in != nil {
			in.Usage(u)
		}
	})
}

// SetExtensionData stores value under key once everything queued before it is written.
func (q *queuedRecorder) SetExtensionData(key string, value any) error {
	q.mu.Lock()
	if !q.recorded && q.newSession {
		if q.early == nil {
			q.early = map[string]any{}
		}
		q.early[key] = value
	}
	q.mu.Unlock()
	var err error
	q.call(func(in *session.Recorder) {
		if in != nil {
			err = in.SetExtensionData(key, value)
		}
	})
	return err
}

// ExtensionData is the value under key in the session being continued. A new session's, before its
// first message, is only what SetExtensionData was given: answered without waiting for the store.
func (q *queuedRecorder) ExtensionData(key string) (json.RawMessage, bool) {
	q.mu.Lock()
	if !q.recorded && q.newSession {
		v, ok := q.early[key]
		q.mu.Unlock()
		if !ok {
			return nil, false
		}
		b, err := json.Marshal(v)
		return b, err == nil
	}
	q.mu.Unlock()
	var raw json.RawMessage
	var found bool
	q.call(func(in *session.Recorder) {
		if in != nil {
			raw, found = in.ExtensionData(key)
		}
	})
	return raw, found
}
