// The process's one read of goose's keyring entry, with a bounded wait, and writes merged into it.

package secretstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Wait bounds each keyring exchange. A Secret Service answers in milliseconds; what takes longer is a
// locked keyring waiting on its unlock prompt, or a service that was started and never answers. Past
// it the process goes on with secrets.yaml and never waits for the keyring again: the lookup keeps
// running, and a later run of the same process uses it once it answers (the user unlocked the keyring).
const Wait = 10 * time.Second

var (
	errNoEntry  = errors.New("no entry")              // the keyring has no entry for goose: no secrets
	errDisabled = errors.New("GOOSE_DISABLE_KEYRING") // secrets.yaml is the storage
	errTimeout  = fmt.Errorf("no answer within %v", Wait)
)

// unreachableError is a keyring goose falls back from: no D-Bus, no Secret Service, locked, no answer.
type unreachableError struct{ err error }

func (e unreachableError) Error() string { return e.err.Error() }
func (e unreachableError) Unwrap() error { return e.err }

func isUnreachable(err error) bool {
	var u unreachableError
	return errors.As(err, &u)
}

// keyringRead is the keyring's secrets, or why there are none.
type keyringRead struct {
	values      map[string]any
	err         error
	unreachable bool
}

// proc is this process's read of the keyring: started on the first lookup, waited for at most Wait
// in all (later lookups do not wait again), replaced by what a write stored.
var proc struct {
	mu       sync.Mutex
	started  bool
	done     chan struct{}
	deadline time.Time
	read     keyringRead
	written  bool // a write decided the state; the first read's late answer is dropped
}

// readKeyring returns the process's read of the keyring, starting it on first use.
func readKeyring() keyringRead {
	proc.mu.Lock()
	if !proc.started {
		proc.started, proc.done, proc.deadline = true, make(chan struct{}), time.Now().Add(Wait)
		go func() {
			r := parseEntry(platformGet()) // the waiters bound the wait; a late answer still counts
			proc.mu.Lock()
			if !proc.written {
				proc.read = r
			}
			proc.mu.Unlock()
			close(proc.done)
		}()
	}
	done, deadline, written := proc.done, proc.deadline, proc.written
	proc.mu.Unlock()
	if !written {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
			return keyringRead{err: unreachableError{errTimeout}, unreachable: true}
		}
	}
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.read
}

// bounded runs a keyring call in the background and waits for it at most Wait.
func bounded(call func() (string, error)) (string, error) {
	type answer struct {
		text string
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		t, err := call()
		ch <- answer{t, err}
	}()
	timer := time.NewTimer(Wait)
	defer timer.Stop()
	select {
	case a := <-ch:
		return a.text, a.err
	case <-timer.C:
		return "", errTimeout
	}
}

// parseEntry reads the entry as goose does: no entry is no secrets; any other keyring error makes goose
// fall back to secrets.yaml; an entry that is not a JSON object is one goose cannot read (its content
// never goes into the message).
func parseEntry(text string, err error) keyringRead {
	switch {
	case errors.Is(err, errNoEntry):
		return keyringRead{values: map[string]any{}}
	case err != nil:
		return keyringRead{err: unreachableError{err}, unreachable: true}
	}
	values, perr := decodeEntry(text)
	if perr != nil {
		return keyringRead{err: perr}
	}
	return keyringRead{values: values}
}

func decodeEntry(text string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var values map[string]any
	if err := dec.Decode(&values); err != nil || values == nil {
		return nil, fmt.Errorf("the keyring entry of service %s, user %s is not a JSON object, and goose cannot read it either: goose-ls uses no secret from it", Service, User)
	}
	return values, nil
}

// writeKeyring merges key into the entry as it is now (read afresh, so a secret goose stored since is
// kept) and writes the entry back. A keyring that cannot be reached turns the rest of the process to
// secrets.yaml, as goose does.
func writeKeyring(key, value string) error {
	r := parseEntry(bounded(platformGet))
	if r.err != nil {
		if r.unreachable {
			settle(r)
		}
		return r.err
	}
	r.values[key] = value
	data, err := json.Marshal(r.values)
	if err != nil {
		return err
	}
	if _, err := bounded(func() (string, error) { return "", platformSet(string(data)) }); err != nil {
		r = keyringRead{err: unreachableError{err}, unreachable: true}
		settle(r)
		return r.err
	}
	settle(r)
	return nil
}

// settle makes r the process's keyring state from now on.
func settle(r keyringRead) {
	proc.mu.Lock()
	defer proc.mu.Unlock()
	proc.written, proc.read = true, r
	if !proc.started {
		proc.started, proc.done = true, make(chan struct{})
		close(proc.done)
	}
}
