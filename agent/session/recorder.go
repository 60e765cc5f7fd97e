// Recorder stores one run's messages, creating the session with the first message.

package session

import (
	"context"
	"path/filepath"
	"sync"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// Recorder appends a run's messages and usage to a Store; safe for concurrent use.
type Recorder struct {
	Store *Store
	// Meta describes the session created with the first message (unused when ID is set: a resume).
	Meta Session
	// ID is the session being written (set it to continue a stored session).
	ID string
	// OnCreate is told the id of a newly created session.
	OnCreate func(id string)

	mu  sync.Mutex
	err error
}

// SetProvider names the provider and model, unless the session already exists or names them.
func (r *Recorder) SetProvider(name, model string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID == "" && r.Meta.Provider == "" {
		r.Meta.Provider, r.Meta.Model = name, model
	}
}

// Record stores one message of the main conversation.
func (r *Recorder) Record(m provider.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID == "" {
		id, err := r.Store.Create(context.Background(), r.Meta)
		if err != nil {
			r.keep(err)
			return
		}
		r.ID = id
		if r.OnCreate != nil {
			r.OnCreate(id)
		}
	}
	r.keep(r.Store.Append(context.Background(), r.ID, m))
}

// Usage adds a turn's token counts.
func (r *Recorder) Usage(u provider.Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID != "" {
		r.keep(r.Store.AddUsage(context.Background(), r.ID, u))
	}
}

// SessionID is the session's id ("" before the first message).
func (r *Recorder) SessionID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ID
}

// Err is the first storage error, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func (r *Recorder) keep(err error) {
	if err != nil && r.err == nil {
		r.err = err
	}
}

// NameFor names a session: "Recipe <file>" for a recipe run, else the prompt's start.
func NameFor(recipePath, prompt string) string {
	if recipePath != "" {
		return "Recipe " + filepath.Base(recipePath)
	}
	if r := []rune(prompt); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return prompt
}
