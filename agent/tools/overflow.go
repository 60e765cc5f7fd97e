// The private per-run folder where shell output too long for the model is saved, removed when the run ends.

package tools

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// SaveFunc stores the full text of an output too long for the model and returns the file it went to.
type SaveFunc func(text string) (path string, err error)

// OutputDir is a run's private folder (0700) of saved outputs (0600 files), made at the first Save.
type OutputDir struct {
	mu      sync.Mutex
	dir     string
	removed bool
}

// Save writes text to a new file of the folder (shell-output-<random>.txt); it is the one writer of
// saved shell output.
func (o *OutputDir) Save(text string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.removed {
		return "", errors.New("the run has ended")
	}
	if o.dir == "" {
		dir, err := os.MkdirTemp("", "goose-ls-run-*") // 0700
		if err != nil {
			return "", fmt.Errorf("making the output folder: %w", err)
		}
		o.dir = dir
	}
	fh, err := os.CreateTemp(o.dir, "shell-output-*.txt") // 0600
	if err != nil {
		return "", fmt.Errorf("saving the output: %w", err)
	}
	if _, err := fh.WriteString(text); err != nil {
		fh.Close()
		return "", fmt.Errorf("saving the output: %w", err)
	}
	if err := fh.Close(); err != nil {
		return "", fmt.Errorf("saving the output: %w", err)
	}
	return fh.Name(), nil
}

// Dir is the folder, "" before the first Save.
func (o *OutputDir) Dir() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.dir
}

// Remove deletes the folder and everything in it; later Saves fail.
func (o *OutputDir) Remove() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.removed = true
	if o.dir == "" {
		return nil
	}
	if err := os.RemoveAll(o.dir); err != nil {
		return fmt.Errorf("removing the output folder: %w", err)
	}
	return nil
}
