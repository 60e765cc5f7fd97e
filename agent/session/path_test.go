// The database is opened where its path says, whatever characters the path holds.
package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

func TestOpenPathWithURICharacters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a#b?c%20d")
	path := DefaultPath(dir)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Create(context.Background(), Session{Name: "n", WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(context.Background(), id, provider.Message{Role: provider.User, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Fatalf("the database is not at %s: %v", path, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("files beside the folder: %v", entries)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, msgs, err := s.Get(context.Background(), id); err != nil || len(msgs) != 1 {
		t.Errorf("reopened: %v, %d messages", err, len(msgs))
	}
}
