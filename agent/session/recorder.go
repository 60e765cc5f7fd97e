// Recorder stores one run's messages, each committed before Record returns, creating the session when the
// run begins (else with the first message); a sub-agent's run is stored as a session of its own, linked to
// its parent's.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/goccy/go-yaml"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// Recorder appends a run's messages and usage to a Store; safe for concurrent use.
type Recorder struct {
	Store *Store
	// Meta describes the session created with the first message (unused when ID is set: a resume).
	Meta Session
	// ID is the session being written (set it to continue a stored session; one of a newer goose's store is
	// copied into goose-ls's own store with the first message, and ID becomes the copy's).
	ID string
	// OnCreate is told the id of a newly created (or copied) session.
	OnCreate func(id string)

	parent  *Recorder // a sub-agent's: the recorder of the run that delegated to it
	mu      sync.Mutex
	err     error
	checked bool // ID was checked to be writable (a newer goose's session is copied first)
	// provider and model answering now (SetProvider)
	provider, model string
	// pendingExt are extension_data entries set before the session was created (SetExtensionData)
	pendingExt map[string]any
}

// SetProvider names the provider and model of the session created with the first message (unless the
// session already exists or Meta names them) and of every assistant message recorded (metadata_json's
// inference), a resumed session's included.
func (r *Recorder) SetProvider(name, model string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.provider, r.model = name, model
	if r.ID == "" && r.Meta.Provider == "" {
		r.Meta.Provider, r.Meta.Model = name, model
	}
}

// SetRecipe keeps the rendered recipe (YAML or JSON text) as the new session's recipe_json, as goose
// stores the recipe it runs; text that is not a YAML mapping is ignored.
func (r *Recorder) SetRecipe(rendered string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID != "" || len(r.Meta.Recipe) > 0 {
		return
	}
	if b, err := RecipeJSON(rendered); err == nil {
		r.Meta.Recipe = b
	} else {
		slog.Debug("sessions: the recipe is not stored", "err", err)
	}
}

// RecipeJSON converts a rendered recipe (YAML, or JSON which is YAML) to compact JSON.
func RecipeJSON(rendered string) (json.RawMessage, error) {
	var v any
	if err := yaml.Unmarshal([]byte(rendered), &v); err != nil {
		return nil, fmt.Errorf("recipe: %w", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("recipe: not a mapping")
	}
	return marshalCompact(v)
}

// Begin creates the session now, before the run's first message (goose creates it before the run's
// extensions start, which are told its id), or checks that a resumed one is writable.
func (r *Recorder) Begin() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ensure()
}

// Record stores one message of the main conversation.
func (r *Recorder) Record(m provider.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ensure() {
		return
	}
	r.keep(r.Store.appendMessage(context.Background(), r.ID, m, r.provider, r.model))
	r.flushExtensionData()
}

// ensure creates the session (a new run's) or checks once that it is writable (a resumed one's, copying a
// newer goose's session first); false when that failed.
func (r *Recorder) ensure() bool {
	if r.checked {
		return true
	}
	if r.ID == "" {
		if r.parent != nil {
			r.Meta.ParentID = r.parent.SessionID()
		}
		id, err := r.Store.Create(context.Background(), r.Meta)
		if err != nil {
			r.keep(err)
			return false
		}
		r.ID = id
		if r.OnCreate != nil {
			r.OnCreate(id)
		}
	} else {
		id, err := r.Store.writableID(context.Background(), r.ID)
		if err != nil {
			r.keep(err)
			return false
		}
		if id != r.ID {
			r.ID = id
			if r.OnCreate != nil {
				r.OnCreate(id)
			}
		}
		if r.provider != "" { // goose's update_provider: a resumed session names the provider now answering
			if err := r.Store.setProvider(context.Background(), r.ID, r.provider, r.model); err != nil {
				r.keep(err)
				return false
			}
		}
	}
	r.checked = true
	return true
}

// Usage records one provider request's token counts (AddUsage), once the session exists.
func (r *Recorder) Usage(u provider.Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ID != "" {
		r.keep(r.Store.AddUsage(context.Background(), r.ID, r.model, u))
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
	if err == nil {
		return
	}
	if r.parent != nil { // a sub-agent's storage errors are its run's
		r.parent.mu.Lock()
		defer r.parent.mu.Unlock()
		r.parent.keep(err)
		return
	}
	if r.err == nil {
		r.err = err
	}
}

// SubAgentName is the name goose gives a delegated task's session.
const SubAgentName = "Delegated task"

// SubAgent is the recorder of a sub-agent the run delegates to, working in workDir: its session, created
// with its first message, is goose's for a delegated task (type sub_agent, mode auto, parent_session_id
// the run's session where the store has it); its storage errors are reported as the run's.
func (r *Recorder) SubAgent(workDir string) *Recorder {
	return &Recorder{Store: r.Store, parent: r,
		Meta: Session{Name: SubAgentName, Type: "sub_agent", WorkingDir: workDir, GooseMode: "auto"}}
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
